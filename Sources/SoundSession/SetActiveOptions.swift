/// Options of `setActive`: AVAudioSession's `SetActiveOptions`.
public struct SetActiveOptions: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible, NamedOptionSet {
    /// The bits, as `AVAudioSession.SetActiveOptions.rawValue`.
    public var rawValue: UInt

    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// On deactivation, tell other apps they may resume (`1`).
    ///
    /// On Linux other apps are never paused, only muted, and cannot be told to
    /// resume; deactivation always unmutes exactly the streams the session
    /// muted, with or without this option. See docs/audio-session.md, "Mixing".
    public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)

    static var namedOptions: [(option: SetActiveOptions, name: String)] {
        [(.notifyOthersOnDeactivation, "notifyOthersOnDeactivation")]
    }
}
