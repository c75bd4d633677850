import SoundCore

/// Render → control events (control world).
extension Mixer {
    /// Delivers the events produced since the last call, oldest first, on
    /// the calling thread (the engine's event thread; never the render
    /// thread). A stream's `streamFailed` always comes before its voice's
    /// `voiceEnded`. `body` may call back into the mixer. Concurrent callers are
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
        // Taken after the ring, delivered before it: the streaming thread
        // records a failure before it lets the render thread end the voice
        // (release/acquire on the stream's state), so every voiceEnded popped
        // above has its streamFailed in this list already. Causal order.
        events = streamer.takeEvents() + events
        control.withLock { reclaimSounds(&$0) }
        for event in events { body(event) }
    }

    /// Events waiting in the render → control queue (a snapshot).
    public var pendingEventCount: Int { core.pointee.events.count }
}
