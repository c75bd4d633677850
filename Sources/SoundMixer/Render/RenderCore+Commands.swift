import SoundEffects
/// Applying control → render commands, at the start of each quantum.
extension RenderCore {
    @_noLocks
    mutating func applyCommands() {
        var applied: UInt64 = 0
        while let command = commands.popCommand() {
            applied += 1
            switch command {
            case .start(let start):
                startVoice(start)
            case .stop(let slot, let generation, let fadeFrames, let atFrame):
                guard let voice = voice(slot, generation) else { continue }
                if atFrame < 0 || atFrame <= clock {
                    beginStop(voice, fadeFrames: Int(fadeFrames))
                } else {
                    voice.pointee.stopTime = atFrame
                    voice.pointee.stopFadeFrames = fadeFrames
                }
            case .setGains(let slot, let generation, let gains, let rampFrames):
                guard let voice = voice(slot, generation) else { continue }
                voice.pointee.target = gains
                rampGains(voice, over: Int(rampFrames))
            case .setSend(let slot, let generation, let index, let bus, let gain, let rampFrames):
                guard let voice = voice(slot, generation), Int(index) < VoiceExtras.maxSends else { continue }
                setSend(voice, Int(index), bus: bus, gain: gain, rampFrames: Int(rampFrames))
            case .setLowPass(let slot, let generation, let coefficient, let rampFrames):
                guard let voice = voice(slot, generation) else { continue }
                if !voice.pointee.isFiltered {
                    // From transparent: the old state is stale (a ramp from 0
                    // overwrites it in its first frame; a jump starts from silence).
                    clearFilterState(Int(slot))
                }
                voice.pointee.lowPass.start(to: coefficient, over: Int(rampFrames))
            case .setPitch(let slot, let generation, let pitch):
                guard let voice = voice(slot, generation) else { continue }
                voice.pointee.pitch = pitch
                voice.pointee.stepRate = 0
            case .pause(let slot, let generation, let fadeFrames):
                guard let voice = voice(slot, generation) else { continue }
                pause(voice, fadeFrames: Int(fadeFrames))
            case .resume(let slot, let generation, let fadeFrames):
                guard let voice = voice(slot, generation) else { continue }
                resume(voice, fadeFrames: Int(fadeFrames))
            case .seek(let slot, let generation, let frame, let stream):
                guard let voice = voice(slot, generation) else {
                    // It ended on the way: the stream ring claimed for it goes back.
                    if stream >= 0 && Int(stream) < maxStreams { streams[Int(stream)].shared.pointee.release() }
                    continue
                }
                seek(voice, to: Int(frame), stream: Int(stream))
            case .setEffectParameter(let block, let parameter, let value, let rampFrames):
                let effect = block.assumingMemoryBound(to: RenderEffect.self)
                var target = effect.pointee.target
                target.values[Int(parameter) & 31] = value
                effect.pointee.setTarget(target, rampFrames: Int(rampFrames))
            case .place(let placement):
                guard let voice = voice(placement.slot, placement.generation) else { continue }
                place(voice, placement)
            case .stopAll(let fadeFrames):
                var i = 0
                while i < activeCount {
                    let before = activeCount
                    beginStop(voices + Int(active[i]), fadeFrames: Int(fadeFrames))
                    if activeCount == before { i += 1 }
                }
            case .unloadSound(let slot, let generation):
                unloadSound(Int(slot), generation)
            }
        }
        if applied > 0 {
            atomics.pointee.commandsProcessed.wrappingAdd(applied, ordering: .relaxed)  // relaxed: a counter
        }
    }

    /// The voice in `slot` if it is still the one `generation` names.
    @_noLocks
    func voice(_ slot: UInt32, _ generation: UInt32) -> UnsafeMutablePointer<RenderVoice>? {
        guard Int(slot) < maxVoices else { return nil }
        let voice = voices + Int(slot)
        return voice.pointee.phase != .idle && voice.pointee.generation == generation ? voice : nil
    }

    @_noLocks
    mutating func startVoice(_ command: VoiceStartCommand) {
        let slot = Int(command.slot)
        guard slot < maxVoices, Int(command.sound) < maxSounds else { return }
        let voice = voices + slot
        // A busy slot is a steal: the control side gave the slot of a voice
        // of lower priority to this one (Mixer.play, pool full).
        if voice.pointee.phase != .idle { moveAside(slot) }
        var v = RenderVoice()
        v.generation = command.generation
        v.sound = command.sound
        v.soundGeneration = command.soundGeneration
        v.bus = Int(command.bus) < maxBuses && command.bus >= 0 ? Int32(command.bus) : 0
        v.stream = Int32(command.stream)
        v.looping = command.flags & VoiceStartCommand.loopFlag != 0
        v.resumeWhenInaudible = command.flags & VoiceStartCommand.resumeFlag != 0
        v.restartWhenAudible = command.flags & VoiceStartCommand.restartFlag != 0
        v.priority = command.priority
        startSerial &+= 1
        v.serial = startSerial
        v.quality = command.quality
        v.pitch = command.pitch
        v.target = command.gains
        v.fade = GainRamp(command.fadeInFrames > 0 ? 0 : 1)
        v.fade.start(to: 1, over: Int(command.fadeInFrames))
        v.lowPass = GainRamp(command.lowPass)
        clearFilterState(slot)
        switch command.flags & 3 {
        case 1: v.startTime = clock + max(0, command.time)
        case 2: v.startTime = max(clock, command.time)
        default: v.startTime = clock
        }
        if command.stream >= 0 {
            v.phase = .waitingForStream
        } else {
            v.body = sounds[Int(command.sound)]
            v.phase = .scheduled
            settleGains(&v)
        }
        v.activeIndex = Int32(activeCount)
        voice.pointee = v
        active[activeCount] = Int32(slot)
        activeCount += 1
        soundVoices[Int(command.sound)] += 1
    }

    /// Moves `voice` to source frame `frame` (a streamed one onto ring
    /// `stream`, filled from there): a copy of it as it was fades out over the
    /// de-click in a fade slot when it is heard, and it fades in from the new
    /// place (a paused voice stays paused there; one on its way out is left so).
    @_noLocks
    mutating func seek(_ voice: UnsafeMutablePointer<RenderVoice>, to frame: Int, stream: Int) {
        let slot = voice - voices
        let v = voice.pointee
        guard v.fadeEnd != .stop else {
            if stream >= 0 { streams[stream].shared.pointee.release() }
            return
        }
        let spare = fadeSlot(for: v)
        if spare >= 0 {
            // The copy takes the old place, the old stream ring and an entry of its own.
            copyVoice(slot, to: spare)
            voices[spare].activeIndex = Int32(activeCount)
            active[activeCount] = Int32(spare)
            activeCount += 1
            soundVoices[Int(v.sound)] += 1
            beginStop(voices + spare, fadeFrames: 0)
        } else if v.stream >= 0 && stream >= 0 {
            streams[Int(v.stream)].shared.pointee.release()
        }
        if stream >= 0 {
            voice.pointee.stream = Int32(stream)
            voice.pointee.streamBase = 0
            voice.pointee.streamOffset = frame
            voice.pointee.position = 0
            voice.pointee.starving = false
            voice.pointee.phase = .waitingForStream
        } else {
            let body = v.body
            voice.pointee.position = UInt64(frame) &<< 32
            voice.pointee.inLoopBody = v.looping && body.loopPlane0 != nil && frame >= body.loopStart + 8
            rewindMarkers(voice, to: frame)
        }
        if v.phase == .paused || v.fadeEnd == .pause {
            voice.pointee.phase = stream >= 0 ? .waitingForStream : .paused
            voice.pointee.fade = GainRamp(0)
            voice.pointee.fadeEnd = stream >= 0 ? .pause : .nothing
        } else if v.phase == .playing && !v.isVirtual {
            // A voice not yet started keeps the fade-in it was given; one
            // fading in goes on to where it was going, no sooner than the de-click.
            let target = v.fade.framesLeft > 0 ? v.fade.target : v.fade.value
            voice.pointee.fade = GainRamp(0)
            voice.pointee.fade.start(to: target, over: max(declickFrames, v.fade.framesLeft))
        }
    }

    /// A free fade slot for a copy of `v` to fade out in, when `v` is heard;
    /// -1 when it is not (nothing to fade) or every fade slot is busy.
    @_noLocks
    func fadeSlot(for v: RenderVoice) -> Int {
        guard v.phase == .playing && !v.isVirtual && v.fade.value > 0 && declickFrames > 0 else { return -1 }
        for f in maxVoices..<(maxVoices + fadeSlots) where voices[f].phase == .idle { return f }
        return -1
    }

    /// Sets aux send `k` of `voice` to ramp to `gain` into `bus` over
    /// `rampFrames`: a send not in use yet, or given another bus, starts
    /// from silence (the sends below it that were never set are cleared).
    @_noLocks
    func setSend(_ voice: UnsafeMutablePointer<RenderVoice>, _ k: Int, bus: Int16, gain: Float, rampFrames: Int) {
        let slot = Int(voice - voices)
        var count = Int(voice.pointee.sendCount)
        while count <= k {
            voiceExtras[slot].sendBuses[count] = -1
            voiceExtras[slot].sendGains[count] = GainRamp(0)
            count += 1
        }
        voice.pointee.sendCount = UInt8(max(Int(voice.pointee.sendCount), k + 1))
        if voiceExtras[slot].sendBuses[k] != bus {
            voiceExtras[slot].sendBuses[k] = bus
            voiceExtras[slot].sendGains[k] = GainRamp(0)
        }
        voiceExtras[slot].sendGains[k].start(to: gain, over: rampFrames)
    }

    /// Copies the voice in `slot`, with its filter state and extras, into fade slot `spare`.
    @_noLocks
    func copyVoice(_ slot: Int, to spare: Int) {
        voices[spare] = voices[slot]
        voiceExtras[spare] = voiceExtras[slot]
        let from = filterStates + 4 * slot, to = filterStates + 4 * spare
        for i in 0..<4 { to[i] = from[i] }
    }

    /// Frees `slot` for a new voice: its voice, when heard, carries on in a
    /// fade slot and fades out over the de-click there (its end unreported:
    /// the control side reported it when it gave the slot away); a voice
    /// not heard (virtual, silent, not started) ends at once. With every
    /// fade slot busy it ends at once too.
    @_noLocks
    mutating func moveAside(_ slot: Int) {
        let v = voices[slot]
        let spare = fadeSlot(for: v)
        guard spare >= 0 else {
            endVoice(slot)
            return
        }
        copyVoice(slot, to: spare)
        active[Int(v.activeIndex)] = Int32(spare)
        voices[slot].phase = .idle  // its sound, stream and active entry belong to the fade slot now
        beginStop(voices + spare, fadeFrames: 0)
    }

    @_noLocks
    func clearFilterState(_ slot: Int) {
        let state = filterStates + 4 * slot
        state[0] = 0
        state[1] = 0
        state[2] = 0
        state[3] = 0
    }

    /// Sets the gain ramps at the targets for the voice's kind of source (no ramp).
    @_noLocks
    func settleGains(_ v: inout RenderVoice) {
        let stereo = v.body.planes == 2
        v.left = GainRamp(stereo ? v.target.stereoLeft : v.target.monoLeft)
        v.right = GainRamp(stereo ? v.target.stereoRight : v.target.monoRight)
    }

    @_noLocks
    func rampGains(_ voice: UnsafeMutablePointer<RenderVoice>, over frames: Int) {
        let stereo = voice.pointee.body.planes == 2
        let t = voice.pointee.target
        voice.pointee.left.start(to: stereo ? t.stereoLeft : t.monoLeft, over: frames)
        voice.pointee.right.start(to: stereo ? t.stereoRight : t.monoRight, over: frames)
    }

    /// Fades the voice out over `fadeFrames` (at least the de-click) and ends
    /// it then; a voice that is not audible yet ends at once.
    @_noLocks
    mutating func beginStop(_ voice: UnsafeMutablePointer<RenderVoice>, fadeFrames: Int) {
        voice.pointee.stopTime = .max
        switch voice.pointee.phase {
        case .idle:
            return
        case .waitingForStream, .scheduled, .paused:
            endVoice(Int(voice - voices))
        case .playing:
            let frames = max(fadeFrames, declickFrames)
            if frames == 0 || voice.pointee.fade.value == 0 || voice.pointee.isVirtual {
                endVoice(Int(voice - voices))
            } else {
                voice.pointee.fade.start(to: 0, over: frames)
                voice.pointee.fadeEnd = .stop
            }
        }
    }

    @_noLocks
    mutating func pause(_ voice: UnsafeMutablePointer<RenderVoice>, fadeFrames: Int) {
        guard voice.pointee.fadeEnd != .stop else { return }
        if voice.pointee.isVirtual || voice.pointee.fadeEnd == .virtualize {
            // Silent already (or on its way): paused at once, position held.
            voice.pointee.isVirtual = false
            voice.pointee.fadeEnd = .nothing
            if voice.pointee.phase == .playing || voice.pointee.phase == .scheduled {
                voice.pointee.fade = GainRamp(0)
                voice.pointee.phase = .paused
            }
            return
        }
        switch voice.pointee.phase {
        case .playing:
            let frames = max(fadeFrames, declickFrames)
            voice.pointee.fade.start(to: 0, over: frames)
            voice.pointee.fadeEnd = .pause
            if frames == 0 { voice.pointee.phase = .paused }
        case .scheduled:
            voice.pointee.fade = GainRamp(0)
            voice.pointee.phase = .paused
        default:
            break
        }
    }

    @_noLocks
    mutating func resume(_ voice: UnsafeMutablePointer<RenderVoice>, fadeFrames: Int) {
        let v = voice.pointee
        if v.phase == .waitingForStream && v.fadeEnd == .pause {
            voice.pointee.fadeEnd = .nothing  // sought while paused: it plays when its stream is ready
            return
        }
        guard v.phase == .paused || (v.phase == .playing && v.fadeEnd == .pause) else { return }
        // The voice limit ranks it again before the next quantum mixes.
        voice.pointee.phase = .playing
        voice.pointee.fadeEnd = .nothing
        voice.pointee.fade.start(to: 1, over: max(fadeFrames, declickFrames))
    }

    @_noLocks
    mutating func unloadSound(_ slot: Int, _ generation: UInt32) {
        guard slot < maxSounds else { return }
        soundUnloading[slot] = generation
        var i = 0
        while i < activeCount {
            let before = activeCount
            let voice = voices + Int(active[i])
            if Int(voice.pointee.sound) == slot { beginStop(voice, fadeFrames: 0) }
            if activeCount == before { i += 1 }
        }
        releaseSoundIfUnused(slot)
    }

    @_noLocks
    func releaseSoundIfUnused(_ slot: Int) {
        let generation = soundUnloading[slot]
        guard generation != 0, soundVoices[slot] == 0 else { return }
        soundUnloading[slot] = 0
        // releasing: pairs with the control side's acquiring load before it frees
        // the sound's memory; every read of it by this thread happened before.
        soundReleased[slot].store(generation, ordering: .releasing)
    }

    /// Ends the voice in `slot`: frees the slot, its stream and its hold on
    /// the sound, and reports it.
    @_noLocks
    mutating func endVoice(_ slot: Int) {
        let voice = voices + slot
        let v = voice.pointee
        guard v.phase != .idle else { return }
        voice.pointee.phase = .idle
        let sound = Int(v.sound)
        soundVoices[sound] -= 1
        releaseSoundIfUnused(sound)
        if v.stream >= 0 {
            streams[Int(v.stream)].shared.pointee.release()
        }
        if slot >= maxVoices {
            // A fade slot's voice: its end was reported when its slot was given away.
            removeActive(Int(v.activeIndex))
            return
        }
        // releasing: pairs with the control side's acquiring loads when it
        // looks for a free slot or sweeps for deferred ends; the slot's last
        // use by this thread happened before. Stored before the event is
        // posted, so an end the full ring defers is already findable.
        voiceEnded[slot].store(v.generation, ordering: .releasing)
        postEnd(
            RenderEvent(
                kind: .voiceEnded, voiceSlot: UInt32(slot), voiceGeneration: v.generation, soundSlot: v.sound,
                soundGeneration: v.soundGeneration))
        removeActive(Int(v.activeIndex))
    }

    /// Takes entry `index` out of the active list (the last entry moves there).
    @_noLocks
    mutating func removeActive(_ index: Int) {
        activeCount -= 1
        if index != activeCount {
            let moved = active[activeCount]
            active[index] = moved
            voices[Int(moved)].activeIndex = Int32(index)
        }
    }
}
