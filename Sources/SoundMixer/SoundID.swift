/// Identifies a sound loaded into a ``Mixer`` (in memory or streamed).
///
/// Carries a generation: after ``Mixer/unloadSound(_:)`` the slot may be
/// reused, and the old ID is refused with `idNotFound` instead of naming the
/// new sound.
public struct SoundID: Hashable, Sendable, CustomStringConvertible {
    /// Index of the sound's slot in the mixer's sound table.
    package let slot: UInt32
    /// Incremented each time the slot is reused.
    package let generation: UInt32

    /// Makes an ID; games get IDs from ``Mixer/loadSound(_:name:loop:quality:)``.
    package init(slot: UInt32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }

    /// "sound slot.generation", for logs.
    public var description: String { "sound \(slot).\(generation)" }
}
