import Foundation
import Testing

@testable import SoundEffects

/// The effects must not rely on the mixer's flush-to-zero mode: these tests
/// run without it, and after a long silence no state of any effect may hold
/// a subnormal float (feedback loops decaying into subnormals are what
/// makes an unflushed reverb or delay burn CPU on a silent bus). Checked
/// every 0.1 s through 10 s of silence after loud noise.
@Suite struct DenormalTests {
    /// Every Float of the effect's recirculating state: filter states,
    /// delay lines, detector state, the reverb's absorption filters.
    func floats(_ e: RenderEffect) -> [Float] {
        var values: [Float] = []
        func region(_ i: Int, count: Int) {
            let p = (e.memory + e.layout.offsets[i]).assumingMemoryBound(to: Float.self)
            values += UnsafeBufferPointer(start: p, count: count)
        }
        switch e.kind {
        case .parametricEQ: region(1, count: e.capacityChannels * 12)
        case .compressor:
            let h = e.memory.assumingMemoryBound(to: CompressorState.self).pointee
            values += [h.releaseStage, h.attackStage] + (0..<8).map { h.meanSquares[$0] }
        case .limiter:
            for i in 0...4 { region(1 + i, count: e.layout.ring * (i == 0 ? e.capacityChannels : 1)) }
            values.append(e.memory.assumingMemoryBound(to: LimiterState.self).pointee.envelope)
        case .delay:
            region(1, count: e.capacityChannels * e.layout.ring)
            let h = e.memory.assumingMemoryBound(to: DelayState.self).pointee
            values += (0..<8).map { h.lowPass[$0] }
        case .reverb:
            region(1, count: 16 * e.layout.ring)
            region(2, count: 2 * e.layout.preRing)
            region(3, count: 8 * e.layout.diffuserRing)
            let h = e.memory.assumingMemoryBound(to: ReverbState.self).pointee
            values += (0..<16).flatMap { [h.feed[$0], h.pole[$0], h.lowPass[$0]] }
        }
        return values
    }

    @Test(arguments: EffectKind.allCases)
    func noSubnormalsAfterSilence(kind: EffectKind) throws {
        let p: EffectParameters =
            switch kind {
            case .parametricEQ:
                try .parametricEQ(bands: [
                    EQBand(.peak, frequency: 60, gain: 24, q: 20), EQBand(.highPass, frequency: 15000, q: 0.5),
                    EQBand(.lowPass, frequency: 30, q: 10),
                ])
            case .compressor: try .compressor(attack: 0.1, release: 1, detector: .rms)
            case .limiter: try .limiter(ceiling: -20, release: 1, lookahead: 0.5)
            case .delay: try .delay(time: 5, feedback: 0.9, wet: 1, dry: 0, damping: 0.9)
            case .reverb: try .reverb(rt60: 0.2, roomSize: 0, preDelay: 0, damping: 1, wet: 1, dry: 0)
            }
        let h = EffectHarness(kind, p, capacityChannels: 2)
        var x = [Signal.noise(frames: 24000, amplitude: 1, seed: 4), Signal.noise(frames: 24000, amplitude: 1, seed: 5)]
        h.process(&x)
        // Ten seconds of silence, the state checked every 0.1 s (a decaying
        // loop passes through the subnormal range in well under a second).
        var worst = 0
        for _ in 0..<100 {
            var silence = [[Float](repeating: 0, count: 4800), [Float](repeating: 0, count: 4800)]
            h.process(&silence, quantum: 480)
            worst = max(worst, floats(h.effect).filter(\.isSubnormal).count)
        }
        #expect(worst == 0, "\(kind.name): \(worst) subnormal floats in the state")
        #expect(!h.effect.isRinging)
    }
}
