/// Whether an interruption begins or ends: AVAudioSession's `InterruptionType`.
public enum InterruptionType: UInt, Hashable, Sendable, Codable, CaseIterable {
    /// The session was interrupted (`1`).
    case began = 1
    /// The interruption is over (`0`).
    case ended = 0
}
