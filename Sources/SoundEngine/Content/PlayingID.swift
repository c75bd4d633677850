/// One posting of an event (Wwise `AkPlayingID`): every voice the event's
/// actions start, including those of events it posts, belongs to it. Never 0
/// (`AK_INVALID_PLAYING_ID`); unique for the life of the engine until the
/// 32-bit counter wraps, which skips 0 and IDs still playing.
public struct PlayingID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number, ≥ 1.
    public let rawValue: UInt32

    /// Wraps a number (for IDs the game stored or received in a callback).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public var description: String { "playing ID \(rawValue)" }
    public static func < (a: PlayingID, b: PlayingID) -> Bool { a.rawValue < b.rawValue }
}
