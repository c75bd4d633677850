import Foundation
import SoundEffects
import Testing

@Suite struct LimiterTests {
    /// Test signals, each well over the ceiling: a sine 20 dB over, random
    /// transients up to +30 dB on quiet noise, full-scale and 4× square
    /// bursts, loud noise, and an instant jump from silence to +20 dB.
    static func loudSignals(ceiling: Double, frames: Int) -> [(String, [Float], [Float])] {
        let c = pow(10, ceiling / 20)
        var rng = SplitMix(seed: 42)
        let sine = Signal.sine(440, amplitude: c * 10, frames: frames)
        var clicks = Signal.noise(frames: frames, amplitude: Float(c * 0.1), seed: 1)
        for _ in 0..<300 {
            let at = Int(rng.next() % UInt64(frames - 3))
            let height = Float(c) * (1 + 30 * rng.unit()) * (rng.unit() < 0.5 ? -1 : 1)
            clicks[at] = height
            clicks[at + 1] = -height * rng.unit()
        }
        var squares = [Float](repeating: 0, count: frames)
        var at = 0
        while at < frames {
            let length = 480 + Int(rng.next() % 2400), gap = Int(rng.next() % 1200)
            let level: Float = rng.unit() < 0.5 ? 1 : 4
            let period = 20 + Int(rng.next() % 200)
            for i in at..<min(frames, at + length) { squares[i] = (i / period) % 2 == 0 ? level : -level }
            at += length + gap
        }
        let noise = Signal.noise(frames: frames, amplitude: Float(c * 4), seed: 9)
        let jump = (0..<frames).map { i in i < frames / 2 ? Float(0) : sine[i] }
        let other = Signal.sine(1234, amplitude: c * 3, frames: frames)
        return [
            ("sine +20 dB", sine, other), ("transients", clicks, noise), ("square bursts", squares, squares.reversed()),
            ("noise +12 dB", noise, clicks), ("silence to +20 dB", jump, jump),
        ]
    }

    /// Static ceilings and several look-aheads and releases: no output
    /// sample above the ceiling (allowing 1e-6 of float rounding), the
    /// guard clamp never needed, and the limiting actually happens (a sine
    /// 20 dB over comes out within 0.5 dB of the ceiling).
    @Test(arguments: [(-1.0, 5.0, 100.0), (-6.0, 0.5, 1.0), (0.0, 10.0, 2000.0), (-30.0, 2.0, 20.0)])
    func neverAboveTheCeiling(ceiling: Double, lookahead: Double, release: Double) throws {
        let p = try EffectParameters.limiter(
            ceiling: Float(ceiling), release: Float(release), lookahead: Float(lookahead))
        let limit = Float(pow(10, ceiling / 20)) * 1.000_001
        for (name, left, right) in Self.loudSignals(ceiling: ceiling, frames: 96000) {
            let h = EffectHarness(.limiter, p)
            var x = [left, right]
            h.process(&x, quantum: 480)
            let top = max(peak(x[0], 0..<x[0].count), peak(x[1], 0..<x[1].count))
            #expect(top <= limit, "\(name): peak \(top) over the ceiling \(limit)")
            #expect(h.effect.limiterGuardClamps == 0, "\(name): the guard clamp acted")
            if name == "sine +20 dB" {
                #expect(dB(Double(peak(x[0], 48000..<96000))) >= ceiling - 0.5)
            }
        }
    }

    /// Parameters moving while the signal is loud: the ceiling swept over
    /// its whole range and back (and jumped at random), the look-ahead and
    /// the release swept, each target stepped every 512 frames with ramps of
    /// 0 and 512 frames. Each sample stays under the ceiling in force when
    /// it entered (the largest target of the ramps that could apply: those
    /// set within the latency plus a ramp before it left), and the guard
    /// clamp is never needed.
    @Test(arguments: [0, 512])
    func neverAboveTheCeilingWhileParametersMove(rampFrames: Int) throws {
        let frames = 48000 * 4
        let steps = frames / 512
        var rng = SplitMix(seed: 3)
        // Per 512-frame step: a ceiling (dB), a look-ahead, a release.
        let ceilings: [Float] = (0..<steps).map { i in
            let phase = Float(i % 64) / 32
            let sweep = -30 * (phase <= 1 ? phase : 2 - phase)
            return i < steps / 2 ? sweep : -30 * rng.unit()
        }
        let lookaheads: [Float] = (0..<steps).map { i in 0.5 + 9.5 * abs(sinf(Float(i) * 0.07)) }
        let releases: [Float] = (0..<steps).map { i in 1 + 1999 * pow(rng.unit(), 3) * Float(i % 2) }
        for (name, left, right) in Self.loudSignals(ceiling: 0, frames: frames) {
            let h = EffectHarness(.limiter, try .limiter(ceiling: 0, release: 50, lookahead: 5))
            var x = [left, right]
            h.process(&x) { at, effect in
                var p = effect.target
                p.limiterCeiling = ceilings[at / 512]
                p.limiterLookahead = lookaheads[at / 512]
                p.limiterRelease = releases[at / 512]
                effect.setTarget(p, rampFrames: rampFrames)
            }
            // A frame leaving at n entered at most 10 ms (480 frames) before; the
            // ceiling then was at most the largest target set within a ramp before that.
            let ramp = max(rampFrames, 480)
            var worst: Float = 0
            for n in 0..<frames {
                let earliest = max(0, n - 480 - ramp - 512) / 512, latest = n / 512
                var allowed: Float = -100
                for s in earliest...latest { allowed = max(allowed, ceilings[s]) }
                let limit = Float(pow(10, Double(allowed) / 20))
                worst = max(worst, max(abs(x[0][n]), abs(x[1][n])) / limit)
            }
            #expect(worst <= 1.000_001, "\(name): \(worst) × the ceiling in force")
            #expect(h.effect.limiterGuardClamps == 0, "\(name): the guard clamp acted")
        }
    }

    /// A settled limiter runs its blocks in passes (`limiterSettledBlock`):
    /// the output must be the frame-by-frame loop's to the bit, through
    /// settled stretches, a ceiling ramp, a look-ahead sliding to a new
    /// length and back to settled, at quanta that do not divide the ring,
    /// for one, two and three channels.
    @Test(arguments: [(5.0, 100.0, 480), (0.5, 1.0, 97), (10.0, 2000.0, 512)])
    func settledPassesAreTheFrameLoopToTheBit(lookahead: Double, release: Double, quantum: Int) throws {
        let p = try EffectParameters.limiter(ceiling: -3, release: Float(release), lookahead: Float(lookahead))
        for (name, left, right) in Self.loudSignals(ceiling: -3, frames: 48000) {
            for channels in 1...3 {
                let input = Array([left, right, left.map { $0 * 0.5 }].prefix(channels))
                var outputs: [[[Float]]] = []
                var clamps: [Int] = []
                for passes in [true, false] {
                    let h = EffectHarness(.limiter, p)
                    h.effect.settledLimiterPath = passes
                    var x = input
                    h.process(&x, quantum: quantum) { at, effect in
                        var q = effect.target
                        if at >= 12000 && at < 12000 + quantum {
                            q.limiterCeiling = -9
                            effect.setTarget(q, rampFrames: 2048)
                        } else if at >= 24000 && at < 24000 + quantum {
                            q.limiterLookahead = Float(lookahead) > 2 ? 2 : 4
                            effect.setTarget(q, rampFrames: 0)
                        }
                    }
                    outputs.append(x)
                    clamps.append(h.effect.limiterGuardClamps)
                }
                for c in 0..<channels {
                    let same = zip(outputs[0][c], outputs[1][c]).allSatisfy { $0.bitPattern == $1.bitPattern }
                    #expect(same, "\(name), \(channels) channels: channel \(c) differs")
                }
                #expect(clamps == [0, 0], "\(name): the guard clamp acted")
            }
        }
    }

    /// The latency is the look-ahead: a quiet impulse comes out
    /// `latencyFrames` later, unchanged; then the limiter stops ringing.
    @Test func latencyIsTheLookahead() throws {
        let h = EffectHarness(.limiter, try .limiter(ceiling: -1, release: 100, lookahead: 5))
        #expect(h.effect.latencyFrames == 240)
        var x = [Signal.impulse(frames: 1024, at: 10, amplitude: 0.5), Signal.impulse(frames: 1024, at: 10, amplitude: 0.25)]
        h.process(&x, quantum: 128)
        #expect(x[0][250] == 0.5 && x[1][250] == 0.25)
        #expect(peak(x[0], 0..<250) == 0 && peak(x[0], 251..<1024) == 0)
        #expect(!h.effect.isRinging)
    }
}
