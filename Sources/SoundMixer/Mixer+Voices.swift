package import SoundCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Playing and controlling voices (control world). Every call takes one
/// slot of the command queue and reaches the render thread at the start of
/// the next quantum.
extension Mixer {
    /// Starts a voice playing `sound` on `bus`.
    ///
    /// - Returns: the voice's ID, valid until the voice ends
    ///   (``MixerEvent/voiceEnded(_:_:)``).
    /// - Throws: `idNotFound` (sound or bus); `invalidParameter` naming the
    ///   parameter out of range (see ``VoiceParameters``), or `loop` for a
    ///   sound loaded without a loop region; `maxReached` when all voices
    ///   (or, for a stream, all stream rings) are busy; `commandQueueFull`;
    ///   `notInitialized` for a streamed sound after ``shutdown()``.
    ///   Nothing changes when it throws.
    @discardableResult
    package func play(_ sound: SoundID, on bus: BusID = .master, _ parameters: VoiceParameters = VoiceParameters())
        throws(SoundEngineError) -> VoiceID
    {
        let p = parameters
        try Self.check(volume: p.volume, "VoiceParameters.volume")
        try Self.check(pan: p.pan, "VoiceParameters.pan")
        try Self.check(pitch: p.pitch, "VoiceParameters.pitch")
        let fadeInFrames = try frames(p.fadeIn, checking: "VoiceParameters.fadeIn")
        if let cutoff = p.lowPassHz { try Self.check(cutoffHz: cutoff, "VoiceParameters.lowPassHz") }
        guard (0...100).contains(p.priority) else {
            throw .invalidParameter("VoiceParameters.priority = \(p.priority): must be 0…100")
        }
        if let placement = p.placement { try SpeakerPlacement.check(placement, "VoiceParameters.placement") }
        guard p.sends.count <= VoiceExtras.maxSends else {
            throw .invalidParameter("VoiceParameters.sends has \(p.sends.count) sends: at most \(VoiceExtras.maxSends)")
        }
        for (k, send) in p.sends.enumerated() {
            try Self.check(sendGain: send.gain, "VoiceParameters.sends[\(k)].gain")
            if p.sends[..<k].contains(where: { $0.bus == send.bus }) {
                throw .invalidParameter("VoiceParameters.sends[\(k)] sends to \(send.bus) again")
            }
        }
        let lowPass = p.lowPassHz.map { LowPass.coefficient(cutoffHz: $0, sampleRate: outputFormat.sampleRate) } ?? 0
        var startKind: UInt8 = 0, time: Int64 = 0
        switch p.start {
        case .immediately: break
        case .afterFrames(let frames):
            try Self.check(frames: frames, "VoiceParameters.start afterFrames")
            (startKind, time) = (1, Int64(frames))
        case .after(let delay):
            (startKind, time) = (1, Int64(try frames(delay, checking: "VoiceParameters.start delay")))
        case .atFrame(let frame):
            guard frame >= 0 else { throw .invalidParameter("VoiceParameters.start atFrame = \(frame): must be ≥ 0") }
            (startKind, time) = (2, frame)
        }
        let (voiceID, job) = try control.withLock { state throws(SoundEngineError) -> (VoiceID, StreamJob?) in
            let soundSlot = try soundSlot(sound, in: state)
            let busIndex = try state.graph.index(bus)
            let entry = state.sounds[soundSlot]!
            if p.loop && !entry.canLoop {
                throw .invalidParameter("loop: \(sound) '\(entry.name)' was loaded without a loop region")
            }
            let (slot, stealing) = try takeVoiceSlot(&state, priority: p.priority)
            /// Gives back a slot taken from the free list (a slot to steal was never taken).
            func giveBack() { if !stealing { state.freeVoices.append(slot) } }
            var opener: AudioSourceOpener?
            var stream: Int32 = -1
            if case .stream(let open, _) = entry.content {
                guard !streamer.isStopped else {
                    giveBack()
                    throw .notInitialized
                }
                guard let s = claimStreamSlot() else {
                    giveBack()
                    throw .maxReached(
                        "all \(configuration.maxStreams) stream rings are playing (MixerConfiguration.maxStreams)")
                }
                stream = Int32(s)
                opener = open
            }
            let generation = state.voices[slot].generation &+ 1 == 0 ? 1 : state.voices[slot].generation &+ 1
            let id = VoiceID(slot: UInt32(slot), generation: generation)
            let record = ControlState.Voice(
                generation: generation, inUse: true, sound: sound, volume: p.volume, pan: p.pan, stream: Int(stream),
                priority: p.priority, serial: state.starts &+ 1, looping: p.loop, placement: p.placement, bus: bus)
            // On a surround output a placed voice starts with its placement:
            // both commands are taken in the same quantum (pushed together).
            let placement = placementCommand(id, record, rampFrames: 0)
            var sends: [Command] = []
            for (k, send) in p.sends.enumerated() {
                let index = try state.graph.index(send.bus, "VoiceParameters.sends[\(k)].bus")
                sends.append(.setSend(
                    slot: UInt32(slot), generation: generation, index: UInt8(k), bus: Int16(index), gain: send.gain,
                    rampFrames: 0))
            }
            let command = VoiceStartCommand(
                pitch: p.pitch, time: time, slot: UInt32(slot), generation: generation, sound: sound.slot,
                soundGeneration: sound.generation, gains: Self.gains(volume: p.volume, pan: p.pan),
                fadeInFrames: Int32(fadeInFrames), lowPass: lowPass, bus: Int16(busIndex), stream: Int16(stream),
                flags: startKind | (p.loop ? VoiceStartCommand.loopFlag : 0)
                    | (p.whenInaudible == .kill ? 0 : VoiceStartCommand.resumeFlag)
                    | (p.whenInaudible == .restart ? VoiceStartCommand.restartFlag : 0),
                priority: UInt8(p.priority), quality: (p.quality ?? entry.quality).rawValue)
            do throws(SoundEngineError) {
                try push(.start(command), then: (placement.map { [.place($0)] } ?? []) + sends)
            } catch {
                giveBack()
                if stream >= 0 { releaseUnusedStreamSlot(Int(stream)) }
                throw error
            }
            if stealing {
                // The start replaces it on the render thread: its end is reported now.
                let taken = state.voices[slot]
                if state.claimEnd(slot: slot, generation: taken.generation) {
                    state.unreportedEnds.append((VoiceID(slot: UInt32(slot), generation: taken.generation), taken.sound))
                }
                state.voicesStolen &+= 1
            }
            state.starts &+= 1
            state.voices[slot] = record
            return (id, opener.map { StreamJob(slot: Int(stream), opener: $0, loop: p.loop, voice: id) })
        }
        if let job { streamer.submit(job) }
        return voiceID
    }

    /// Stops a voice: it fades out over `fadeOutFrames` (at least
    /// ``MixerConfiguration/declickFrames``) and ends, starting at the next
    /// quantum or, when `atFrame` is given, at that frame of the mixer clock.
    ///
    /// - Throws: `idNotFound` for a voice that ended; `invalidParameter`; `commandQueueFull`.
    package func stop(_ voice: VoiceID, fadeOutFrames: Int = 0, atFrame: Int64? = nil) throws(SoundEngineError) {
        try Self.check(frames: fadeOutFrames, "fadeOutFrames")
        if let atFrame, atFrame < 0 { throw .invalidParameter("stop atFrame = \(atFrame): must be ≥ 0") }
        try withVoice(voice) { _ throws(SoundEngineError) in
            try push(
                .stop(
                    slot: voice.slot, generation: voice.generation, fadeFrames: Int32(fadeOutFrames),
                    atFrame: atFrame ?? -1))
        }
    }

    /// Ramps a voice's volume (linear gain 0…16) over `rampFrames` (default: one quantum).
    package func setVolume(_ voice: VoiceID, _ volume: Float, rampFrames: Int? = nil) throws(SoundEngineError) {
        try Self.check(volume: volume)
        try setGains(voice, rampFrames: rampFrames) { $0.volume = volume }
    }

    /// Ramps a voice's pan (-1…1, equal power) over `rampFrames` (default: one quantum).
    package func setPan(_ voice: VoiceID, _ pan: Float, rampFrames: Int? = nil) throws(SoundEngineError) {
        try Self.check(pan: pan)
        try setGains(voice, rampFrames: rampFrames) { $0.pan = pan }
    }

    /// Ramps a voice's volume (linear gain 0…16) and pan (-1…1, equal power)
    /// together over `rampFrames` (default: one quantum), in one command: what
    /// a game sends per emitter per frame for distance and direction (half
    /// the command-queue traffic of ``setVolume(_:_:rampFrames:)`` plus
    /// ``setPan(_:_:rampFrames:)``).
    ///
    /// - Throws: `idNotFound` for a voice that ended; `invalidParameter`
    ///   naming the value out of range; `commandQueueFull`. Nothing changes
    ///   when it throws.
    package func setVolumeAndPan(_ voice: VoiceID, volume: Float, pan: Float, rampFrames: Int? = nil)
        throws(SoundEngineError)
    {
        try Self.check(volume: volume)
        try Self.check(pan: pan)
        try setGains(voice, rampFrames: rampFrames) {
            $0.volume = volume
            $0.pan = pan
        }
    }

    /// Sets, changes or removes a voice's low-pass filter, ramping the
    /// cutoff over `rampFrames` (default: one quantum) so that nothing
    /// zippers or clicks.
    ///
    /// The filter is 2-pole, two cascaded one-pole stages (−12 dB per octave
    /// above the cutoff, −3 dB at it, no resonance); the coefficient is
    /// computed here. Voices share filters: the cutoff is rounded to the
    /// nearest 1/8 octave (at most 4.4 % off), and every voice of a bus in
    /// that band is mixed into one filter, so a filtered voice costs about
    /// what an unfiltered one does. The voice moves between bands, and on
    /// and off the filter, by a crossfade over one quantum, so even a change
    /// with `rampFrames: 0` does not click (docs/mixer.md, "The shared
    /// low-pass"). `nil` removes the filter: the cutoff ramps up, then the
    /// voice crossfades back onto the direct path. The coefficient follows
    /// the mix rate at the time of the call (after an output-rate change,
    /// set the cutoff again).
    ///
    /// - Throws: `idNotFound` for a voice that ended; `invalidParameter` for
    ///   a cutoff that is not finite or outside 10…24000 Hz, or a bad
    ///   `rampFrames`; `commandQueueFull`. Nothing changes when it throws.
    package func setLowPass(_ voice: VoiceID, cutoffHz: Float?, rampFrames: Int? = nil) throws(SoundEngineError) {
        if let cutoffHz { try Self.check(cutoffHz: cutoffHz, "cutoffHz") }
        let ramp = rampFrames ?? configuration.quantumFrames
        try Self.check(frames: ramp, "rampFrames")
        let coefficient = cutoffHz.map { LowPass.coefficient(cutoffHz: $0, sampleRate: outputFormat.sampleRate) } ?? 0
        try withVoice(voice) { _ throws(SoundEngineError) in
            try push(
                .setLowPass(
                    slot: voice.slot, generation: voice.generation, coefficient: coefficient, rampFrames: Int32(ramp)))
        }
    }

    /// Sets aux send `index` (0…3) of a voice: its output — after its volume,
    /// pan, fade and low-pass — times `gain` (linear, 0…16) is also added to
    /// `bus`, ramped over `rampFrames` (`nil`: one quantum; 0: at once). A
    /// send keeps its bus; giving it another starts the new one from
    /// silence. A voice that sends renders whole into a scratch pair first
    /// and filters on its own filter (never a shared band or a batch).
    ///
    /// - Throws: `idNotFound` for a voice that ended or an unknown bus;
    ///   `invalidParameter` for an index outside 0…3, a gain NaN, infinite or
    ///   outside 0…16, a bad `rampFrames`; `commandQueueFull`. Nothing changes then.
    package func setSend(_ voice: VoiceID, index: Int, bus: BusID, gain: Float, rampFrames: Int? = nil)
        throws(SoundEngineError)
    {
        guard (0..<VoiceExtras.maxSends).contains(index) else {
            throw .invalidParameter("send index = \(index): must be 0…\(VoiceExtras.maxSends - 1)")
        }
        try Self.check(sendGain: gain, "send gain")
        let ramp = rampFrames ?? configuration.quantumFrames
        try Self.check(frames: ramp, "rampFrames")
        try control.withLock { state throws(SoundEngineError) in
            _ = try voiceSlot(voice, in: state)
            let busIndex = try state.graph.index(bus, "send bus")
            try push(
                .setSend(
                    slot: voice.slot, generation: voice.generation, index: UInt8(index), bus: Int16(busIndex), gain: gain,
                    rampFrames: Int32(ramp)))
        }
    }

    /// Changes a voice's pitch ratio (1/256…16) from the next quantum.
    package func setPitch(_ voice: VoiceID, _ pitch: Double) throws(SoundEngineError) {
        try Self.check(pitch: pitch)
        try withVoice(voice) { _ throws(SoundEngineError) in
            try push(.setPitch(slot: voice.slot, generation: voice.generation, pitch: pitch))
        }
    }

    /// Fades a voice out over `fadeFrames` (at least the de-click) and holds its position.
    package func pause(_ voice: VoiceID, fadeFrames: Int = 0) throws(SoundEngineError) {
        try Self.check(frames: fadeFrames, "fadeFrames")
        try withVoice(voice) { _ throws(SoundEngineError) in
            try push(.pause(slot: voice.slot, generation: voice.generation, fadeFrames: Int32(fadeFrames)))
        }
    }

    /// Resumes a paused voice, fading in over `fadeFrames` (at least the de-click).
    package func resume(_ voice: VoiceID, fadeFrames: Int = 0) throws(SoundEngineError) {
        try Self.check(frames: fadeFrames, "fadeFrames")
        try withVoice(voice) { _ throws(SoundEngineError) in
            try push(.resume(slot: voice.slot, generation: voice.generation, fadeFrames: Int32(fadeFrames)))
        }
    }

    /// Stops every voice with a fade of `fadeOutFrames` (at least the de-click).
    package func stopAll(fadeOutFrames: Int = 0) throws(SoundEngineError) {
        try Self.check(frames: fadeOutFrames, "fadeOutFrames")
        try control.withLock { _ throws(SoundEngineError) in try push(.stopAll(fadeFrames: Int32(fadeOutFrames))) }
    }

    /// How far the streaming thread got with a streamed voice's source, or
    /// `nil` for a voice that is not streamed or has ended. For an engine that
    /// wants to start music only once it is buffered, and for diagnostics.
    package func streamProgress(_ voice: VoiceID) -> StreamProgress? {
        control.withLock { state -> StreamProgress? in
            guard let slot = try? voiceSlot(voice, in: state), state.voices[slot].stream >= 0 else { return nil }
            let shared = core.pointee.streams[state.voices[slot].stream].shared
            // acquiring (all): pair with the streaming thread's releasing stores; a snapshot.
            let s = shared.pointee.state.load(ordering: .acquiring)
            let end = shared.pointee.endFrame.load(ordering: .acquiring)
            let written = shared.pointee.written.load(ordering: .acquiring)
            return StreamProgress(
                decodedFrames: end == .max ? written : end, reachedEnd: end != .max,
                ready: s == StreamState.ready.rawValue)
        }
    }

    /// Whether `voice` has not ended yet (it may still be waiting to start).
    package func isActive(_ voice: VoiceID) -> Bool {
        control.withLock { state in (try? voiceSlot(voice, in: state)) != nil }
    }

    /// Where ``seek(_:to:)`` moves a voice in its source.
    package enum SeekTarget: Sendable, Hashable {
        /// A source frame (0 = the start).
        case frame(Int)
        /// A time from the source's start, at the source's own rate.
        case time(Duration)
        /// A fraction of the source's length, 0…1 (Wwise's `in_fPercent`).
        case fraction(Double)
    }

    /// Moves a voice to `target` in its source: a looping voice's target
    /// past the end wraps into its loop region, a one-shot's at or past the
    /// end stops it (de-click fade). The old place fades out over the
    /// de-click as the new one fades in, in the next quantum; a streamed
    /// voice takes a new stream ring, filled from there, and plays once it is
    /// pre-filled (its old ring goes with the fading copy). A paused voice
    /// stays paused at the new place.
    ///
    /// - Throws: `idNotFound` for a voice that ended; `invalidParameter` for
    ///   a negative frame, a time outside 0…3600 s, a fraction that is not
    ///   0…1 or of a stream whose length is unknown; `maxReached` when a
    ///   stream needs a ring and every one plays; `commandQueueFull`. Nothing
    ///   changes when it throws.
    package func seek(_ voice: VoiceID, to seekTarget: SeekTarget) throws(SoundEngineError) {
        try Self.check(seekTarget)
        let job = try control.withLock { state throws(SoundEngineError) -> StreamJob? in
            let slot = try voiceSlot(voice, in: state)
            let v = state.voices[slot]
            let soundSlot = try soundSlot(v.sound, in: state)  // (a voice's sound is unloaded only once it has ended)
            guard let sound = state.sounds[soundSlot] else { throw .idNotFound("\(voice)'s sound has been unloaded") }
            var target: Int
            switch seekTarget {
            case .frame(let f): target = f
            case .time(let t): target = Int((TimeArgument.seconds(t) * Double(sound.sampleRate)).rounded())
            case .fraction(let x):
                guard let length = sound.frames else {
                    throw .invalidParameter("seek fraction = \(x): the length of stream '\(sound.name)' is unknown")
                }
                target = Int((x * Double(length)).rounded())
            }
            switch sound.content {
            case .memory:
                let body = core.pointee.sounds[Int(v.sound.slot)]
                if target >= body.frames {
                    guard v.looping, body.loopEnd > body.loopStart else {
                        try push(.stop(slot: voice.slot, generation: voice.generation, fadeFrames: 0, atFrame: -1))
                        return nil
                    }
                    target = body.loopStart + (target - body.loopStart) % (body.loopEnd - body.loopStart)
                }
                try push(.seek(slot: voice.slot, generation: voice.generation, frame: Int64(target), stream: -1))
                return nil
            case .stream(let open, _):
                if let length = sound.frames, target >= length {
                    guard v.looping else {
                        try push(.stop(slot: voice.slot, generation: voice.generation, fadeFrames: 0, atFrame: -1))
                        return nil
                    }
                    target %= length
                }
                guard !streamer.isStopped else { throw .notInitialized }
                guard let ring = claimStreamSlot() else {
                    throw .maxReached(
                        "seek: all \(configuration.maxStreams) stream rings are playing (MixerConfiguration.maxStreams)")
                }
                do throws(SoundEngineError) {
                    try push(.seek(slot: voice.slot, generation: voice.generation, frame: Int64(target), stream: Int16(ring)))
                } catch {
                    releaseUnusedStreamSlot(ring)
                    throw error
                }
                state.voices[slot].stream = ring
                return StreamJob(slot: ring, opener: open, loop: v.looping, voice: voice, startFrame: target)
            }
        }
        if let job { streamer.submit(job) }
    }

    /// Refuses a seek target no voice could take: a negative frame, a time
    /// outside 0…3600 s, a fraction that is NaN or outside 0…1.
    package static func check(_ target: SeekTarget) throws(SoundEngineError) {
        switch target {
        case .frame(let f): guard f >= 0 else { throw .invalidParameter("seek frame = \(f): must be ≥ 0") }
        case .time(let t): try TimeArgument.check(t, "seek position")
        case .fraction(let x):
            guard x.isFinite, x >= 0, x <= 1 else { throw .invalidParameter("seek fraction = \(x): must be 0…1") }
        }
    }

    /// Where a voice is in its source, as of the last quantum rendered: the
    /// frame (a looping voice's within its lap) and the source's rate;
    /// `nil` for a voice that ended.
    package func position(of voice: VoiceID) -> (frame: Int, sampleRate: Int)? {
        control.withLock { state -> (frame: Int, sampleRate: Int)? in
            guard let slot = try? voiceSlot(voice, in: state),
                let soundSlot = try? soundSlot(state.voices[slot].sound, in: state), let sound = state.sounds[soundSlot]
            else { return nil }
            // relaxed: one self-contained word; a quantum old at most.
            let word = core.pointee.positions[slot].load(ordering: .relaxed)
            guard UInt32(truncatingIfNeeded: word &>> 40) == voice.generation & 0xFF_FFFF else {
                return (0, sound.sampleRate)  // not rendered yet: at its start
            }
            return (Int(word & 0xFF_FFFF_FFFF), sound.sampleRate)
        }
    }

    /// A loaded sound's name, frames (`nil` for a stream whose header does
    /// not say), rate, and whether it streams.
    package func soundInfo(_ sound: SoundID) -> (name: String, frames: Int?, sampleRate: Int, streaming: Bool)? {
        control.withLock { state in
            guard let slot = try? soundSlot(sound, in: state), let s = state.sounds[slot] else { return nil }
            if case .stream = s.content { return (s.name, s.frames, s.sampleRate, true) }
            return (s.name, s.frames, s.sampleRate, false)
        }
    }

    // MARK: - Internals

    private func setGains(_ voice: VoiceID, rampFrames: Int?, _ change: (inout ControlState.Voice) -> Void)
        throws(SoundEngineError)
    {
        let ramp = rampFrames ?? configuration.quantumFrames
        try Self.check(frames: ramp, "rampFrames")
        try control.withLock { state throws(SoundEngineError) in
            let slot = try voiceSlot(voice, in: state)
            var v = state.voices[slot]
            change(&v)
            try push(
                .setGains(
                    slot: voice.slot, generation: voice.generation, gains: Self.gains(volume: v.volume, pan: v.pan),
                    rampFrames: Int32(ramp)))
            state.voices[slot] = v
        }
    }

    private func withVoice(_ voice: VoiceID, _ body: (Int) throws(SoundEngineError) -> Void) throws(SoundEngineError) {
        try control.withLock { state throws(SoundEngineError) in try body(try voiceSlot(voice, in: state)) }
    }

    /// Slot of a voice that has not ended, or `idNotFound`.
    func voiceSlot(_ voice: VoiceID, in state: ControlState) throws(SoundEngineError) -> Int {
        let slot = Int(voice.slot)
        guard slot < state.voices.count, state.voices[slot].inUse, state.voices[slot].generation == voice.generation,
            // acquiring: pairs with the render thread's releasing store in endVoice.
            core.pointee.voiceEnded[slot].load(ordering: .acquiring) != voice.generation
        else { throw .idNotFound("\(voice) has ended or never existed") }
        return slot
    }

    /// A free voice slot (taken from the free list), or, with none free,
    /// the slot of the least important voice of lower `priority` (the lowest
    /// priority, then the quietest, then the newest) and `stealing`: once the
    /// start is queued, the caller reports that voice's end; the render
    /// thread fades it out over the de-click (a fade slot) as the new one starts.
    private func takeVoiceSlot(_ state: inout ControlState, priority: Int) throws(SoundEngineError)
        -> (slot: Int, stealing: Bool)
    {
        if state.freeVoices.isEmpty {
            for slot in state.voices.indices where state.voices[slot].inUse {
                // acquiring: pairs with the render thread's releasing store in endVoice;
                // the render thread is done with the slot.
                let voice = state.voices[slot]
                if core.pointee.voiceEnded[slot].load(ordering: .acquiring) == voice.generation {
                    // The slot's next voice would hide this end from a sweep:
                    // if no drain has reported it yet, the next one will.
                    if state.claimEnd(slot: slot, generation: voice.generation) {
                        state.unreportedEnds.append((VoiceID(slot: UInt32(slot), generation: voice.generation), voice.sound))
                    }
                    state.voices[slot].inUse = false
                    state.freeVoices.append(slot)
                }
            }
        }
        if let slot = state.freeVoices.popLast() { return (slot, false) }
        var victim = -1
        for slot in state.voices.indices where state.voices[slot].inUse && state.voices[slot].priority < priority {
            guard victim >= 0 else {
                victim = slot
                continue
            }
            let v = state.voices[slot], w = state.voices[victim]
            if (v.priority, v.volume, UInt64.max - v.serial) < (w.priority, w.volume, UInt64.max - w.serial) { victim = slot }
        }
        guard victim >= 0 else {
            throw .maxReached(
                "all \(configuration.maxVoices) voices are playing (MixerConfiguration.maxVoices), none of lower priority than \(priority)")
        }
        return (victim, true)
    }

    private func claimStreamSlot() -> Int? {
        for slot in 0..<core.pointee.maxStreams {
            // acquiring: pairs with the streaming thread's releasing store of
            // `free` after it reset the ring.
            if core.pointee.streams[slot].shared.pointee.state.compareExchange(
                expected: StreamState.free.rawValue, desired: StreamState.claimed.rawValue, ordering: .acquiring
            ).exchanged {
                return slot
            }
        }
        return nil
    }

    /// Gives back a slot claimed for a voice whose start command was refused:
    /// no other thread has seen it.
    private func releaseUnusedStreamSlot(_ slot: Int) {
        // relaxed: the claim was never published to another thread.
        core.pointee.streams[slot].shared.pointee.state.store(StreamState.free.rawValue, ordering: .relaxed)
    }

    // MARK: - Validation and the pan law

    // Each refusal names the argument (`name`, as the caller knows it), its
    // value and the range; NaN and infinities are refused like any value out
    // of range, so none reaches the render thread.

    package static func check(volume: Float, _ name: String = "volume") throws(SoundEngineError) {
        guard volume.isFinite, volume >= 0, volume <= 16 else {
            throw .invalidParameter("\(name) = \(volume): must be finite, 0…16 (linear gain)")
        }
    }

    static func check(sendGain gain: Float, _ name: String) throws(SoundEngineError) {
        guard gain.isFinite, (0...16).contains(gain) else {
            throw .invalidParameter("\(name) = \(gain): must be finite, 0…16 (linear gain)")
        }
    }

    package static func check(pan: Float, _ name: String = "pan") throws(SoundEngineError) {
        guard pan.isFinite, pan >= -1, pan <= 1 else { throw .invalidParameter("\(name) = \(pan): must be -1…1") }
    }

    package static func check(cutoffHz: Float, _ name: String) throws(SoundEngineError) {
        guard cutoffHz.isFinite, LowPass.cutoffRange.contains(cutoffHz) else {
            throw .invalidParameter("\(name) = \(cutoffHz): must be finite, a low-pass cutoff of 10…24000 Hz")
        }
    }

    package static func check(pitch: Double, _ name: String = "pitch") throws(SoundEngineError) {
        guard pitch.isFinite, pitch >= 1.0 / 256, pitch <= 16 else {
            throw .invalidParameter("\(name) = \(pitch): must be a ratio 1/256…16")
        }
    }

    static func check(frames: Int, _ what: String) throws(SoundEngineError) {
        guard frames >= 0, frames <= Int(Int32.max) else {
            throw .invalidParameter("\(what) = \(frames): must be 0…\(Int32.max) frames")
        }
    }

    /// Equal-power pan gains for both kinds of source (see ``VoiceParameters/pan``).
    static func gains(volume: Float, pan: Float) -> PanGains {
        let theta = (Double(pan) + 1) * Double.pi / 4
        let c = cos(theta), s = sin(theta)
        return PanGains(
            monoLeft: volume * Float(c), monoRight: volume * Float(s),
            stereoLeft: volume * Float(min(1, 2.0.squareRoot() * c)),
            stereoRight: volume * Float(min(1, 2.0.squareRoot() * s)))
    }
}
