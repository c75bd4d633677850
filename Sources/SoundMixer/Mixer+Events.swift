import SoundCore

/// Render → control events (control world).
extension Mixer {
    /// Delivers the events produced since the last call, oldest first, on
    /// the calling thread (the engine's event thread; never the render
    /// thread). `body` may call back into the mixer. Concurrent callers are
    /// serialised. Also frees the memory of unloaded sounds the render thread
    /// has let go of.
    public func drainEvents(_ body: (MixerEvent) -> Void) {
        var events: [MixerEvent] = []
        drain.withLock { _ in
            while let event = core.pointee.events.pop() {
                let voice = VoiceID(slot: event.voiceSlot, generation: event.voiceGeneration)
                switch event.kind {
                case .voiceEnded:
                    events.append(
                        .voiceEnded(voice, SoundID(slot: event.soundSlot, generation: event.soundGeneration)))
                case .streamStarved:
                    events.append(.streamStarved(voice))
                case .eventsDropped:
                    events.append(.eventsDropped(event.count))
                case .meter:
                    events.append(
                        .meter(
                            BusID(index: UInt32(event.count)),
                            BusMeter(peak: event.peak, rms: event.meanSquare.squareRoot())))
                }
            }
        }
        events += streamer.takeEvents()
        control.withLock { reclaimSounds(&$0) }
        for event in events { body(event) }
    }

    /// Events waiting in the render → control queue (a snapshot).
    public var pendingEventCount: Int { core.pointee.events.count }
}
