/// Whether another app's primary audio started or stopped:
/// AVAudioSession's `SilenceSecondaryAudioHintType`.
public enum SilenceSecondaryAudioHintType: UInt, Hashable, Sendable, Codable, CaseIterable {
    /// Other audio started: silence your soundtrack, keep your effects (`1`).
    case begin = 1
    /// Other audio stopped: your soundtrack may play again (`0`).
    case end = 0
}
