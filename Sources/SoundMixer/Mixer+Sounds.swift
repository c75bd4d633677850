package import SoundCore

/// Loading and unloading sounds (control world).
extension Mixer {
    /// Copies decoded audio into the mixer's real-time layout (planar, with
    /// guard samples; more than two channels are mixed down to stereo, see
    /// docs/mixer.md) and returns its ID. `audio` can be released afterwards.
    ///
    /// - Parameters:
    ///   - loop: the region voices repeat when played with `loop: true`
    ///     (default the whole sound); `nil` for a sound that never loops (its
    ///     guards are silent, so its last frame fades to zero exactly).
    ///   - quality: the interpolation of the sound's voices when pitched or
    ///     played at another rate, unless a voice overrides it
    ///     (``VoiceParameters/quality``); default linear, the cheapest.
    /// - Throws: `invalidParameter` for an empty sound, a rate outside
    ///   1000…768000, a channel count outside 1…1024, a partial last frame,
    ///   a sample that is NaN or infinite, or a bad loop region; `maxReached` when
    ///   ``MixerConfiguration/maxSounds`` sounds are loaded.
    ///   - markers: frames of the sound (0..<frames) whose crossing a voice
    ///     reports as ``MixerEvent/marker(_:_:index:)``; `invalidParameter` outside.
    package func loadSound(
        _ audio: DecodedAudio, name: String, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear,
        markers: [Int] = []
    ) throws(SoundEngineError) -> SoundID {
        // Copy outside the lock; only the arena allocation needs it.
        let storage = try SoundStorage(audio, name: name, loop: loop, markers: markers) { bytes in
            control.withLock { $0.arena.allocate(bytes) }
        }
        do throws(SoundEngineError) {
            return try control.withLock { state throws(SoundEngineError) in
                let slot = try takeSoundSlot(&state)
                core.pointee.sounds[slot] = storage.body
                let generation = state.soundGenerations[slot]
                state.sounds[slot] = ControlState.Sound(
                    name: name, generation: generation, content: .memory(storage), canLoop: loop != nil,
                    quality: quality, frames: audio.frameCount, sampleRate: audio.sampleRate)
                return SoundID(slot: UInt32(slot), generation: generation)
            }
        } catch {
            control.withLock { $0.arena.free(storage.allocation) }
            throw error
        }
    }

    /// Registers a long sound that is decoded while it plays: each voice of
    /// it calls `open` on the streaming thread and reads the source into its
    /// own ring (``MixerConfiguration/streamBufferFrames``). Streamed voices
    /// loop the whole source when played with `loop: true`.
    ///
    /// - Parameters:
    ///   - quality: the interpolation of the sound's voices, unless a voice
    ///     overrides it (``VoiceParameters/quality``); default linear.
    ///   - open: creates a fresh source positioned at frame 0; called on the
    ///     streaming thread, once per voice. A thrown error ends the voice
    ///     with ``MixerEvent/streamFailed(_:_:)``.
    ///   - markers: frames of the source whose crossing a voice reports as
    ///     ``MixerEvent/marker(_:_:index:)``, on every lap of a looping voice.
    ///   - frames: the source's length in frames; required with markers (a
    ///     lap of a looping stream is this long).
    /// - Throws: `maxReached` when ``MixerConfiguration/maxSounds`` sounds are
    ///   loaded; `invalidParameter` for markers without a length or outside it.
    package func loadStream(
        name: String, quality: ResamplerQuality = .linear, markers: [Int] = [], frames: Int? = nil,
        sampleRate: Int = 0, open: @escaping AudioSourceOpener
    ) throws(SoundEngineError) -> SoundID {
        var sorted: [Int] = []
        if !markers.isEmpty {
            guard let frames, frames > 0 else {
                throw .invalidParameter("the markers of stream '\(name)' need its length in frames")
            }
            sorted = try SoundStorage.sortedMarkers(markers, frames: frames, of: "stream '\(name)'")
        }
        return try control.withLock { state throws(SoundEngineError) in
            let slot = try takeSoundSlot(&state)
            var body = SoundBody.empty
            var allocation: SoundArena.Allocation? = nil
            if let frames, frames > 0 { body.sourceFrames = frames }  // where a looping stream's position wraps
            if !sorted.isEmpty {
                let memory = state.arena.allocate(sorted.count * MemoryLayout<Int32>.stride)
                body.markers = SoundStorage.store(markers: sorted, at: memory.memory)
                body.markerCount = sorted.count
                allocation = memory
            }
            core.pointee.sounds[slot] = body
            let generation = state.soundGenerations[slot]
            state.sounds[slot] = ControlState.Sound(
                name: name, generation: generation, content: .stream(open, markers: allocation), canLoop: true,
                quality: quality, frames: frames, sampleRate: sampleRate)
            return SoundID(slot: UInt32(slot), generation: generation)
        }
    }

    /// Unloads a sound. Safe while voices play it: they fade out over the
    /// de-click time and end (``MixerEvent/voiceEnded(_:_:)``); the memory is
    /// freed once the render thread has let go of it. The ID is stale at once.
    ///
    /// - Throws: `idNotFound` for an unknown or already unloaded sound;
    ///   `commandQueueFull` (nothing changed).
    package func unloadSound(_ id: SoundID) throws(SoundEngineError) {
        try control.withLock { state throws(SoundEngineError) in
            let slot = try soundSlot(id, in: state)
            try push(.unloadSound(slot: id.slot, generation: id.generation))
            state.sounds[slot]?.unloading = true
            state.retiredSounds.append(slot)
            reclaimSounds(&state)
        }
    }

    /// The name a sound was loaded with.
    package func soundName(_ id: SoundID) throws(SoundEngineError) -> String {
        try control.withLock { state throws(SoundEngineError) in
            state.sounds[try soundSlot(id, in: state)]!.name
        }
    }

    /// Sounds loaded (not counting those being unloaded).
    package var loadedSoundCount: Int {
        control.withLock { state in state.sounds.count { $0 != nil && !$0!.unloading } }
    }

    // MARK: - Internals (under the control lock)

    /// Slot of a loaded sound, or `idNotFound`.
    func soundSlot(_ id: SoundID, in state: ControlState) throws(SoundEngineError) -> Int {
        let slot = Int(id.slot)
        guard slot < state.sounds.count, let sound = state.sounds[slot], sound.generation == id.generation,
            !sound.unloading
        else { throw .idNotFound("\(id) is not loaded") }
        return slot
    }

    private func takeSoundSlot(_ state: inout ControlState) throws(SoundEngineError) -> Int {
        if state.freeSounds.isEmpty { reclaimSounds(&state) }
        guard let slot = state.freeSounds.popLast() else {
            throw .maxReached("all \(configuration.maxSounds) sound slots are in use (MixerConfiguration.maxSounds)")
        }
        state.soundGenerations[slot] &+= 1
        if state.soundGenerations[slot] == 0 { state.soundGenerations[slot] = 1 }
        return slot
    }

    /// Frees the sounds the render thread has released.
    func reclaimSounds(_ state: inout ControlState) {
        state.retiredSounds.removeAll { slot in
            guard let sound = state.sounds[slot] else { return true }
            // acquiring: pairs with the render thread's releasing store in
            // releaseSoundIfUnused; its reads of the memory happened before.
            guard core.pointee.soundReleased[slot].load(ordering: .acquiring) == sound.generation else { return false }
            switch sound.content {
            case .memory(let storage): state.arena.free(storage.allocation)
            case .stream(_, let markers): if let markers { state.arena.free(markers) }
            }
            state.sounds[slot] = nil
            core.pointee.sounds[slot] = .empty
            state.freeSounds.append(slot)
            return true
        }
    }
}
