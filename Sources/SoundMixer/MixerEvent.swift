package import SoundCore

/// Something that happened on the render or streaming thread, delivered by
/// ``Mixer/drainEvents(_:)`` on whatever thread calls it (the engine's event
/// thread), never on the render thread.
package enum MixerEvent: Sendable, Hashable {
    /// A voice finished: it reached the end of its sound, finished its fade
    /// out after a stop, or its sound was unloaded. Its ID is now stale.
    /// Delivered exactly once per voice, however many end at once.
    case voiceEnded(VoiceID, SoundID)
    /// A streamed voice ran out of decoded audio and played silence until the
    /// streaming thread caught up (once per starvation episode).
    case streamStarved(VoiceID)
    /// A streamed voice could not open or read its source; it ends.
    case streamFailed(VoiceID, SoundEngineError)
    /// A bus's meter reading at the end of a metering window, for buses with
    /// ``Mixer/setBusMeterEvents(_:_:)`` on (the same values ``Mixer/meter(_:)`` returns).
    case meter(BusID, BusMeter)
    /// The event queue was full and this many meter readings or starvation
    /// notices were lost (reported once there is room again; also in
    /// ``MixerStatistics/eventsDropped``). Voice ends are never lost.
    case eventsDropped(Int)
    /// A voice's read position crossed marker `index` (in the order of the
    /// frames given to ``Mixer/loadSound(_:name:loop:quality:markers:)``,
    /// sorted) of its sound: at most one quantum after it was rendered. Each
    /// lap of a looping voice crosses its markers again. Droppable like
    /// meter readings (counted in ``eventsDropped(_:)``).
    case marker(VoiceID, SoundID, index: Int)
}

