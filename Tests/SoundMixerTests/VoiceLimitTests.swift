import Foundation
import SoundCore
import SoundMixer
import Testing

/// Magnitude of `frequency` in `x` (Goertzel), as the amplitude of a sine
/// that fits a whole number of cycles in the slice.
func goertzelAmplitude(_ x: ArraySlice<Float>, frequency: Double, rate: Double = 48_000) -> Double {
    let w = 2 * Double.pi * frequency / rate
    let c = 2 * cos(w)
    var s1 = 0.0, s2 = 0.0
    for v in x {
        let s0 = Double(v) + c * s1 - s2
        s2 = s1
        s1 = s0
    }
    let power = s1 * s1 + s2 * s2 - c * s1 * s2
    return 2 * power.squareRoot() / Double(x.count)
}

/// A looping mono noise sound (splitmix64), `frames` long: any phase error shows.
func noise(frames: Int, seed: UInt64) -> DecodedAudio {
    var state = seed
    let samples = (0..<frames).map { _ -> Float in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Float(Int32(truncatingIfNeeded: z >> 40) - 8_388_608) / 8_388_608 * 0.5
    }
    return DecodedAudio(sampleRate: 48_000, channelCount: 1, samples: samples)
}

@Suite("Voice limit and virtual voices")
struct VoiceLimitTests {
    @Test("maxAudibleVoices is validated and follows maxVoices by default")
    func configuration() throws {
        var c = MixerConfiguration(maxVoices: 48)
        #expect(c.maxAudibleVoices == 48)
        c.maxAudibleVoices = 0
        #expect(throws: SoundEngineError.self) { try c.validate() }
        do {
            try c.validate()
        } catch {
            #expect("\(error)".contains("maxAudibleVoices"))
        }
        c.maxAudibleVoices = 49
        #expect(throws: SoundEngineError.self) { try c.validate() }
        c.maxAudibleVoices = 48
        try c.validate()
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(0.1, frames: 480), name: "c")
        #expect(throws: SoundEngineError.self) { try mixer.play(sound, VoiceParameters(priority: 101)) }
        #expect(throws: SoundEngineError.self) { try mixer.play(sound, VoiceParameters(priority: -1)) }
        #expect(Mixer.commandSlotBytes == 64, "the start command still fits one slot")
    }

    @Test("8 voices, 4 audible: exactly the 4 highest priorities are heard; the others end once each")
    func highestPrioritiesHeard() throws {
        let mixer = try makeMixer { $0.maxAudibleVoices = 4 }
        let frequencies: [Double] = [300, 500, 700, 900, 1100, 1300, 1500, 1700]
        let priorities = [10, 90, 20, 80, 30, 70, 40, 60]
        // The quietest voices have the highest priorities: gain does not outrank priority.
        var ids: [VoiceID] = []
        for (i, f) in frequencies.enumerated() {
            let sound = try loopingSine(mixer, f, amplitude: 0.1)
            let volume: Float = priorities[i] > 50 ? 0.5 : 1
            ids.append(try mixer.play(sound, VoiceParameters(volume: volume, loop: true, priority: priorities[i])))
        }
        let out = render(mixer, frames: 9600)
        for (i, f) in frequencies.enumerated() {
            let a = goertzelAmplitude(out.left[4800...], frequency: f)
            if priorities[i] > 50 {
                #expect(a > 0.02, "\(f) Hz (priority \(priorities[i])) heard: \(a)")
            } else {
                #expect(a < 1e-5, "\(f) Hz (priority \(priorities[i])) not heard: \(a)")
            }
        }
        #expect(rms(out.left[0..<256]) > 0, "the winners play from the first quantum")
        // The losers never sounded: not even in the first quantum.
        for (i, f) in frequencies.enumerated() where priorities[i] < 50 {
            #expect(goertzelAmplitude(out.left[0..<4800], frequency: f) < 1e-5, "\(f) Hz silent from the start")
        }
        let ended = events(mixer).compactMap { event -> VoiceID? in
            if case .voiceEnded(let v, _) = event { return v }
            return nil
        }
        _ = render(mixer, frames: 4800)
        let later = events(mixer).filter { if case .voiceEnded = $0 { true } else { false } }
        let losers = Set(ids.enumerated().filter { priorities[$0.offset] < 50 }.map(\.element))
        #expect(ended.count == 4 && Set(ended) == losers, "one end per killed voice: \(ended)")
        #expect(later.isEmpty)
        let s = mixer.statistics
        #expect(s.voicesKilledByLimit == 4)
        #expect(s.virtualVoices == 0)
        #expect(s.voicesActive == 4)
    }

    @Test("each voice's report says what the render thread did with it: starting, heard at its gain, virtual, paused, stopping")
    func voiceReports() throws {
        let mixer = try makeMixer { $0.maxAudibleVoices = 1 }
        let tone = try loopingSine(mixer, 440, amplitude: 0.1)
        let heard = try mixer.play(tone, VoiceParameters(volume: 0.5, loop: true, priority: 90))
        let left = try mixer.play(tone, VoiceParameters(loop: true, priority: 10, whenInaudible: .resume))
        #expect(mixer.report(of: heard) == nil, "not rendered yet: nothing to say (the profiler shows starting)")
        _ = render(mixer, frames: 2048)
        let h = try #require(mixer.report(of: heard))
        #expect(h.phase == .playing && !h.isVirtual && !h.stopping)
        #expect(abs(h.heardGain - 0.5 * Float(0.5.squareRoot())) < 0.01 || abs(h.heardGain - 0.5) < 0.01, "gain \(h.heardGain)")
        let l = try #require(mixer.report(of: left))
        #expect(l.isVirtual && l.heardGain == 0, "\(l)")
        try mixer.pause(heard)
        _ = render(mixer, frames: 1024)
        #expect(mixer.report(of: heard)?.phase == .paused)
        try mixer.resume(heard)
        _ = render(mixer, frames: 1024)
        try mixer.stop(heard, fadeOutFrames: 48_000)
        _ = render(mixer, frames: 512)
        #expect(mixer.report(of: heard)?.stopping == true)
    }

    @Test("a killed voice that was heard fades out over the de-click and ends once")
    func killFadesOut() throws {
        let mixer = try makeMixer { $0.maxAudibleVoices = 1 }
        let low = try mixer.play(try mixer.loadSound(constant(0.5, frames: 4800), name: "dc"), VoiceParameters(loop: true, priority: 10))
        let a = render(mixer, frames: 512)
        #expect(a.left[511] > 0.3)
        _ = try mixer.play(try mixer.loadSound(constant(0, frames: 4800), name: "silence"), VoiceParameters(loop: true, priority: 20))
        let b = render(mixer, frames: 512)
        #expect(maxStep(b.left[...]) < 0.5 / 32, "faded, no click: \(maxStep(b.left[...]))")
        #expect(b.left[100...].allSatisfy { $0 == 0 })
        let ended = events(mixer).filter { if case .voiceEnded(let v, _) = $0 { v == low } else { false } }
        #expect(ended.count == 1)
        _ = render(mixer, frames: 512)
        #expect(events(mixer).isEmpty)
        #expect(mixer.statistics.voicesKilledByLimit == 1)
    }

    @Test("a virtual looping voice comes back in phase with one that was never virtual")
    func virtualComesBackInPhase() throws {
        let limited = try makeMixer { $0.maxAudibleVoices = 1 }
        let reference = try makeMixer()
        var voices: [VoiceID] = []
        for mixer in [limited, reference] {
            let loop = try mixer.loadSound(noise(frames: 4801, seed: 7), name: "noise", loop: LoopRegion(start: 1000, end: 4801))
            voices.append(try mixer.play(loop, VoiceParameters(pitch: 1.37, loop: true, priority: 40, whenInaudible: .resume)))
        }
        let silence = try limited.loadSound(constant(0, frames: 4800), name: "silence")
        let a0 = render(limited, frames: 2560), r0 = render(reference, frames: 2560)
        #expect(a0.left == r0.left)
        let blocker = try limited.play(silence, VoiceParameters(loop: true, priority: 90))
        let a1 = render(limited, frames: 12_800), r1 = render(reference, frames: 12_800)
        #expect(rms(r1.left[256...]) > 0.1)
        #expect(a1.left[256...].allSatisfy { $0 == 0 }, "virtual: not mixed")
        #expect(limited.isActive(voices[0]))
        #expect(limited.statistics.virtualVoices == 1)
        try limited.stop(blocker)
        let a2 = render(limited, frames: 4096), r2 = render(reference, frames: 4096)
        // Fading in over the de-click (64 frames), then identical to the reference.
        let worst = zip(a2.left[64...], r2.left[64...]).map { abs($0 - $1) }.max()!
        #expect(worst < 1e-6, "in phase after the fade-in: largest difference \(worst)")
        for k in 0..<64 {
            #expect(abs(a2.left[k]) <= abs(r2.left[k]) * Float(k + 1) / 64 + 1e-6, "fading in at frame \(k)")
        }
        #expect(limited.statistics.virtualVoices == 0)
        #expect(limited.statistics.voicesKilledByLimit == 0)
    }

    @Test("a virtual one-shot keeps time: it ends when it would have run out")
    func virtualOneShotEnds() throws {
        let mixer = try makeMixer { $0.maxAudibleVoices = 1 }
        let blocker = try mixer.play(try mixer.loadSound(constant(0, frames: 4800), name: "s"), VoiceParameters(loop: true, priority: 90))
        let oneShot = try mixer.play(
            try mixer.loadSound(constant(0.5, frames: 6000), name: "one-shot", loop: nil),
            VoiceParameters(whenInaudible: .resume))
        let a = render(mixer, frames: 5888)
        #expect(a.left.allSatisfy { $0 == 0 })
        #expect(mixer.isActive(oneShot) && mixer.statistics.virtualVoices == 1)
        _ = render(mixer, frames: 256)
        let ended = events(mixer).filter { if case .voiceEnded(let v, _) = $0 { v == oneShot } else { false } }
        #expect(ended.count == 1)
        #expect(mixer.isActive(blocker))
        #expect(mixer.statistics.voicesKilledByLimit == 0)
    }

    @Test("a virtual voice that restarts comes back from its start, in phase with a new voice of the same sound")
    func restartComesBackFromTheStart() throws {
        let limited = try makeMixer { $0.maxAudibleVoices = 1 }
        let loop = try limited.loadSound(noise(frames: 4801, seed: 11), name: "noise")
        let voice = try limited.play(loop, VoiceParameters(loop: true, priority: 40, whenInaudible: .restart))
        _ = render(limited, frames: 2560)
        let blocker = try limited.play(
            try limited.loadSound(constant(0, frames: 4800), name: "silence"), VoiceParameters(loop: true, priority: 90))
        let held = render(limited, frames: 12_800)
        #expect(held.left[256...].allSatisfy { $0 == 0 }, "virtual: not mixed")
        #expect(limited.isActive(voice) && limited.statistics.virtualVoices == 1)
        try limited.stop(blocker)
        let back = render(limited, frames: 4096)
        // The reference: the same sound started afresh, quantum-aligned.
        let reference = try makeMixer()
        _ = try reference.play(try reference.loadSound(noise(frames: 4801, seed: 11), name: "noise"), VoiceParameters(loop: true))
        let fresh = render(reference, frames: 4096)
        let worst = zip(back.left[64...], fresh.left[64...]).map { abs($0 - $1) }.max()!
        #expect(worst < 1e-6, "from the start after the de-click fade-in: largest difference \(worst)")
        #expect(limited.statistics.voicesKilledByLimit == 0)
    }

    @Test("every slot in use: a voice of higher priority takes the least important one's, which fades out and ends once")
    func aHigherPriorityVoiceStealsAFullPool() throws {
        let mixer = try makeMixer { $0.maxVoices = 4 }
        var low: [VoiceID] = []
        for (i, priority) in [30, 10, 10, 20].enumerated() {
            let dc = try mixer.loadSound(constant(0.1 + 0.1 * Float(i), frames: 4800), name: "dc\(i)")
            low.append(try mixer.play(dc, VoiceParameters(volume: 1, loop: true, priority: priority)))
        }
        let before = render(mixer, frames: 1024)
        let centre: Float = 0.70710678  // a mono voice at the centre: -3 dB on each side
        #expect(abs(before.left[1000] - 1.0 * centre) < 1e-4, "four voices: 0.1 + 0.2 + 0.3 + 0.4")
        _ = events(mixer)
        // The pool is full: an equal or lower priority is refused, a higher one steals.
        let tone = try loopingSine(mixer, 1000, amplitude: 0.25)
        #expect(throws: SoundEngineError.self) { try mixer.play(tone, VoiceParameters(loop: true, priority: 10)) }
        let high = try mixer.play(tone, VoiceParameters(loop: true, priority: 90))
        // Of the two priority-10 voices the newest (dc2, 0.3) goes.
        let after = render(mixer, frames: 4096)
        #expect(maxStep(after.left[...]) < 0.3 / 32 + 0.04, "the stolen voice fades out, no click: \(maxStep(after.left[...]))")
        #expect(goertzelAmplitude(after.left[1024...], frequency: 1000) > 0.15, "the new voice is heard")
        let offset = after.left[1024..<4096].reduce(0, +) / 3072
        #expect(abs(offset - 0.7 * centre) < 0.01, "the others play on (0.1 + 0.2 + 0.4): \(offset)")
        let ended = events(mixer).compactMap { if case .voiceEnded(let v, _) = $0 { v } else { nil } }
        #expect(ended == [low[2]], "the taken voice's end, once: \(ended)")
        _ = render(mixer, frames: 2048)
        #expect(events(mixer).compactMap { if case .voiceEnded(let v, _) = $0 { v } else { nil } }.isEmpty)
        #expect(mixer.isActive(high) && !mixer.isActive(low[2]) && mixer.isActive(low[0]))
        #expect(mixer.statistics.voicesStolen == 1)
    }
}

