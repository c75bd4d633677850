// `import SoundEngine` is all a game needs: the value types of the layers
// below (errors, formats, session types, mixer IDs and parameters, latency
// requests) come with it. No C module is re-exported.
@_exported public import SoundBackend
@_exported public import SoundCore
@_exported public import SoundMixer
@_exported public import SoundSession
