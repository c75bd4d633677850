// What `import SoundEngine` brings besides this module's own declarations:
// exactly these, by name (decision 0013). No module is re-exported whole and
// no C module at all; every other type of the layers below reaches a game
// only nested, through the typealiases of SoundEngine+Names.swift, or not
// at all (`package` access). api/public-api.txt lists the whole surface.
@_exported public import enum SoundCore.SoundEngineError
@_exported public import protocol SoundCore.SoundLogger
@_exported public import enum SoundSession.SessionEvent
