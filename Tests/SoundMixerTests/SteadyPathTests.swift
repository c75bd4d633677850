import SoundCore
import SoundMixer
import Testing

/// The steady-voice fast path (docs/mixer.md, "Steady voices") against the
/// general path it short-cuts: the same script of voices and commands on two
/// mixers, one with `steadyVoicePath` off, must give the same output to the
/// bit and the same events in the same order.
@Suite("Steady voices")
struct SteadyPathTests {
    static func noise(seed: UInt64, count: Int) -> [Float] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
        }
    }

    /// Runs the script on a mixer made with `steady`, returning both
    /// channels and every event in order.
    static func run(steady: Bool, kernels: KernelSelection, bandOrder: Bool = true) throws -> (
        left: [Float], right: [Float], events: [MixerEvent]
    ) {
        let mixer = try makeMixer {
            $0.steadyVoicePath = steady
            $0.kernels = kernels
            $0.bandOrderedVoices = bandOrder
        }
        let q = 256
        let looped = try mixer.loadSound(
            DecodedAudio(sampleRate: 48_000, channelCount: 1, samples: noise(seed: 1, count: 5000)), name: "looped",
            markers: [100, 2500, 4999])
        let region = try mixer.loadSound(
            DecodedAudio(sampleRate: 48_000, channelCount: 2, samples: noise(seed: 2, count: 6000)), name: "region",
            loop: LoopRegion(start: 700, end: 2100), markers: [800, 2000])
        let oneShot = try mixer.loadSound(
            DecodedAudio(sampleRate: 48_000, channelCount: 1, samples: noise(seed: 3, count: 1537)), name: "one-shot",
            loop: nil, markers: [10, 1536])
        let other = try mixer.loadSound(
            DecodedAudio(sampleRate: 44_100, channelCount: 1, samples: noise(seed: 4, count: 2048)), name: "44.1k")
        // Whole quanta long: a voice at pitch 1 reaches its end (or its loop's)
        // exactly on a quantum's boundary.
        let exact = try mixer.loadSound(
            DecodedAudio(sampleRate: 48_000, channelCount: 1, samples: noise(seed: 5, count: 4 * q)), name: "exact",
            loop: nil, markers: [3 * q])
        let exactLoop = try mixer.loadSound(
            DecodedAudio(sampleRate: 48_000, channelCount: 2, samples: noise(seed: 6, count: 6 * q)),
            name: "exact loop", markers: [0, 2 * q])

        let v1 = try mixer.play(looped, VoiceParameters(volume: 0.7, pan: -0.3, loop: true))
        let v2 = try mixer.play(region, VoiceParameters(volume: 0.8, pan: 0.5, pitch: 1.37, loop: true))
        try mixer.play(oneShot, VoiceParameters(pitch: 0.73, start: .afterFrames(100)))
        let v4 = try mixer.play(other, VoiceParameters(pitch: 2.5, loop: true, quality: .cubic))
        let v5 = try mixer.play(looped, VoiceParameters(volume: 0.5, loop: true, fadeIn: .milliseconds(6)))
        try mixer.play(exact, VoiceParameters(pan: 0.2))
        try mixer.play(exactLoop, VoiceParameters(volume: 0.6, pan: -0.8, loop: true))
        let v8 = try mixer.play(oneShot, VoiceParameters(volume: 0.4, loop: false, start: .afterFrames(3 * q + 17)))
        // Aux sends: two alike (one send group), one other, on a bus of their own.
        let dry = try mixer.createBus(name: "dry")
        let auxA = try mixer.createBus(name: "a"), auxB = try mixer.createBus(name: "b")
        let alike = VoiceParameters(volume: 0.3, pan: 0.1, loop: true, sends: [VoiceSend(bus: auxA, gain: 0.5)])
        try mixer.play(looped, on: dry, alike)
        let v11 = try mixer.play(exactLoop, on: dry, alike)
        try mixer.play(region, on: dry, VoiceParameters(volume: 0.2, loop: true, sends: [VoiceSend(bus: auxB, gain: 0.25)]))
        try mixer.play(other, on: dry, alike)
        // Low-passed voices in shared filters: one whose cutoff sweeps (a band
        // move each quantum, crossfaded) and then opens; one moved like a 3D
        // voice, its pan and cutoff updated every few quanta.
        let swept = try mixer.play(looped, VoiceParameters(volume: 0.5, pan: 0.3, loop: true, lowPassHz: 2000))
        let moving = try mixer.play(region, VoiceParameters(volume: 0.4, pitch: 1.1, loop: true, lowPassHz: 5000))
        // In the band the swept voice passes through: it moves into a filter
        // that is already running.
        try mixer.play(other, VoiceParameters(volume: 0.3, loop: true, lowPassHz: 1200))
        // A gain ramp on one side only: a mono source hard left and its
        // volume (the right gain stays 0); a stereo source left of centre
        // and its pan (the left gain stays at its clamp, 1).
        let v9 = try mixer.play(region, VoiceParameters(pan: -1, pitch: 0.9, loop: true))
        let v10 = try mixer.play(exactLoop, VoiceParameters(pan: -0.5, pitch: 0.8, loop: true))

        var left: [Float] = [], right: [Float] = [], all: [MixerEvent] = []
        for quantum in 0..<40 {
            switch quantum {
            case 3: try mixer.setVolume(v1, 0.2, rampFrames: 700)
            case 4: try mixer.setPitch(v2, 0.61)
            case 5: try mixer.stop(v8)
            case 6: try mixer.setPan(v5, 0.9, rampFrames: q)
            case 7: try mixer.pause(v4, fadeFrames: 100)
            case 9: try mixer.seek(v2, to: .frame(1990))
            case 11: try mixer.resume(v4, fadeFrames: 50)
            case 12: try mixer.stop(v1, fadeOutFrames: 200, atFrame: Int64(12 * q + 5 * q + 33))
            case 14: try mixer.setPitch(v5, 1.0001)
            case 15:
                try mixer.setVolume(v9, 0.3, rampFrames: 600)
                try mixer.setPan(v10, -0.7, rampFrames: 700)
            case 17: try mixer.setSend(v11, index: 0, bus: auxA, gain: 0.2, rampFrames: 300)
            case 19: try mixer.setSend(v11, index: 0, bus: auxA, gain: 0.5, rampFrames: 0)
            case 20: try mixer.play(exact, VoiceParameters(volume: 0.3, start: .afterFrames(q)))
            // A stop whose fade ends exactly on a quantum's boundary.
            case 29: try mixer.stop(v5, fadeOutFrames: 2 * q, atFrame: Int64(31 * q))
            default: break
            }
            if quantum % 3 == 2 {
                let t = Float(quantum)
                try mixer.setVolumeAndPan(moving, volume: 0.3 + 0.01 * t, pan: -0.5 + 0.025 * t)
                try mixer.setLowPass(moving, cutoffHz: 5000 - 20 * t, rampFrames: quantum % 2 == 0 ? q : 2 * q)
            }
            if quantum == 8 { try mixer.setLowPass(swept, cutoffHz: 800, rampFrames: 3 * q) }
            if quantum == 22 { try mixer.setLowPass(swept, cutoffHz: nil, rampFrames: q) }
            // Blocks that straddle quanta, as a server's requests do.
            let out = render(mixer, frames: q, block: 100)
            left += out.left
            right += out.right
            all += events(mixer)
        }
        return (left, right, all)
    }

    @Test(
        "steady voices mix to the bit as the general path mixes them, with the same events",
        arguments: [KernelSelection.automatic, .portable])
    func sameAsTheGeneralPath(kernels: KernelSelection) throws {
        let fast = try Self.run(steady: true, kernels: kernels)
        let general = try Self.run(steady: false, kernels: kernels)
        #expect(fast.left.count == general.left.count)
        let differing = zip(fast.left + fast.right, general.left + general.right).filter { $0.bitPattern != $1.bitPattern }
        let count = differing.count, first = Array(differing.prefix(4))
        #expect(count == 0, "\(count) samples differ, the first \(first)")
        #expect(fast.events == general.events)
        // The script is not silent, and ends, loops and markers all happened.
        #expect(rms(general.left[...]) > 0.05 && rms(general.right[...]) > 0.05)
        let ends = general.events.filter { if case .voiceEnded = $0 { true } else { false } }.count
        let markers = general.events.filter { if case .marker = $0 { true } else { false } }.count
        #expect(ends >= 5 && markers >= 20, "ends \(ends), markers \(markers)")
    }

    /// The voice loop's band order (docs/mixer.md, "Voices in band order")
    /// against the active list's: the script's low-passed voices start
    /// after unfiltered ones and in no band order, so the two orders differ,
    /// and voices end, stop and start while the loop runs in band order.
    /// Every voice must be mixed once a quantum either way: the outputs
    /// differ only by the rounding of sums added in another order, and the
    /// same events happen (a voice's own events keep their order; events of
    /// different voices in one quantum come in the order they were visited).
    @Test("voices visited in band order mix what the active order mixes, with the same events",
        arguments: [KernelSelection.automatic, .portable])
    func bandOrderMixesWhatTheActiveOrderMixes(kernels: KernelSelection) throws {
        let grouped = try Self.run(steady: true, kernels: kernels, bandOrder: true)
        let plain = try Self.run(steady: true, kernels: kernels, bandOrder: false)
        #expect(grouped.left.count == plain.left.count)
        let pairs = Array(zip(grouped.left + grouped.right, plain.left + plain.right))
        let largest = pairs.map { abs($0 - $1) }.max() ?? .infinity
        #expect(largest < 1e-5, "largest difference \(largest)")
        // The orders did differ: some sums were added in another order.
        #expect(pairs.contains { $0.bitPattern != $1.bitPattern })
        let a = grouped.events.map { "\($0)" }.sorted(), b = plain.events.map { "\($0)" }.sorted()
        let sameEvents = a == b
        #expect(sameEvents, "\(a.count) events against \(b.count); first differing: \(zip(a, b).first { $0 != $1 }.map { "\($0)" } ?? "none")")
        #expect(rms(plain.left[...]) > 0.05)
    }

    @Test("a new pitch reaches a steady voice in the next quantum (its read step is worked out again)")
    func pitchChangeReachesASteadyVoice() throws {
        let mixer = try makeMixer()
        // 1000 Hz at 44.1 kHz: whole cycles in 4410 frames, so it loops seamlessly.
        let tone = try mixer.loadSound(sine(frequency: 1000, rate: 44_100, frames: 4410), name: "tone")
        let voice = try mixer.play(tone, VoiceParameters(pan: -1, loop: true))
        let before = render(mixer, frames: 8 * 256).left
        try mixer.setPitch(voice, 1.5)
        let after = render(mixer, frames: 16 * 256).left
        let f0 = zeroCrossingFrequency(before[256...]), f1 = zeroCrossingFrequency(after[512...])
        #expect(abs(f0 - 1000) < 10, "before: \(f0) Hz")
        #expect(abs(f1 - 1500) < 15, "after: \(f1) Hz")
    }
}
