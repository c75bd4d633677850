import Foundation
import SoundEffects
import Testing

/// RT60 from an impulse response: Schroeder backward integration of the
/// energy (summed over `channels`), a least-squares line through the decay
/// curve from −5 to −35 dB, extrapolated to −60 dB (T30 × 2).
func schroederRT60(_ channels: [[Float]], rate: Double) -> Double {
    let n = channels[0].count
    var energy = [Double](repeating: 0, count: n)
    var sum = 0.0
    for i in stride(from: n - 1, through: 0, by: -1) {
        for c in channels { sum += Double(c[i]) * Double(c[i]) }
        energy[i] = sum
    }
    let total = energy[0]
    var xs: [Double] = [], ys: [Double] = []
    for i in 0..<n {
        let level = 10 * log10(energy[i] / total)
        if level <= -5 && level >= -35 {
            xs.append(Double(i) / rate)
            ys.append(level)
        }
    }
    let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
    var sxy = 0.0, sxx = 0.0
    for (x, y) in zip(xs, ys) {
        sxy += (x - mx) * (y - my)
        sxx += (x - mx) * (x - mx)
    }
    return -60 / (sxy / sxx)
}

@Suite struct ReverbTests {
    /// RT60 measured from the impulse response (Schroeder, T30 × 2) within
    /// ±10 % of the set value at damping 0, 48 kHz, for 0.5, 1.5 and 4 s and
    /// small and large rooms.
    @Test(arguments: [(0.5, 0.5), (1.5, 0.5), (4.0, 0.5), (0.5, 0.0), (1.5, 1.0)])
    func decayTimeMatchesRT60(rt60: Double, roomSize: Double) throws {
        let rate = 48000.0
        let p = try EffectParameters.reverb(
            rt60: Float(rt60), roomSize: Float(roomSize), preDelay: 10, damping: 0, wet: 1, dry: 0)
        let h = EffectHarness(.reverb, p, rate: rate, capacityChannels: 2)
        let frames = Int(rate * (1.5 * rt60 + 0.3))
        var x = [Signal.impulse(frames: frames), [Float](repeating: 0, count: frames)]
        h.process(&x)
        let measured = schroederRT60(x, rate: rate)
        print("reverb RT60 \(rt60) s, room \(roomSize): measured \(measured) s")
        #expect(abs(measured - rt60) <= 0.1 * rt60, "measured \(measured) s for \(rt60) s")
        #expect(x.allSatisfy { $0.allSatisfy(\.isFinite) })
    }

    /// Damping shortens the high-frequency decay and leaves the low one:
    /// the IR's energy above 8 kHz falls faster than below 500 Hz.
    @Test func dampingShortensTheTrebleDecay() throws {
        let rate = 48000.0
        let p = try EffectParameters.reverb(rt60: 2, roomSize: 0.5, preDelay: 0, damping: 1, wet: 1, dry: 0)
        let h = EffectHarness(.reverb, p, rate: rate, capacityChannels: 1)
        var x = [Signal.impulse(frames: 96000)]
        h.process(&x)
        // Energy in two bands over two windows, by the DFT at a few frequencies.
        func level(_ range: Range<Int>, _ f: Double) -> Double {
            dB(dftMagnitude(Array(x[0][range]), at: f, rate: rate))
        }
        func drop(_ frequencies: [Double]) -> Double {
            frequencies.map { level(9600..<19200, $0) - level(57600..<67200, $0) }.reduce(0, +)
                / Double(frequencies.count)
        }
        let lowDrop = drop([200, 260, 330, 410]), highDrop = drop([9000, 10500, 12000, 14000])
        // 1 s apart: 30 dB at rt60 2 s for the lows; the highs decay several times faster.
        #expect(abs(lowDrop - 30) < 6, "low drop \(lowDrop) dB")
        #expect(highDrop > lowDrop + 15, "high drop \(highDrop) dB, low \(lowDrop) dB")
    }

    /// The tail ends: output stays finite, decays to silence, and
    /// `isRinging` goes false (and stays silent after).
    @Test func tailDecaysAndStops() throws {
        let p = try EffectParameters.reverb(rt60: 1, roomSize: 0.8, preDelay: 50, damping: 0.3, wet: 1, dry: 1)
        let h = EffectHarness(.reverb, p, capacityChannels: 2)
        var x = [Signal.noise(frames: 24000, amplitude: 1, seed: 1), Signal.noise(frames: 24000, amplitude: 1, seed: 2)]
        h.process(&x)
        #expect(h.effect.isRinging)
        var quanta = 0
        while h.effect.isRinging && quanta < 2000 {
            var silence = [[Float](repeating: 0, count: 512), [Float](repeating: 0, count: 512)]
            h.process(&silence)
            #expect(silence.allSatisfy { $0.allSatisfy(\.isFinite) })
            quanta += 1
        }
        #expect(!h.effect.isRinging)
        // −120 dB at rt60 1 s: about 2 s plus the window.
        #expect(quanta > 150 && quanta < 300, "\(quanta) quanta")
        var after = [[Float](repeating: 0, count: 48000), [Float](repeating: 0, count: 48000)]
        h.process(&after)
        #expect(peak(after[0], 0..<48000) < 1e-6 && peak(after[1], 0..<48000) < 1e-6)
    }

    /// The LFE gets no reverb and feeds none: on 5.1 and 7.1, an impulse on
    /// every channel leaves the LFE exactly dry, and an impulse on the LFE
    /// alone gives no reverb anywhere.
    @Test(arguments: [6, 7, 8])
    func lfeStaysDry(channels: Int) throws {
        let p = try EffectParameters.reverb(rt60: 1, roomSize: 0.5, preDelay: 0, damping: 0.5, wet: 1, dry: 0.5)
        let h = EffectHarness(.reverb, p, capacityChannels: 8)
        var x = (0..<channels).map { _ in Signal.impulse(frames: 24000) }
        h.process(&x)
        #expect(x[3][0] == 0.5 && peak(x[3], 1..<24000) == 0)
        for c in 0..<channels where c != 3 { #expect(peak(x[c], 1..<24000) > 0.01, "channel \(c) has no reverb") }
        let lfeOnly = EffectHarness(.reverb, p, capacityChannels: 8)
        var y = (0..<channels).map { c in c == 3 ? Signal.impulse(frames: 24000) : [Float](repeating: 0, count: 24000) }
        lfeOnly.process(&y)
        for c in 0..<channels where c != 3 { #expect(peak(y[c], 0..<24000) == 0) }
        #expect(!lfeOnly.effect.isRinging)
    }

    /// Every non-LFE output is decorrelated from every other: the normalised
    /// correlation of the tails (after 50 ms) is below 0.2 in magnitude, on
    /// stereo and 7.1, from a mono-summed and a stereo input.
    @Test(arguments: [(2, Float(1)), (8, Float(0)), (8, Float(1))])
    func outputsAreDecorrelated(channels: Int, stereoInput: Float) throws {
        let p = try EffectParameters.reverb(
            rt60: 1.5, roomSize: 0.6, preDelay: 0, damping: 0.4, wet: 1, dry: 0, stereoInput: stereoInput)
        let h = EffectHarness(.reverb, p, capacityChannels: 8)
        var x = (0..<channels).map { c in c == 0 ? Signal.impulse(frames: 48000) : [Float](repeating: 0, count: 48000) }
        h.process(&x)
        let outputs = (0..<channels).filter { $0 != ChannelLayout.lfeIndex(channels: channels) }
        var worst = 0.0
        for a in outputs {
            for b in outputs where b > a {
                var ab = 0.0, aa = 0.0, bb = 0.0
                for i in 2400..<48000 {
                    ab += Double(x[a][i]) * Double(x[b][i])
                    aa += Double(x[a][i]) * Double(x[a][i])
                    bb += Double(x[b][i]) * Double(x[b][i])
                }
                worst = max(worst, abs(ab / sqrt(aa * bb)))
            }
        }
        print("reverb \(channels) channels, stereo input \(stereoInput): largest correlation \(worst)")
        #expect(worst < 0.2)
    }
}
