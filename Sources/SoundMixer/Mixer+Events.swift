import SoundCore

/// Render → control events (control world).
extension Mixer {
    /// Delivers the events produced since the last call, oldest first, on
    /// the calling thread (the engine's event thread; never the render
    /// thread). A stream's `streamFailed` always comes before its voice's
    /// `voiceEnded`. `body` may call back into the mixer. Concurrent callers are
    /// serialised. Also frees the memory of unloaded sounds the render thread
    /// has let go of.
    ///
    /// Every voice that ends is reported exactly once, whatever the burst:
    /// ends the full event ring could not take are found by a sweep of the
    /// voice slots, and a slot reused before its end was reported hands the
    /// end over first (docs/mixer.md, "The queues"). Only meter readings and
    /// starvation notices can be lost to a full ring (``MixerEvent/eventsDropped(_:)``).
    package func drainEvents(_ body: (MixerEvent) -> Void) {
        reclaimEffects()
        var events: [MixerEvent] = []
        drain.withLock { _ in
            var popped: [RenderEvent] = []
            while let event = core.pointee.events.pop() { popped.append(event) }
            // acquiring: pairs with the render thread's releasing increment in
            // postEnd; every end counted there stored its voiceEnded before.
            let deferred = core.pointee.atomics.pointee.voiceEndsDeferred.load(ordering: .acquiring)
            control.withLock { state in
                for event in popped {
                    if let converted = mixerEvent(event, &state) { events.append(converted) }
                }
                if deferred != state.sweptDeferrals {
                    state.sweptDeferrals = deferred
                    sweepEnds(&state, into: &events)
                }
                events += state.unreportedEnds.map { .voiceEnded($0.0, $0.1) }
                state.unreportedEnds.removeAll()
                reclaimSounds(&state)
            }
        }
        // Taken after the ends, delivered before them: the streaming thread
        // records a failure before it lets the render thread end the voice
        // (release/acquire on the stream's state), so every end found above
        // has its streamFailed in this list already (or delivered earlier).
        events = streamer.takeEvents() + events
        for event in events { body(event) }
    }

    /// Events waiting in the render → control queue (a snapshot).
    package var pendingEventCount: Int { core.pointee.events.count }

    /// Runs `body` while ``drainEvents(_:)`` waits for it, so nothing leaves
    /// the render → control queue meanwhile: a test renders a burst of ends
    /// into a ring no thread empties, whatever the threads' timing. `body`
    /// must not drain events itself (the lock is not recursive).
    package func holdingEventDrain(_ body: () -> Void) {
        drain.withLock { _ in body() }
    }

    /// The public form of a ring event; `nil` for an end already reported.
    private func mixerEvent(_ event: RenderEvent, _ state: inout ControlState) -> MixerEvent? {
        let voice = VoiceID(slot: event.voiceSlot, generation: event.voiceGeneration)
        switch event.kind {
        case .voiceEnded:
            guard state.claimEnd(slot: Int(event.voiceSlot), generation: event.voiceGeneration) else { return nil }
            return .voiceEnded(voice, SoundID(slot: event.soundSlot, generation: event.soundGeneration))
        case .streamStarved:
            return .streamStarved(voice)
        case .eventsDropped:
            return .eventsDropped(event.count)
        case .meter:
            return .meter(BusID(index: UInt32(event.count)), BusMeter(peak: event.peak, rms: event.meanSquare.squareRoot()))
        case .marker:
            return .marker(voice, SoundID(slot: event.soundSlot, generation: event.soundGeneration), index: event.count)
        }
    }

    /// Reports every voice that has ended (the render thread's `voiceEnded`)
    /// but not been reported: the ends the full ring deferred. Runs only
    /// after a deferral, so a burst costs one pass over the slots.
    private func sweepEnds(_ state: inout ControlState, into events: inout [MixerEvent]) {
        for slot in state.voices.indices where state.voices[slot].inUse {
            let voice = state.voices[slot]
            // acquiring: pairs with the render thread's releasing store in endVoice.
            guard core.pointee.voiceEnded[slot].load(ordering: .acquiring) == voice.generation,
                state.claimEnd(slot: slot, generation: voice.generation)
            else { continue }
            events.append(.voiceEnded(VoiceID(slot: UInt32(slot), generation: voice.generation), voice.sound))
        }
    }
}
