/// Everything the game is told, as one value: the payload of the callbacks
/// and `NotificationCenter` posts, what `SoundEngine.events()` yields, what
/// the IntegrationDemo prints as JSON lines — and what
/// ``AudioSessionPolicy/handle(_:)`` returns as notifications.
///
/// The policy produces every case except ``engineState(_:)``, which the
/// engine adds when it starts, pauses, resumes or stops rendering.
public enum SessionEvent: Hashable, Sendable {
    /// The engine started, paused, resumed or stopped rendering.
    case engineState(EngineState)
    /// An interruption began or ended (`interruptionNotification`, Wwise's
    /// interruption callback).
    case interruption(Interruption)
    /// The route changed (`routeChangeNotification`).
    case routeChange(RouteChange)
    /// Other apps' audio (music, video or a call) started (`true`) or stopped
    /// playing audibly (`isOtherAudioPlaying`; Wwise's
    /// `AkAudioSourceChangeCallbackFunc`).
    case otherAudioPlaying(Bool)
    /// Primary audio of another app started or stopped; sent only while the
    /// app is in the foreground with an active session
    /// (`silenceSecondaryAudioHintNotification`).
    case silenceSecondaryAudioHint(SilenceSecondaryAudioHintType)
    /// The sound server went away (`mediaServicesWereLostNotification`).
    case mediaServicesWereLost
    /// The server is back and everything has been rebuilt and re-applied
    /// (`mediaServicesWereResetNotification`).
    case mediaServicesWereReset
    /// The buses flagged "mute for background music" were muted (`true`) or
    /// unmuted (Wwise's `BGMCallback`).
    case backgroundMusicMuted(Bool)
}
