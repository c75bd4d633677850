package import SoundCore

/// Editing the bus tree (control world). Each change recompiles the plan and
/// publishes it to the render thread with one atomic exchange; these calls
/// never use the command queue, so they never fail for a full queue.
extension Mixer {
    /// Adds a bus under `parent` (volume 1, not muted).
    ///
    /// - Throws: `idNotFound` for an unknown parent; `maxReached` when
    ///   ``MixerConfiguration/maxBuses`` buses exist.
    package func createBus(name: String, parent: BusID = .master) throws(SoundEngineError) -> BusID {
        try editGraph { graph throws(SoundEngineError) in try graph.add(name: name, parent: parent) }
    }

    /// Moves a bus (and its subtree) under another parent.
    ///
    /// - Throws: `idNotFound`; `invalidParameter` for the master or a move
    ///   that would make a cycle.
    package func setBusParent(_ bus: BusID, _ parent: BusID) throws(SoundEngineError) {
        try editGraph { graph throws(SoundEngineError) in
            try graph.setParent(try graph.index(bus), try graph.index(parent, "parent bus"))
        }
    }

    /// Ramps a bus's volume (linear gain 0…16) over `rampFrames` (default: one quantum).
    package func setBusVolume(_ bus: BusID, _ volume: Float, rampFrames: Int? = nil) throws(SoundEngineError) {
        try Self.check(volume: volume)
        try changeBus(bus, rampFrames: rampFrames) { $0.volume = volume }
    }

    /// Mutes or unmutes a bus, ramped over `rampFrames` (default: one quantum).
    package func setBusMuted(_ bus: BusID, _ muted: Bool, rampFrames: Int? = nil) throws(SoundEngineError) {
        try changeBus(bus, rampFrames: rampFrames) { $0.muted = muted }
    }

    /// Solos a bus (the live profiler's edit): while any bus is soloed, only
    /// soloed buses, the buses under them and the buses on their way to the
    /// master are heard (``BusGraph/silencedBySolo(_:)``). Apart from mutes:
    /// unsoloing gives back exactly what the game and its content had set.
    /// Every bus ramps over one quantum.
    package func setBusSoloed(_ bus: BusID, _ soloed: Bool) throws(SoundEngineError) {
        let ramp = configuration.quantumFrames
        try editGraph { graph throws(SoundEngineError) in graph.setSoloed(try graph.index(bus), soloed, rampFrames: ramp) }
    }

    /// Flags a bus as game music that the "other audio is playing" rule
    /// silences (``setBackgroundMusicMuted(_:fadeFrames:)``), like the iOS
    /// `secondaryAudioShouldBeSilencedHint` convention.
    package func setBusMutedForBackgroundMusic(_ bus: BusID, _ flag: Bool) throws(SoundEngineError) {
        try changeBus(bus, rampFrames: configuration.quantumFrames) { $0.mutedForBackgroundMusic = flag }
    }

    /// Fades exactly the flagged buses to silence (`true`) or back (`false`)
    /// over `fadeFrames` (default a quarter second). The engine calls it when
    /// another app's music starts or stops.
    package func setBackgroundMusicMuted(_ muted: Bool, fadeFrames: Int? = nil) throws(SoundEngineError) {
        let fade = fadeFrames ?? configuration.sampleRate / 4
        try Self.check(frames: fade, "fadeFrames")
        try editGraph { graph throws(SoundEngineError) in graph.setBackgroundMusicMuted(muted, fadeFrames: fade) }
    }

    /// Posts the bus's meter reading as a ``MixerEvent/meter(_:_:)`` event at
    /// the end of every metering window (`true`), or stops (`false`, the
    /// default). For UIs that want levels pushed rather than polled.
    package func setBusMeterEvents(_ bus: BusID, _ enabled: Bool) throws(SoundEngineError) {
        try changeBus(bus, rampFrames: configuration.quantumFrames) { $0.meterEvents = enabled }
    }

    /// Whether the background-music mute is on.
    package var isBackgroundMusicMuted: Bool {
        control.withLock { $0.graph.backgroundMusicMuted }
    }

    /// The last completed meter reading of a bus (after its gain; the
    /// master's after the master gain and limiter). Lock-free, from any
    /// thread. An unknown bus reads ``BusMeter/silent``.
    package func meter(_ bus: BusID) -> BusMeter {
        guard Int(bus.index) < configuration.maxBuses else { return .silent }
        // relaxed: one self-contained word (peak bits, mean-square bits).
        let word = core.pointee.meters[Int(bus.index)].load(ordering: .relaxed)
        let peak = Float(bitPattern: UInt32(word >> 32))
        let meanSquare = Float(bitPattern: UInt32(truncatingIfNeeded: word))
        return BusMeter(peak: peak, rms: meanSquare.squareRoot())
    }

    /// The bus with this name (the master is "master"), if any.
    package func bus(named name: String) -> BusID? {
        control.withLock { state in
            state.graph.buses.firstIndex { $0.name == name }.map { BusID(index: UInt32($0)) }
        }
    }

    // MARK: - Internals

    private func changeBus(_ bus: BusID, rampFrames: Int?, _ change: (inout BusGraph.Bus) -> Void)
        throws(SoundEngineError)
    {
        let ramp = rampFrames ?? configuration.quantumFrames
        try Self.check(frames: ramp, "rampFrames")
        try editGraph { graph throws(SoundEngineError) in
            graph.update(try graph.index(bus), rampFrames: ramp, change)
        }
    }

    /// Applies `edit` to a copy of the graph; when it succeeds, stores it and
    /// publishes the compiled plan.
    func editGraph<T>(_ edit: (inout BusGraph) throws(SoundEngineError) -> T) throws(SoundEngineError) -> T {
        try control.withLock { state throws(SoundEngineError) in
            var graph = state.graph
            let result = try edit(&graph)
            state.graph = graph
            let back = state.backPlan
            let entries = core.pointee.planEntries + back * configuration.maxBuses
            core.pointee.planCounts[back] = graph.compile(into: entries)
            state.planGeneration += 1
            core.pointee.planGenerations[back] = state.planGeneration
            // releasing: pairs with the render thread's acquiring exchange in
            // takePublishedPlan, publishing the plan written above. acquiring:
            // pairs with its releasing half, so the buffer we get back (its
            // old front plan) is no longer read.
            let previous = core.pointee.atomics.pointee.planMiddle.exchange(
                UInt32(back) | 4, ordering: .acquiringAndReleasing)
            state.backPlan = Int(previous & 3)
            return result
        }
    }
}
