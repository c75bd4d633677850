/// What a voice was doing in the last quantum rendered, as the render thread
/// publishes it after each quantum (one word per voice slot) for the live
/// profiler: its phase, whether the voice limit left it virtual, whether it
/// is on its way to a stop, and the gain it was mixed at.
package struct VoiceReport: Sendable, Hashable {
    /// The render thread's phase of a voice.
    package enum Phase: Sendable, Hashable {
        /// Started; waiting for its start time or its stream's first frames.
        case starting
        /// Producing audio (heard or virtual).
        case playing
        /// Paused: silent, its position held.
        case paused
    }

    package var phase: Phase
    /// Left out of the mix by the voice limit (`maxAudibleVoices`); its
    /// position still advances.
    package var isVirtual: Bool
    /// Fading out to a stop, or a stop is scheduled.
    package var stopping: Bool
    /// The larger channel gain it was mixed at (volume, panning, 3D
    /// attenuation, fades; 0 when virtual), before its bus.
    package var heardGain: Float
}

/// The word a ``VoiceReport`` travels in: the voice's generation (low 24
/// bits) in bits 40…63, the phase in 32…34, virtual in 35, stopping in 36,
/// and the gain's float bits in 0…31.
struct VoiceReportWord: BitwiseCopyable {
    let word: UInt64

    @_noLocks @inline(__always)
    init(generation: UInt32, phase: UInt8, isVirtual: Bool, stopping: Bool, heardGain: Float) {
        var w = UInt64(generation & 0xFF_FFFF) &<< 40 | UInt64(phase & 0x7) &<< 32 | UInt64(heardGain.bitPattern)
        if isVirtual { w |= 1 &<< 35 }
        if stopping { w |= 1 &<< 36 }
        word = w
    }

    init(word: UInt64) { self.word = word }

    /// The report, if the word is about a voice of `generation` (a slot
    /// reused, or a voice not rendered yet, says nothing about it).
    func report(forGeneration generation: UInt32) -> VoiceReport? {
        guard UInt32(truncatingIfNeeded: word &>> 40) == generation & 0xFF_FFFF else { return nil }
        let phase: VoiceReport.Phase
        switch RenderVoice.Phase(rawValue: UInt8(truncatingIfNeeded: word &>> 32) & 0x7) {
        case .playing: phase = .playing
        case .paused: phase = .paused
        default: phase = .starting
        }
        return VoiceReport(
            phase: phase, isVirtual: word & (1 &<< 35) != 0, stopping: word & (1 &<< 36) != 0,
            heardGain: Float(bitPattern: UInt32(truncatingIfNeeded: word)))
    }
}

extension Mixer {
    /// What `voice` was doing in the last quantum rendered; `nil` when it
    /// ended, or before its first quantum (then it is starting).
    package func report(of voice: VoiceID) -> VoiceReport? {
        control.withLock { state -> VoiceReport? in
            guard let slot = try? voiceSlot(voice, in: state) else { return nil }
            // relaxed: one self-contained word; a quantum old at most.
            return VoiceReportWord(word: core.pointee.voiceReports[slot].load(ordering: .relaxed))
                .report(forGeneration: voice.generation)
        }
    }
}

extension Mixer {
    /// A voice the control side has started and not seen end.
    package struct LiveVoice: Sendable, Hashable {
        package var id: VoiceID
        /// Its sound's name.
        package var sound: String
        package var bus: BusID
        /// The volume it was started or last set with (before its bus).
        package var volume: Float
    }

    /// Every voice started and not yet ended, in slot order (the live
    /// profiler lists the ones no event posting owns).
    package var liveVoices: [LiveVoice] {
        control.withLock { state in
            state.voices.indices.compactMap { slot -> LiveVoice? in
                let v = state.voices[slot]
                guard v.inUse else { return nil }
                let name = (try? soundSlot(v.sound, in: state)).flatMap { state.sounds[$0]?.name } ?? "?"
                return LiveVoice(
                    id: VoiceID(slot: UInt32(slot), generation: v.generation), sound: name, bus: v.bus, volume: v.volume)
            }
        }
    }
}
