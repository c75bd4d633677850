// The content model (banks, curves, ContentID) is part of what a game uses
// with postEvent and loadBank, so `import SoundEngine` brings it, like the
// value types of the other layers (Exports.swift).
@_exported public import SoundContent
