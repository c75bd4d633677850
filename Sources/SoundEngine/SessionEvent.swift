public import SoundSession

/// Everything the engine tells the game, as one value: what the
/// ``SoundEngine/events()`` stream yields, what the IntegrationDemo prints as
/// JSON lines, and the payload of the callbacks and notifications.
public enum SessionEvent: Sendable, Hashable {
    /// The engine started, paused, resumed or stopped rendering.
    case engineState(EngineStatus)
    /// An interruption began or ended.
    case interruption(Interruption)
    /// The route changed.
    case routeChange(RouteChange)
    /// Other applications' audio started or stopped playing audibly.
    case otherAudioPlaying(Bool)
    /// Another application's primary audio started or stopped (foreground only).
    case silenceSecondaryAudioHint(SilenceSecondaryAudioHintType)
    /// The sound server went away; the engine is waiting for it.
    case mediaServicesWereLost
    /// The server is back; streams were rebuilt and the session re-applied.
    case mediaServicesWereReset
    /// The buses flagged "mute for background music" were muted or unmuted.
    case backgroundMusicMuted(Bool)

    /// The event a session-policy notification becomes.
    init(_ notification: SessionNotification) {
        switch notification {
        case .interruption(let i): self = .interruption(i)
        case .routeChange(let r): self = .routeChange(r)
        case .otherAudioPlaying(let p): self = .otherAudioPlaying(p)
        case .silenceSecondaryAudioHint(let h): self = .silenceSecondaryAudioHint(h)
        case .mediaServicesWereLost: self = .mediaServicesWereLost
        case .mediaServicesWereReset: self = .mediaServicesWereReset
        case .backgroundMusicMuted(let m): self = .backgroundMusicMuted(m)
        }
    }
}

/// Whether the engine renders audio.
public enum EngineStatus: Sendable, Hashable, CustomStringConvertible {
    /// The output stream plays what the mixer renders.
    case running
    /// The output stream is corked, for this reason; voices keep their place.
    case paused(PauseReason)
    /// The engine was terminated.
    case stopped

    /// `running`, `paused` or `stopped`: the `state` field of the demo's JSON.
    public var name: String {
        switch self {
        case .running: "running"
        case .paused: "paused"
        case .stopped: "stopped"
        }
    }

    public var description: String {
        if case .paused(let reason) = self { return "paused (\(reason))" }
        return name
    }
}
