/// Options of an ended interruption: AVAudioSession's `InterruptionOptions`.
public struct InterruptionOptions: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible, NamedOptionSet {
    /// The bits, as `AVAudioSession.InterruptionOptions.rawValue`.
    public var rawValue: UInt

    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The system lets the session resume (`1`).
    public static let shouldResume = InterruptionOptions(rawValue: 1)

    static var namedOptions: [(option: InterruptionOptions, name: String)] {
        [(.shouldResume, "shouldResume")]
    }
}
