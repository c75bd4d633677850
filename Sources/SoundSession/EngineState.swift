/// Whether the engine renders to its streams.
public enum EngineState: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Streams uncorked, mixer running.
    case running
    /// Streams corked, for this reason.
    case paused(PauseReason)
    /// The engine was terminated (the policy never plans this state; the
    /// engine reports it last).
    case stopped

    /// Whether the engine is running.
    public var isRunning: Bool { self == .running }

    /// `running`, `paused` or `stopped`: the `state` field of the demo's JSON.
    public var name: String {
        switch self {
        case .running: "running"
        case .paused: "paused"
        case .stopped: "stopped"
        }
    }

    /// The name, with the reason when paused.
    public var description: String {
        if case .paused(let reason) = self { return "paused (\(reason))" }
        return name
    }
}
