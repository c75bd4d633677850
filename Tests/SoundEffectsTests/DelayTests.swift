import Foundation
import SoundEffects
import Testing

@Suite struct DelayTests {
    /// An impulse comes back at the set time (±1 frame; the time rounds to
    /// the nearest frame) and again every time after, each repeat the
    /// feedback times the one before; nothing in between.
    @Test(arguments: [(1.0, 0.5), (250.0, 0.3), (2000.0, 0.95), (37.3, 0.0), (100.0, 0.9)])
    func impulseComesBackAtTheSetTime(time: Double, feedback: Double) throws {
        let rate = 48000.0
        let p = try EffectParameters.delay(time: Float(time), feedback: Float(feedback), wet: 1, dry: 0)
        let h = EffectHarness(.delay, p, rate: rate, capacityChannels: 2)
        let delay = time / 1000 * rate
        let repeats = 4
        let frames = Int(delay * Double(repeats)) + 1000
        var x = [Signal.impulse(frames: frames, at: 3), Signal.impulse(frames: frames, at: 3, amplitude: -0.5)]
        h.process(&x, quantum: 256)
        var previous = 3
        for k in 1...(feedback == 0 ? 1 : repeats) {
            let expectedAt = 3 + Int((delay * Double(k)).rounded())
            let window = max(previous + 1, expectedAt - 2)..<min(frames, expectedAt + 3)
            let found = window.max { abs(x[0][$0]) < abs(x[0][$1]) }!
            let expected = pow(feedback, Double(k - 1))
            #expect(abs(found - expectedAt) <= 1, "repeat \(k): at \(found), expected \(expectedAt)")
            #expect(abs(Double(x[0][found]) - expected) <= 1e-5 + 1e-6 * expected, "repeat \(k): \(x[0][found]) vs \(expected)")
            #expect(abs(Double(x[1][found]) + 0.5 * expected) <= 1e-5, "right channel")
            // Nothing between the repeats.
            for i in (previous + 2)..<(found - 1) { #expect(x[0][i] == 0); if x[0][i] != 0 { break } }
            previous = found
        }
        if feedback == 0 { #expect(peak(x[0], (previous + 1)..<frames) == 0) }
    }

    /// Dry and wet levels: an impulse with dry 0.7, wet 0.4 comes out at
    /// 0.7 at once and 0.4 after the delay.
    @Test func dryAndWetLevels() throws {
        let p = try EffectParameters.delay(time: 10, feedback: 0, wet: 0.4, dry: 0.7)
        let h = EffectHarness(.delay, p)
        var x = [Signal.impulse(frames: 2000)]
        h.process(&x)
        #expect(abs(x[0][0] - 0.7) < 1e-6 && abs(x[0][480] - 0.4) < 1e-6)
        #expect(peak(x[0], 1..<480) == 0 && peak(x[0], 481..<2000) == 0)
    }

    /// Damping low-passes the repeats: a 10 kHz tone loses much more per
    /// repeat than a 200 Hz one; with damping 0 both keep the feedback's level.
    @Test func dampingLowPassesTheFeedback() throws {
        func repeatLevel(_ frequency: Double, damping: Float) throws -> Double {
            let p = try EffectParameters.delay(time: 50, feedback: 0.8, wet: 1, dry: 0, damping: damping)
            let h = EffectHarness(.delay, p)
            let burst = Signal.sine(frequency, amplitude: 0.5, frames: 1200) + [Float](repeating: 0, count: 48000)
            var x = [burst]
            h.process(&x)
            // Third repeat (after two passes through the feedback filter) relative to the first.
            return dB(Double(peak(x[0], 7200 + 200..<7200 + 1000))) - dB(Double(peak(x[0], 2400 + 200..<2400 + 1000)))
        }
        #expect(abs(try repeatLevel(10000, damping: 0) - 2 * dB(0.8)) < 0.1)
        let low = try repeatLevel(200, damping: 0.9), high = try repeatLevel(10000, damping: 0.9)
        #expect(low > 2 * dB(0.8) - 1.5)
        #expect(high < low - 20, "10 kHz \(high) dB, 200 Hz \(low) dB per two repeats")
    }

    /// A settled delay runs its blocks through the lean loop
    /// (`delaySettledBlock`): the output must be the general loop's to the
    /// bit, through settled stretches, a time change (a crossfade, which
    /// takes the general loop), a feedback ramp and a damping change, with
    /// delays shorter and longer than the quantum, at quanta that do not
    /// divide the ring, for one, two and three channels; and it stops
    /// ringing at the same call.
    @Test(arguments: [(3.0, 0.9, 0.0, 512), (250.0, 0.5, 0.8, 97), (2000.0, 0.95, 0.5, 480), (20.0, 0.3, 0.95, 256)])
    func settledLoopIsTheGeneralLoopToTheBit(time: Double, feedback: Double, damping: Double, quantum: Int) throws {
        let p = try EffectParameters.delay(
            time: Float(time), feedback: Float(feedback), wet: 0.6, dry: 0.8, damping: Float(damping))
        let loud = Signal.noise(frames: 30000, amplitude: 0.9, seed: 11)
        let signal = loud + Signal.impulse(frames: 18000, at: 500) + [Float](repeating: 0, count: 60000)
        for channels in 1...3 {
            let input = Array([signal, signal.map { -0.5 * $0 }, Array(signal.reversed())].prefix(channels))
            var outputs: [[[Float]]] = []
            var ringing: [[Bool]] = []
            for lean in [true, false] {
                let h = EffectHarness(.delay, p)
                h.effect.settledDelayPath = lean
                var x = input
                var rings: [Bool] = []
                h.process(&x, quantum: quantum) { at, effect in
                    rings.append(effect.isRinging)
                    var q = effect.target
                    if at >= 9000 && at < 9000 + quantum {
                        q.delayTime = Float(time) * 1.5
                        effect.setTarget(q, rampFrames: 0)
                    } else if at >= 20000 && at < 20000 + quantum {
                        q.delayFeedback = Float(feedback) * 0.5
                        effect.setTarget(q, rampFrames: 4096)
                    } else if at >= 40000 && at < 40000 + quantum {
                        q.delayDamping = Float(damping) > 0.5 ? 0.2 : 0.7
                        effect.setTarget(q, rampFrames: 0)
                    }
                }
                rings.append(h.effect.isRinging)
                outputs.append(x)
                ringing.append(rings)
            }
            for c in 0..<channels {
                let same = zip(outputs[0][c], outputs[1][c]).allSatisfy { $0.bitPattern == $1.bitPattern }
                #expect(same, "\(time) ms, \(channels) channels: channel \(c) differs")
            }
            #expect(ringing[0] == ringing[1], "\(time) ms, \(channels) channels: ringing differs")
        }
    }

    /// The tail ends: after the input stops, the delay rings, then reports silence.
    @Test func ringingEnds() throws {
        let p = try EffectParameters.delay(time: 100, feedback: 0.5, wet: 1, dry: 1)
        let h = EffectHarness(.delay, p)
        var x = [Signal.noise(frames: 4800, amplitude: 1, seed: 5)]
        h.process(&x)
        #expect(h.effect.isRinging)
        var quanta = 0
        while h.effect.isRinging && quanta < 10000 {
            var silence = [[Float](repeating: 0, count: 512)]
            h.process(&silence)
            quanta += 1
        }
        #expect(!h.effect.isRinging)
        // Once it says so, what is left is below −120 dBFS.
        var after = [[Float](repeating: 0, count: 48000)]
        h.process(&after)
        #expect(peak(after[0], 0..<48000) < 1e-6)
        // 0.5 per 100 ms: about 2 s to fall 120 dB.
        #expect(quanta > 150 && quanta < 300, "\(quanta) quanta")
    }
}

@Suite struct CapacityTests {
    /// Rendering above the capacity rate clamps delay times to what the
    /// memory holds: a delay sized at 48 kHz (131 072-frame lines) asked for
    /// 2 s at 96 kHz repeats after 131 070 frames (1.365 s).
    @Test func delayTimeIsClampedAboveTheCapacityRate() throws {
        let h = EffectHarness(.delay, try .delay(time: 2000, feedback: 0, wet: 1, dry: 0), rate: 48000, capacityChannels: 1)
        h.effect.setSampleRate(96000)
        #expect(h.effect.sampleRate == 96000 && h.effect.capacityRate == 48000)
        var x = [Signal.impulse(frames: 140000)]
        h.process(&x, quantum: 4096)
        #expect(x[0][131_070] == 1)
        #expect(peak(x[0], 0..<131_070) == 0 && peak(x[0], 131_071..<140000) == 0)
    }

    /// The reverb too: at twice its capacity rate its lines keep their
    /// lengths in frames at most, so the tail stays finite and decays at the
    /// set RT60 (the gains follow the actual lengths).
    @Test func reverbAboveTheCapacityRate() throws {
        let h = EffectHarness(.reverb, try .reverb(rt60: 1, roomSize: 1, damping: 0, wet: 1, dry: 0), rate: 48000, capacityChannels: 2)
        h.effect.setSampleRate(96000)
        var x = [Signal.impulse(frames: 96000 * 2), [Float](repeating: 0, count: 96000 * 2)]
        h.process(&x)
        let measured = schroederRT60(x, rate: 96000)
        #expect(abs(measured - 1) < 0.1, "RT60 \(measured) s at 96 kHz in 48 kHz memory")
    }
}
