/// An interruption notification: the user info of AVAudioSession's
/// `interruptionNotification`, plus the Linux source.
public struct Interruption: Hashable, Sendable, Codable {
    /// Began or ended.
    public var type: InterruptionType
    /// For ended: whether the system lets the session resume.
    public var options: InterruptionOptions
    /// For began: why (``InterruptionReason/default``, or
    /// ``InterruptionReason/builtInMicMuted`` for a muted input).
    public var reason: InterruptionReason?
    /// For began: what interrupted the session.
    public var source: InterruptionSource?

    /// Creates a notification.
    public init(
        type: InterruptionType, options: InterruptionOptions = [], reason: InterruptionReason? = nil,
        source: InterruptionSource? = nil
    ) {
        self.type = type
        self.options = options
        self.reason = reason
        self.source = source
    }

    /// An interruption that began, from `source`.
    package static func began(_ source: InterruptionSource, reason: InterruptionReason = .default) -> Interruption {
        Interruption(type: .began, reason: reason, source: source)
    }

    /// An interruption that ended.
    package static func ended(shouldResume: Bool) -> Interruption {
        Interruption(type: .ended, options: shouldResume ? .shouldResume : [])
    }

    /// Whether this is an end that lets the session resume.
    public var shouldResume: Bool { type == .ended && options.contains(.shouldResume) }
}
