import Foundation
import SoundEffects
import Testing

@Suite struct CompressorTests {
    /// Steady-state gain reduction of a 1 kHz sine above the threshold,
    /// hard knee: within ±0.5 dB of (level − threshold)(1 − 1/ratio), for
    /// several thresholds, ratios and levels, with the peak detector (level =
    /// the sine's amplitude in dBFS) and the RMS detector (level 3.01 dB lower).
    @Test(arguments: [CompressorDetector.peak, .rms])
    func steadyStateGainReduction(detector: CompressorDetector) throws {
        var worst = 0.0
        for threshold in [-40.0, -24, -10] {
            for ratio in [1.5, 2, 4, 10, 50] {
                for over in [3.0, 9, 20] {
                    let level = min(threshold + over, 0)
                    let p = try EffectParameters.compressor(
                        threshold: Float(threshold), ratio: Float(ratio), attack: 1, release: 200, detector: detector)
                    let h = EffectHarness(.compressor, p)
                    let amplitude = pow(10, level / 20)
                    let input = Signal.sine(1000, amplitude: amplitude, frames: 48000)
                    var x = [input, input]
                    h.process(&x)
                    let out = Double(peak(x[0], 43200..<48000))
                    let reduction = level - dB(out)
                    let detected = detector == .peak ? level : level - 3.0103
                    let expected = max(0, detected - threshold) * (1 - 1 / ratio)
                    worst = max(worst, abs(reduction - expected))
                    #expect(
                        abs(reduction - expected) <= 0.5,
                        "T \(threshold) R \(ratio) level \(level): reduction \(reduction) dB, expected \(expected)")
                    #expect(x[0] == x[1])
                }
            }
        }
        print("compressor \(detector): largest steady-state error \(worst) dB")
    }

    /// Soft knee: at the threshold the reduction is (1 − 1/R)·knee/8; well
    /// above the knee it is the hard-knee value.
    @Test func softKnee() throws {
        for (level, expected) in [(-20.0, 0.75 * 12 / 8), (-2.0, 0.75 * 18)] {
            let p = try EffectParameters.compressor(threshold: -20, ratio: 4, attack: 1, release: 200, knee: 12)
            let h = EffectHarness(.compressor, p)
            let input = Signal.sine(1000, amplitude: pow(10, level / 20), frames: 48000)
            var x = [input, input]
            h.process(&x)
            let reduction = level - dB(Double(peak(x[0], 43200..<48000)))
            #expect(abs(reduction - expected) <= 0.5, "level \(level): \(reduction) vs \(expected)")
        }
    }

    /// The gain per frame, |y|/|x|, in dB, where |x| is large enough to measure.
    func gainTrack(_ x: [Float], _ y: [Float], floor: Float) -> [(Int, Double)] {
        (0..<x.count).compactMap { i in abs(x[i]) > floor ? (i, dB(Double(abs(y[i] / x[i])))) : nil }
    }

    /// Attack and release as documented: after a step up, the gain reduction
    /// reaches 63 % of its new value after about the attack time constant;
    /// after a step down it falls 63 % in about the release time constant
    /// plus the attack's (the two-stage detector). Within ±20 %.
    @Test(arguments: [(5.0, 100.0), (20.0, 400.0), (1.0, 50.0)])
    func attackAndReleaseTimes(attack: Double, release: Double) throws {
        let rate = 48000.0
        let p = try EffectParameters.compressor(
            threshold: -30, ratio: 10, attack: Float(attack), release: Float(release))
        let h = EffectHarness(.compressor, p)
        let quiet = 0.01, loud = 1.0  // −40 dBFS (below threshold), 0 dBFS (27 dB reduction)
        let stepUp = 24000, stepDown = 24000 + Int(rate * 3 * attack / 1000 + rate * 0.5)
        let frames = stepDown + Int(rate * 6 * release / 1000)
        let input: [Float] = (0..<frames).map { i in
            let a = i >= stepUp && i < stepDown ? loud : quiet
            return Float(a * sin(2 * .pi * 1000 * Double(i) / rate))
        }
        var x = [input, input]
        h.process(&x)
        let track = gainTrack(input, x[0], floor: 0.005)
        let full = 27.0
        let up = track.first { $0.0 >= stepUp && -$0.1 >= 0.632 * full }!.0
        let attackMeasured = Double(up - stepUp) / rate * 1000
        #expect(abs(attackMeasured - attack) <= 0.2 * attack + 0.5, "attack \(attackMeasured) ms, set \(attack)")
        let reductionAtStep = -track.last { $0.0 < stepDown }!.1
        let down = track.first { $0.0 >= stepDown && -$0.1 <= 0.368 * reductionAtStep }!.0
        let releaseMeasured = Double(down - stepDown) / rate * 1000
        #expect(
            abs(releaseMeasured - (release + attack)) <= 0.2 * (release + attack),
            "release \(releaseMeasured) ms, set \(release) (+ attack \(attack))")
        print("compressor attack \(attack) ms → \(attackMeasured) ms; release \(release) ms → \(releaseMeasured) ms")
    }

    /// A loud sidechain reduces a quiet input by what the sidechain's level
    /// asks; without the sidechain the quiet input passes untouched.
    @Test func sidechainDrivesTheDetector() throws {
        let p = try EffectParameters.compressor(threshold: -30, ratio: 4, attack: 2, release: 100)
        let input = Signal.sine(440, amplitude: 0.01, frames: 48000)  // −40 dBFS
        let key = Signal.sine(97, amplitude: 0.5, frames: 48000)  // −6.02 dBFS
        let h = EffectHarness(.compressor, p)
        var x = [input, input]
        h.process(&x, sidechain: [key, key])
        let reduction = -40 - dB(Double(peak(x[0], 38400..<48000)))
        let expected = (dB(0.5) + 30) * 0.75
        #expect(abs(reduction - expected) <= 0.5, "sidechained reduction \(reduction) dB, expected \(expected)")
        let plain = EffectHarness(.compressor, p)
        var y = [input, input]
        plain.process(&y)
        #expect(abs(-40 - dB(Double(peak(y[0], 38400..<48000)))) < 0.01)
        #expect(!plain.effect.isRinging)
    }

    /// Channel linking: a loud left channel reduces a quiet right one by the same gain.
    @Test func channelsAreLinked() throws {
        let p = try EffectParameters.compressor(threshold: -20, ratio: 4, attack: 1, release: 100)
        let h = EffectHarness(.compressor, p)
        let loud = Signal.sine(1000, amplitude: 1, frames: 24000)
        let quiet = Signal.sine(300, amplitude: 0.01, frames: 24000)
        var x = [loud, quiet]
        h.process(&x)
        let left = dB(Double(peak(x[0], 19200..<24000))), right = dB(Double(peak(x[1], 19200..<24000))) + 40
        #expect(abs(left - right) < 0.2 && abs(left + 15) < 0.5)
    }
}
