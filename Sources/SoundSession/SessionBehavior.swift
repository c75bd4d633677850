/// Wwise-only session behaviour flags (`AkAudioSessionBehaviorOptions`).
public struct SessionBehavior: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible, NamedOptionSet {
    /// The bits, as Wwise's `eAudioSessionBehavior`.
    public var rawValue: UInt

    /// Creates flags from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Stop rendering in the background even in categories that would keep
    /// playing there (playback, record, playAndRecord, multiRoute)
    /// (`AkAudioSessionBehaviorSuspendInBackground`, `0x1`).
    public static let suspendInBackground = SessionBehavior(rawValue: 0x1)

    static var namedOptions: [(option: SessionBehavior, name: String)] {
        [(.suspendInBackground, "suspendInBackground")]
    }
}
