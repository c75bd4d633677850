/// Whether the engine renders to its streams.
public enum EngineState: Hashable, Sendable, Codable {
    /// Streams uncorked, mixer running.
    case running
    /// Streams corked, for this reason.
    case paused(PauseReason)

    /// Whether the engine is running.
    public var isRunning: Bool { self == .running }
}
