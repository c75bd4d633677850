/// Identifies one playing instance of a sound, as returned by ``Mixer/play(_:on:_:)``.
///
/// Carries a generation: once the voice has ended its slot is reused, and the
/// old ID is refused with `idNotFound` instead of controlling another voice.
package struct VoiceID: Hashable, Sendable, CustomStringConvertible {
    /// Index of the voice's slot in the mixer's voice pool.
    package let slot: UInt32
    /// Incremented each time the slot starts a new voice (never 0).
    package let generation: UInt32

    /// Makes an ID; games get IDs from ``Mixer/play(_:on:_:)``.
    package init(slot: UInt32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }

    /// "voice slot.generation", for logs.
    package var description: String { "voice \(slot).\(generation)" }
}
