extension SoundEngine {
    /// A game object: anything in the game that emits sound or listens (Wwise
    /// `AkGameObjectID`). The game chooses the numbers, e.g. its entity IDs, and
    /// registers each one before posting events on it.
    ///
    /// 0 and `UInt64.max` are invalid, as in Wwise (`AK_INVALID_GAME_OBJECT` is
    /// `-1` as an unsigned 64-bit value, and 0 is refused by `RegisterGameObj`).
    public struct GameObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The game's number for the object.
        public let rawValue: UInt64

        /// Wraps the game's number.
        public init(_ rawValue: UInt64) { self.rawValue = rawValue }

        /// Whether the ID may be registered (not 0, not `UInt64.max`).
        public var isValid: Bool { rawValue != 0 && rawValue != .max }

        public var description: String { "game object \(rawValue)" }
        public static func < (a: GameObjectID, b: GameObjectID) -> Bool { a.rawValue < b.rawValue }
    }
}
