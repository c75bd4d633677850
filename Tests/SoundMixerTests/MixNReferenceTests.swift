import Foundation
import SoundCore
import SoundMixer
import Testing

/// The mix-N workload (shared/bench/mix-N.md) as a plain scalar
/// implementation of its formulas, in Double, and the real mixer rendering
/// the same voices the way `mixbench` does.
@Suite("mix-N against a scalar reference")
struct MixNReferenceTests {
    static let rate = 48_000

    static func noise(seed: UInt64) -> [Float] {
        var generator = SplitMix64(state: seed)
        return (0..<rate).map { _ in
            Float(Int32(truncatingIfNeeded: Int64(generator.next() >> 40)) - 8_388_608) / 8_388_608
        }
    }

    @Test("the mixer's mix-N output correlates ≥ 0.999 with the formulas, per channel", arguments: [
        KernelSelection.automatic, .portable,
    ])
    func correlatesWithReference(kernels: KernelSelection) throws {
        try Self.check(kernels)
    }

    @Test(
        "… with the AVX2+FMA kernels",
        .enabled(if: KernelSelection.avx2.isSupported, "this CPU cannot run the AVX2+FMA kernels"))
    func avx2CorrelatesWithReference() throws {
        try Self.check(.avx2)
    }

    @Test(
        "… with the AVX-512 kernels",
        .enabled(if: KernelSelection.avx512.isSupported, "this CPU cannot run the AVX-512 kernels"))
    func avx512CorrelatesWithReference() throws {
        try Self.check(.avx512)
    }

    static func check(_ kernels: KernelSelection) throws {
        let n = 64, frames = Self.rate
        let sources = (0..<n).map { Self.noise(seed: UInt64($0)) }
        // Reference: out[t] = Σ 0.5 · (cos θ, sin θ) · lerp(x, t · r mod 48000).
        var refLeft = [Double](repeating: 0, count: frames), refRight = refLeft
        for i in 0..<n {
            let r = 0.9 + 0.2 * (Double(i) / Double(n))
            let theta = Double.pi / 2 * (Double(i) + 0.5) / Double(n)
            let x = sources[i]
            for t in 0..<frames {
                let p = (Double(t) * r).truncatingRemainder(dividingBy: Double(Self.rate))
                let k = Int(p), f = p - Double(k)
                let s = Double(x[k]) + f * (Double(x[(k + 1) % Self.rate]) - Double(x[k]))
                refLeft[t] += 0.5 * cos(theta) * s
                refRight[t] += 0.5 * sin(theta) * s
            }
        }
        let mixer = try Mixer(MixerConfiguration(quantumFrames: 512, maxVoices: n, maxSounds: n, kernels: kernels))
        for i in 0..<n {
            let sound = try mixer.loadSound(
                DecodedAudio(sampleRate: Self.rate, channelCount: 1, samples: sources[i]), name: "noise \(i)")
            let theta = Double.pi / 2 * (Double(i) + 0.5) / Double(n)
            try mixer.play(
                sound,
                VoiceParameters(volume: 0.5, pan: Float(theta * 4 / Double.pi - 1), pitch: 0.9 + 0.2 * (Double(i) / Double(n)), loop: true))
        }
        let out = render(mixer, frames: frames, block: 512)
        let left = correlation(out.left.map(Double.init), refLeft)
        let right = correlation(out.right.map(Double.init), refRight)
        #expect(left >= 0.999, "left correlation \(left)")
        #expect(right >= 0.999, "right correlation \(right)")
        let level = rms((out.left + out.right)[...])
        #expect(abs(level / (Double(n).squareRoot() / 6) - 1) < 0.02)
    }
}
