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
            var worst: Float = 0
            for c in 0..<3 {
                for i in 0..<6000 { worst = max(worst, abs(outputs[level][c][i] - outputs[0][c][i])) }
            }
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
            var worst: Float = 0
            for c in 0..<2 {
                for i in 0..<48000 { worst = max(worst, abs(responses[level][c][i] - responses[0][c][i])) }
            }
            print("reverb kernel level \(level) vs portable: largest difference \(worst)")
            #expect(worst <= 1e-4 * peak, "level \(level): \(worst)")
        }
    }
}
