import CMixKernels
import SoundEffects
import Testing

/// The fast paths of the EQ and the reverb (docs/mixer.md, "Bus effects"):
/// settled EQ bands run as one fused cascade, the reverb's network a chunk
/// at a time through a C kernel chosen per CPU. These tests hold them to
/// the straightforward computation.
@Suite struct BlockPathTests {
    static let bands = [
        EQBand(.lowShelf, frequency: 80, gain: 3), EQBand(.peak, frequency: 200, gain: -2, q: 1),
        EQBand(.peak, frequency: 500, gain: 2, q: 1), EQBand(.peak, frequency: 1250, gain: -3, q: 1),
        EQBand(.peak, frequency: 3150, gain: 2, q: 1), EQBand(.highShelf, frequency: 8000, gain: -3),
    ]

    static func noise(channels: Int, frames: Int) -> [[Float]] {
        (0..<channels).map { Signal.noise(frames: frames, amplitude: 0.5, seed: UInt64(17 + $0)) }
    }

    /// The largest |a − b| over every channel's frames in `frames` (all by default).
    static func largestDifference(_ a: [[Float]], _ b: [[Float]], frames: Range<Int>? = nil) -> Float {
        var worst: Float = 0
        for c in a.indices {
            for i in frames ?? a[c].indices { worst = max(worst, abs(a[c][i] - b[c][i])) }
        }
        return worst
    }

    /// Six settled bands fused (one pass, two channels per vector)
    /// give bit for bit what the six bands give run one after another, each
    /// an EQ of its own, for stereo and for three channels (the odd one on
    /// its own lane).
    @Test(arguments: [2, 3])
    func fusedBandsEqualBandsOneAfterAnother(channels: Int) throws {
        let input = Self.noise(channels: channels, frames: 9000)
        var fused = input
        EffectHarness(.parametricEQ, try .parametricEQ(bands: Self.bands), capacityChannels: channels)
            .process(&fused)
        var serial = input
        for band in Self.bands {
            EffectHarness(.parametricEQ, try .parametricEQ(bands: [band]), capacityChannels: channels)
                .process(&serial)
        }
        for c in 0..<channels {
            #expect(fused[c] == serial[c], "channel \(c)")
            #expect(fused[c] != input[c], "channel \(c) was filtered")
        }
    }

    /// Every instruction-set level of the cascade kernel this CPU runs gives
    /// the portable level's output within float rounding (fused
    /// multiply-adds round once), and the output does not depend on how the
    /// frames are cut into calls (the bands' wavefront starts and ends
    /// inside each call).
    @Test func eqKernelLevelsAndCallSizesAgree() throws {
        let p = try EffectParameters.parametricEQ(bands: Self.bands)
        let input = Self.noise(channels: 3, frames: 6000)
        let best = EffectHarness(.parametricEQ, p, capacityChannels: 3).effect.kernelLevel
        var outputs: [[[Float]]] = []
        for level in 0...best {
            let h = EffectHarness(.parametricEQ, p, capacityChannels: 3)
            h.effect.kernelLevel = level
            var x = input
            h.process(&x)
            outputs.append(x)
        }
        for level in 1..<outputs.count {
            let worst = Self.largestDifference(outputs[level], outputs[0])
            print("EQ cascade level \(level) vs portable: largest difference \(worst)")
            #expect(worst <= 1e-5, "level \(level): \(worst)")
        }
        for quantum in [1, 5, 333] {
            var x = input
            EffectHarness(.parametricEQ, p, capacityChannels: 3).process(&x, quantum: quantum)
            #expect(x == outputs[outputs.count - 1], "quantum \(quantum)")
        }
    }

    /// The reverb's output does not depend on how the frames are cut into
    /// calls (512, 37, 1000): chunks of the network (at most 128 frames, no
    /// longer than the shortest line) and of the diffusers give the same
    /// samples as any other cut.
    /// At 8 kHz the diffusers (29 frames and up) cut the chunks shorter.
    @Test(arguments: [48000.0, 8000.0])
    func reverbOutputDoesNotDependOnTheCallSize(rate: Double) throws {
        let p = try EffectParameters.reverb(rt60: 1.2, roomSize: 0.3, preDelay: 12, damping: 0.4, wet: 0.7, dry: 0.5)
        let input = Self.noise(channels: 2, frames: 24000)
        var outputs: [[[Float]]] = []
        for quantum in [512, 37, 1000] {
            var x = input
            EffectHarness(.reverb, p, rate: rate, capacityChannels: 2).process(&x, quantum: quantum)
            outputs.append(x)
        }
        #expect(outputs[1] == outputs[0])
        #expect(outputs[2] == outputs[0])
        #expect(outputs[0][0] != input[0])
    }

    /// Every instruction-set level of the network kernel this CPU runs
    /// (portable, AVX2+FMA, AVX-512) gives the portable level's impulse
    /// response within float rounding (fused multiply-adds round once).
    @Test func reverbKernelLevelsAgree() throws {
        let p = try EffectParameters.reverb(rt60: 2, roomSize: 0.6, preDelay: 5, damping: 0.5, wet: 1, dry: 0)
        let best = EffectHarness(.reverb, p, capacityChannels: 2).effect.kernelLevel
        #expect(best >= 0 && best <= 2)
        var responses: [[[Float]]] = []
        for level in 0...best {
            let h = EffectHarness(.reverb, p, capacityChannels: 2)
            h.effect.kernelLevel = level
            var x = [Signal.impulse(frames: 48000), Signal.impulse(frames: 48000, at: 100)]
            h.process(&x)
            responses.append(x)
        }
        let peak = responses[0].flatMap { $0 }.map(abs).max() ?? 0
        #expect(peak > 0.001)
        for level in 1..<responses.count {
            let worst = Self.largestDifference(responses[level], responses[0])
            print("reverb kernel level \(level) vs portable: largest difference \(worst)")
            #expect(worst <= 1e-4 * peak, "level \(level): \(worst)")
        }
    }

    /// A room-size change crossfades the lines to their new lengths inside
    /// the network kernel, at every instruction-set level: once the
    /// crossfade is over and the old room's sound has decayed, the output is
    /// that of a reverb that was in the new room all along (so the
    /// crossfade ended, on the new lengths and their filters), and the
    /// levels agree with the portable one throughout.
    @Test func aRoomSizeCrossfadeEndsInTheNewRoomAtEveryKernelLevel() throws {
        let small = try EffectParameters.reverb(rt60: 0.25, roomSize: 0.2, preDelay: 5, damping: 0.3, wet: 1, dry: 0)
        let large = try EffectParameters.reverb(rt60: 0.25, roomSize: 0.9, preDelay: 5, damping: 0.3, wet: 1, dry: 0)
        let best = EffectHarness(.reverb, small, capacityChannels: 2).effect.kernelLevel
        let input = Self.noise(channels: 2, frames: 96000)
        var moved: [[[Float]]] = []
        for level in 0...best {
            let changed = EffectHarness(.reverb, small, capacityChannels: 2)
            changed.effect.kernelLevel = level
            var x = input
            changed.process(&x, quantum: 480) { at, effect in
                if at == 4800 { effect.setTarget(large, rampFrames: 0) }
            }
            let settled = EffectHarness(.reverb, large, capacityChannels: 2)
            settled.effect.kernelLevel = level
            var y = input
            settled.process(&y, quantum: 480)
            // 1.5 s after the change: six RT60s, 360 dB below what the small room held.
            let tail = 84000..<96000
            let peak = y.flatMap { $0[tail] }.map(abs).max() ?? 0
            let worst = Self.largestDifference(x, y, frames: tail)
            print("reverb level \(level): room changed vs always large, largest difference \(worst) (peak \(peak))")
            #expect(peak > 0.01)
            #expect(worst <= 1e-5 * peak, "level \(level): \(worst)")
            // Before the change the two rooms differ (the test can see a room).
            #expect(Self.largestDifference(x, y, frames: 2400..<4800) > 0.01 * peak)
            moved.append(x)
        }
        for level in 1..<moved.count {
            let worst = Self.largestDifference(moved[level], moved[0])
            print("reverb room crossfade, kernel level \(level) vs portable: largest difference \(worst)")
            #expect(worst <= 1e-4, "level \(level): \(worst)")
        }
    }

    /// The compressor's curve and gain kernels compute what the Swift
    /// `fastLog2`/`fastExp2` and the static curve give, bit for bit, at
    /// every level and every length (the 16-frame tail included).
    @Test(arguments: [1, 15, 16, 17, 100, 128])
    func compressorKernelsAreTheSwiftArithmetic(frames: Int) {
        var state: UInt64 = 0x5EED &+ UInt64(frames)
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let u = Float(state >> 40) / Float(1 << 24)
            return (u * 2 - 1) * (u < 0.1 ? 1e-6 : u > 0.9 ? 4 : 1)
        }
        let stride = 130
        let source = (0..<(2 * stride)).map { _ in random() }
        let (threshold, slope, knee): (Float, Float, Float) = (-18, 0.75, 6)
        let log2ToDecibels: Float = 6.020_599_913_279_624
        let decibelsToLog2: Float = 0.166_096_404_744_368_12
        var expectedCurve = [Float](repeating: 0, count: frames)
        for j in 0..<frames {
            let peak = max(abs(source[j]), abs(source[stride + j]))
            let e = fastLog2(peak) * log2ToDecibels - threshold
            if 2 * e <= -knee {
                expectedCurve[j] = 0
            } else if 2 * e < knee {
                let u = e + 0.5 * knee
                expectedCurve[j] = slope * u * u / (2 * knee)
            } else {
                expectedCurve[j] = slope * e
            }
        }
        let (from, step, first): (Float, Float, Int) = (1.5, 0.01, 37)
        var expectedOut = source
        for j in 0..<frames {
            let g = fastExp2((from + step * Float(first + j + 1) - expectedCurve[j]) * decibelsToLog2)
            expectedOut[j] *= g
            expectedOut[stride + j] *= g
        }
        for level in 0...fx_best_level() {
            var curve = [Float](repeating: -1, count: frames + 1)
            fx_compressor_peak_curve(level, source, Int64(stride), 2, Int32(frames), &curve, threshold, slope, knee)
            #expect(curve[frames] == -1, "level \(level) wrote past the frames")
            #expect(
                zip(curve, expectedCurve).allSatisfy { $0.bitPattern == $1.bitPattern },
                "level \(level): \(zip(curve, expectedCurve).filter { $0 != $1 }.prefix(3))")
            var out = source
            fx_compressor_gain(level, &out, Int64(stride), 2, Int32(frames), expectedCurve, from, step, Int32(first))
            #expect(
                zip(out, expectedOut).allSatisfy { $0.bitPattern == $1.bitPattern },
                "level \(level): \(zip(out, expectedOut).filter { $0 != $1 }.prefix(3))")
        }
    }

    /// The compressor's smoothing kernel is the recursion of the header, to
    /// the bit at every level, and flushes a stage below 1e-12 dB to 0 at
    /// the end of the call only.
    @Test func compressorSmoothingIsTheRecursion() {
        let frames = 128
        var curve = (0..<frames).map { j -> Float in j < 40 ? Float(j % 7) * 1.5 : j < 90 ? 0 : 3 }
        curve[100] = 20
        let (release, attack): (Float, Float) = (0.995, 0.8)
        var expected = curve
        var (y1, yL): (Float, Float) = (2, 1)
        for j in 0..<frames {
            let x = curve[j]
            let fed = (1 - release) * x, decayed = release * y1
            let e = decayed + fed
            y1 = x > e ? x : e
            let rise = (1 - attack) * y1, held = attack * yL
            yL = held + rise
            expected[j] = yL
        }
        for level in 0...fx_best_level() {
            var out = curve
            var stages: [Float] = [2, 1]
            fx_compressor_smooth(level, &out, Int32(frames), release, attack, &stages)
            #expect(zip(out, expected).allSatisfy { $0.bitPattern == $1.bitPattern }, "level \(level)")
            #expect(stages == [y1, yL], "level \(level): \(stages)")
        }
        // A decayed stage is 0 after the call, not a subnormal-bound tiny.
        var silence = [Float](repeating: 0, count: frames)
        var stages: [Float] = [1e-11, 1e-11]
        fx_compressor_smooth(fx_best_level(), &silence, Int32(frames), 0.5, 0.5, &stages)
        #expect(stages == [0, 0], "\(stages)")
    }
}
