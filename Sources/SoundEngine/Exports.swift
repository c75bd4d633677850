// `import SoundEngine` is all a game needs: the public value types of the
// layers below (errors, formats, session types, mixer IDs and parameters,
// latency requests, the bank model) come with it. Everything a game does not
// need (the mixer, the policy state machine, the backend contract, render
// entry points, server indices…) has `package` access, so it is neither
// re-exported nor reachable by importing those modules directly;
// Tests/PackageConsumer/check proves it. No C module is re-exported.
@_exported public import SoundBackend
@_exported public import SoundCore
@_exported public import SoundMixer
@_exported public import SoundSession
@_exported public import SoundContent
