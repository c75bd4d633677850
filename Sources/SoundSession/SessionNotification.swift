/// Something the game is told, as AVAudioSession notifications and Wwise
/// callbacks tell it.
public enum SessionNotification: Hashable, Sendable {
    /// An interruption began or ended (`interruptionNotification`, Wwise's
    /// interruption callback).
    case interruption(Interruption)
    /// The route changed (`routeChangeNotification`).
    case routeChange(RouteChange)
    /// Other apps' audio (music, video or a call) started (`true`) or stopped
    /// playing audibly (`isOtherAudioPlaying`).
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
