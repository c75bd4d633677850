/// A temporary output override: AVAudioSession's `PortOverride`.
public enum PortOverride: UInt, Hashable, Sendable, Codable, CaseIterable {
    /// No override: the normal route (`0`).
    case none = 0
    /// Force the built-in speaker (and built-in microphone) until the next
    /// route change or interruption (`'spkr'`, `0x73706B72`). playAndRecord only.
    case speaker = 0x7370_6B72
}
