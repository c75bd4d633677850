import Foundation
import SoundEffects
import Testing

/// The analytic RBJ cookbook biquad (Robert Bristow-Johnson, "Cookbook
/// formulae for audio EQ biquad filter coefficients"), in Double.
struct RBJBiquad {
    var b0, b1, b2, a0, a1, a2: Double

    /// The cookbook design of `type` at `frequency` Hz, `gain` dB, `q`, at `rate` Hz
    /// (band-pass: the constant 0 dB peak gain form; shelves: the Q form).
    init(_ type: EQBandType, frequency: Double, gain: Double, q: Double, rate: Double) {
        let w0 = 2 * Double.pi * frequency / rate
        let cw = cos(w0), sw = sin(w0)
        let alpha = sw / (2 * q)
        let a = pow(10, gain / 40)
        let ra = sqrt(a)
        switch type {
        case .off: (b0, b1, b2, a0, a1, a2) = (1, 0, 0, 1, 0, 0)
        case .lowPass: (b0, b1, b2, a0, a1, a2) = ((1 - cw) / 2, 1 - cw, (1 - cw) / 2, 1 + alpha, -2 * cw, 1 - alpha)
        case .highPass:
            (b0, b1, b2, a0, a1, a2) = ((1 + cw) / 2, -(1 + cw), (1 + cw) / 2, 1 + alpha, -2 * cw, 1 - alpha)
        case .bandPass: (b0, b1, b2, a0, a1, a2) = (alpha, 0, -alpha, 1 + alpha, -2 * cw, 1 - alpha)
        case .notch: (b0, b1, b2, a0, a1, a2) = (1, -2 * cw, 1, 1 + alpha, -2 * cw, 1 - alpha)
        case .peak:
            (b0, b1, b2, a0, a1, a2) = (1 + alpha * a, -2 * cw, 1 - alpha * a, 1 + alpha / a, -2 * cw, 1 - alpha / a)
        case .lowShelf:
            b0 = a * ((a + 1) - (a - 1) * cw + 2 * ra * alpha)
            b1 = 2 * a * ((a - 1) - (a + 1) * cw)
            b2 = a * ((a + 1) - (a - 1) * cw - 2 * ra * alpha)
            a0 = (a + 1) + (a - 1) * cw + 2 * ra * alpha
            a1 = -2 * ((a - 1) + (a + 1) * cw)
            a2 = (a + 1) + (a - 1) * cw - 2 * ra * alpha
        case .highShelf:
            b0 = a * ((a + 1) + (a - 1) * cw + 2 * ra * alpha)
            b1 = -2 * a * ((a - 1) + (a + 1) * cw)
            b2 = a * ((a + 1) + (a - 1) * cw - 2 * ra * alpha)
            a0 = (a + 1) - (a - 1) * cw + 2 * ra * alpha
            a1 = 2 * ((a - 1) - (a + 1) * cw)
            a2 = (a + 1) - (a - 1) * cw - 2 * ra * alpha
        }
    }

    /// |H(e^{jω})| at `frequency` Hz.
    func magnitude(at frequency: Double, rate: Double) -> Double {
        let w = 2 * Double.pi * frequency / rate
        let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
        let nr = b0 + b1 * c1 + b2 * c2, ni = -(b1 * s1 + b2 * s2)
        let dr = a0 + a1 * c1 + a2 * c2, di = -(a1 * s1 + a2 * s2)
        return sqrt((nr * nr + ni * ni) / (dr * dr + di * di))
    }
}

/// |DFT| of `h` at `frequency` Hz.
func dftMagnitude(_ h: [Float], at frequency: Double, rate: Double) -> Double {
    let w = 2 * Double.pi * frequency / rate
    var re = 0.0, im = 0.0
    for (n, v) in h.enumerated() where v != 0 {
        re += Double(v) * cos(w * Double(n))
        im -= Double(v) * sin(w * Double(n))
    }
    return sqrt(re * re + im * im)
}

@Suite struct EQTests {
    static let designs: [(frequency: Double, gain: Double, q: Double)] = [
        (100, 12, 0.707), (1000, -9, 2), (440, 24, 0.5), (5000, 6, 0.3), (12000, -18, 8),
    ]
    static let probes: [Double] = [30, 60, 100, 200, 440, 700, 1000, 2000, 3500, 5000, 8000, 12000, 16000, 20000]

    /// Every band type, at several frequencies, gains and Qs, at 44.1 and
    /// 48 kHz: the impulse response's DFT at 14 frequencies (plus f0, f0/2,
    /// 2·f0) within ±0.5 dB of the analytic RBJ biquad wherever the design is
    /// above −60 dB (below it, the measured response must be below −50 dB).
    @Test(arguments: [44100.0, 48000.0])
    func magnitudeMatchesRBJ(rate: Double) throws {
        var worst = 0.0
        for type in EQBandType.allCases where type != .off {
            for d in Self.designs {
                let band = EQBand(type, frequency: Float(d.frequency), gain: Float(d.gain), q: Float(d.q))
                let p = try EffectParameters.parametricEQ(bands: [band])
                let h = EffectHarness(.parametricEQ, p, rate: rate, capacityChannels: 1)
                var x = [Signal.impulse(frames: 32768)]
                h.process(&x)
                let design = RBJBiquad(type, frequency: d.frequency, gain: d.gain, q: d.q, rate: rate)
                for f in Self.probes + [d.frequency, d.frequency / 2, d.frequency * 2] where f < rate / 2 {
                    let expected = dB(design.magnitude(at: f, rate: rate))
                    let measured = dB(dftMagnitude(x[0], at: f, rate: rate))
                    if expected > -60 {
                        worst = max(worst, abs(measured - expected))
                        #expect(
                            abs(measured - expected) <= 0.5,
                            "\(type) f0 \(d.frequency) gain \(d.gain) Q \(d.q) at \(f) Hz: \(measured) dB, RBJ \(expected) dB")
                    } else {
                        #expect(measured < -50, "\(type) at \(f) Hz: \(measured) dB, RBJ \(expected) dB")
                    }
                }
            }
        }
        print("EQ at \(rate) Hz: largest deviation from RBJ \(worst) dB")
    }

    /// Six bands at once and the output gain: the cascade's response is the
    /// product of the six RBJ responses times the gain.
    @Test func sixBandsCascade() throws {
        let rate = 48000.0
        let bands = [
            EQBand(.highPass, frequency: 40, q: 0.707), EQBand(.lowShelf, frequency: 150, gain: 4, q: 0.707),
            EQBand(.peak, frequency: 900, gain: -6, q: 1.4), EQBand(.notch, frequency: 3000, q: 4),
            EQBand(.highShelf, frequency: 8000, gain: 3, q: 0.9), EQBand(.lowPass, frequency: 16000, q: 0.707),
        ]
        let p = try EffectParameters.parametricEQ(bands: bands, outputGain: -3)
        let h = EffectHarness(.parametricEQ, p, rate: rate, capacityChannels: 2)
        var x = [Signal.impulse(frames: 32768), Signal.impulse(frames: 32768)]
        h.process(&x)
        #expect(x[0] == x[1])
        for f in Self.probes {
            var expected = -3.0
            for b in bands {
                expected += dB(
                    RBJBiquad(b.type, frequency: Double(b.frequency), gain: Double(b.gain), q: Double(b.q), rate: rate)
                        .magnitude(at: f, rate: rate))
            }
            let measured = dB(dftMagnitude(x[0], at: f, rate: rate))
            if expected > -60 { #expect(abs(measured - expected) <= 0.5, "\(f) Hz: \(measured) vs \(expected)") }
        }
    }

    /// The default EQ (all gains 0 dB) and all-off bands pass the input bit for bit.
    @Test func flatIsTransparent() throws {
        for p in [EffectParameters.defaults(for: .parametricEQ), try EffectParameters.parametricEQ(bands: [])] {
            let h = EffectHarness(.parametricEQ, p)
            let input = Signal.noise(frames: 5000, amplitude: 0.8, seed: 7)
            var x = [input, input]
            h.process(&x, quantum: 333)
            #expect(x[0] == input && x[1] == input)
            #expect(!h.effect.isRinging)
        }
    }

    /// A resonant band keeps ringing after its input stops, then falls
    /// silent, flushes its state and reports it.
    @Test func ringingEnds() throws {
        let p = try EffectParameters.parametricEQ(bands: [EQBand(.peak, frequency: 60, gain: 24, q: 20)])
        let h = EffectHarness(.parametricEQ, p)
        var x = [Signal.impulse(frames: 512), Signal.impulse(frames: 512)]
        h.process(&x)
        #expect(h.effect.isRinging)
        var quanta = 0
        while h.effect.isRinging && quanta < 2000 {
            var silence = [[Float](repeating: 0, count: 512), [Float](repeating: 0, count: 512)]
            h.process(&silence)
            quanta += 1
        }
        #expect(!h.effect.isRinging)
        #expect(quanta > 10 && quanta < 2000)
    }
}
