import Foundation
import SoundEffects
import Testing

/// Every render-side call, from a `@_noLocks` function in another module:
/// this file compiles only if the performance checker accepts each callee
/// (no locks, allocation, reference counting, metadata, existentials or
/// unknown calls — the proof that the render path is real-time safe).
@_noLocks
func renderQuantum(
    _ effect: inout RenderEffect, _ base: UnsafeMutablePointer<Float>, stride: Int, channels: Int, frames: Int,
    sidechain: UnsafePointer<Float>?, target: EffectParameters, rampFrames: Int
) -> Bool {
    effect.setTarget(target, rampFrames: rampFrames)
    effect.process(base, stride: stride, channels: channels, frames: frames, sidechain: sidechain, sidechainStride: stride)
    return effect.isRinging && effect.latencyFrames >= 0 && effect.limiterGuardClamps == 0
}

/// The other render-side calls, likewise checked.
@_noLocks
func renderDeviceChange(_ effect: inout RenderEffect, rate: Double, reset: Bool) {
    if reset { effect.reset() }
    effect.setSampleRate(rate)
    _ = fastDecibelsToGain(fastGainToDecibels(0.5)) + fastTan(0.3) + fastSinPi(0.2)
}

@Suite struct RenderSafetyTests {
    /// 1000 calls per effect with random frame counts (1…4096), channel
    /// counts changing at random (1…8), random parameters and ramps (some
    /// NaN, infinite or out of range), sample-rate changes, resets, a
    /// sidechain present or not, and input from silence to +20 dBFS noise
    /// with DC and full-scale squares: every output sample stays finite,
    /// and the limiter's guard never acts.
    @Test(arguments: EffectKind.allCases)
    func randomUseStaysFinite(kind: EffectKind) {
        var rng = SplitMix(seed: UInt64(kind.rawValue) &+ 17)
        let stride = 4096
        let h = EffectHarness(kind, .defaults(for: kind), rate: 48000, capacityChannels: 8, stride: stride)
        var channels = 2
        var target = EffectParameters.defaults(for: kind)
        var nonFinite = 0
        for call in 0..<1000 {
            let frames = 1 + Int(rng.next() % UInt64(stride))
            if rng.unit() < 0.05 { channels = 1 + Int(rng.next() % 8) }
            if rng.unit() < 0.3 {
                for info in kind.parameters where rng.unit() < 0.5 {
                    let u = rng.unit()
                    target[info.index] =
                        u < 0.02 ? .nan
                        : u < 0.04 ? (rng.unit() < 0.5 ? .infinity : -.infinity)
                        : u < 0.06 ? info.maximum * 10 + 1
                        : info.minimum + rng.unit() * (info.maximum - info.minimum)
                }
            }
            if rng.unit() < 0.01 {
                let rates = [22050.0, 44100, 48000, 96000, .nan, 0]
                renderDeviceChange(&h.effect, rate: rates[Int(rng.next() % 6)], reset: rng.unit() < 0.5)
            }
            let style = rng.next() % 5
            for c in 0..<channels {
                let plane = h.buffer + c * stride
                for i in 0..<frames {
                    switch style {
                    case 0: plane[i] = 0
                    case 1: plane[i] = 10 * (2 * rng.unit() - 1)
                    case 2: plane[i] = (i / 37) % 2 == 0 ? 1 : -1
                    case 3: plane[i] = 0.5
                    default: plane[i] = 0.3 * (2 * rng.unit() - 1)
                    }
                    h.side[c * stride + i] = 3 * (2 * rng.unit() - 1)
                }
            }
            let sidechain: UnsafePointer<Float>? = rng.unit() < 0.5 ? UnsafePointer(h.side) : nil
            _ = renderQuantum(
                &h.effect, h.buffer, stride: stride, channels: channels, frames: frames, sidechain: sidechain,
                target: target, rampFrames: Int(rng.next() % 4096))
            for c in 0..<channels {
                for i in 0..<frames where !h.buffer[c * stride + i].isFinite { nonFinite += 1 }
            }
            #expect(nonFinite == 0, "\(kind.name): non-finite output at call \(call)")
            if nonFinite > 0 { break }
        }
        #expect(h.effect.limiterGuardClamps == 0)
        for i in 0..<kind.parameterCount { #expect(h.effect.target[i].isFinite) }
    }

    /// Channels beyond the memory's capacity are left untouched; a change of
    /// channel count clears the state (no stale tail on the new layout).
    @Test func channelChanges() throws {
        let h = EffectHarness(.delay, try .delay(time: 10, feedback: 0.5, wet: 1, dry: 0), capacityChannels: 2)
        var x = [Signal.impulse(frames: 256), Signal.impulse(frames: 256)]
        h.process(&x)
        #expect(h.effect.isRinging)
        var three = [[Float](repeating: 0, count: 2048), [Float](repeating: 0, count: 2048), [Float](repeating: 0.25, count: 2048)]
        h.process(&three)
        #expect(peak(three[0], 0..<2048) == 0, "the tail was cleared")
        #expect(three[2].allSatisfy { $0 == 0.25 }, "the channel beyond capacity is untouched")
        #expect(h.effect.channels == 3)
    }
}
