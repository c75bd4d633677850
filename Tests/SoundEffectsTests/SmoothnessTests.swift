import Foundation
import SoundEffects
import Testing

/// RTPC-like sweeps of every parameter of every effect on a 440 Hz sine:
/// the target steps every 512 frames (a game frame) over the parameter's
/// whole range and back, and the output must never step further from one
/// sample to the next than the signal itself can.
///
/// The measure is the click index (``clickIndex(_:from:frequency:rate:radius:floor:)``):
/// the largest sample-to-sample step divided by the local amplitude (the
/// largest |y| within ±128 frames) × 2π·440/48000. Any slowly modulated
/// 440 Hz sine stays ≤ 1; a click, a zipper step or a jump of a read head
/// goes far above.
///
/// Tolerances (stated, not tuned to pass): parametric EQ, compressor and
/// limiter ≤ 1.05 — 5 % for the amplitude and phase modulation a sweep
/// itself adds (and the limiter's read head, which slides at most 3 %
/// while the look-ahead moves). Delay and reverb, whose output carries the
/// broadband tail of the sine's onset and whose level at 440 Hz depends on
/// the delay times, are compared with the unmodulated effect on the same
/// input: the same effect held still at the parameter's minimum, default
/// and maximum; the modulated click index must stay within 10 % of the
/// largest of those (and the largest step within 10 % of the largest of
/// theirs, measured relative to the output's level).
@Suite struct SmoothnessTests {
    static let rate = 48000.0
    static let settle = 24000
    static let hold = 512

    /// The parameters a sweep of `kind`'s parameter `index` holds the others at,
    /// chosen so the swept one is audible (an EQ band gets +12 dB; delay and
    /// reverb are all wet).
    static func base(_ kind: EffectKind, sweeping index: Int) -> EffectParameters {
        var p = EffectParameters.defaults(for: kind)
        if kind == .parametricEQ && index > 0 {
            let band = (index - 1) / 4
            p[EffectParameters.EQ.gain(band: band)] = 12
            p[EffectParameters.EQ.q(band: band)] = 1
            if (index - 1) % 4 != 1 { p[EffectParameters.EQ.frequency(band: band)] = 700 }
        }
        // Delay and reverb all wet, so their own output is what is measured.
        if kind == .delay {
            p.delayWet = 1
            p.delayDry = 0
        }
        if kind == .reverb {
            p.reverbWet = 1
            p.reverbDry = 0
        }
        return p
    }

    /// Input amplitude per kind (the limiter is driven 6 dB over full scale, 7 dB into its default ceiling).
    static func amplitude(_ kind: EffectKind) -> Double {
        switch kind {
        case .parametricEQ: 0.25
        case .compressor, .delay, .reverb: 0.5
        case .limiter: 2
        }
    }

    /// The targets of a sweep over `info`'s range and back: 32 steps up and
    /// 32 down (geometric for wide positive ranges), or every whole value up
    /// and down for a discrete one (twice).
    static func targets(_ info: EffectParameterInfo) -> [Float] {
        if info.isDiscrete {
            let up = (Int(info.minimum)...Int(info.maximum)).map(Float.init)
            let once = up + up.reversed().dropFirst()
            return once + once.dropFirst()
        }
        let steps = 32
        let up: [Float] = (0...steps).map { k in
            let t = Double(k) / Double(steps)
            if info.minimum > 0 && info.maximum / info.minimum >= 20 {
                return Float(Double(info.minimum) * pow(Double(info.maximum / info.minimum), t))
            }
            return info.minimum + Float(t) * (info.maximum - info.minimum)
        }
        return up + up.reversed().dropFirst()
    }

    /// The output of `kind` with `parameters` on the stereo sine, with
    /// `control` changing targets per 512-frame quantum.
    static func render(
        _ kind: EffectKind, _ parameters: EffectParameters, frames: Int,
        control: ((Int, inout RenderEffect) -> Void)? = nil
    ) -> [[Float]] {
        let a = amplitude(kind)
        let h = EffectHarness(kind, parameters, rate: rate, capacityChannels: 2)
        // Faded in over 100 ms (raised cosine) so the input itself has no click.
        var x = [Signal.sine(440, amplitude: a, frames: frames), Signal.sine(440, amplitude: a, frames: frames, phase: 1)]
        for c in 0..<2 {
            for i in 0..<4800 { x[c][i] *= Float(0.5 - 0.5 * cos(Double.pi * Double(i) / 4800)) }
        }
        h.process(&x, quantum: hold, control: control)
        #expect(x.allSatisfy { $0.allSatisfy(\.isFinite) })
        return x
    }

    /// The click index of both channels (the larger) and the largest step.
    static func measure(_ y: [[Float]]) -> (index: Double, at: Int, step: Float) {
        var worst = (index: 0.0, at: -1, step: Float(0))
        for c in y {
            let (i, at) = clickIndex(c, from: settle)
            if i > worst.index { worst = (i, at, worst.step) }
            for n in (settle + 1)..<c.count { worst.step = max(worst.step, abs(c[n] - c[n - 1])) }
        }
        return worst
    }

    @Test(arguments: [EffectKind.parametricEQ, .compressor, .limiter, .delay, .reverb], [512, 0])
    func everyParameterSweepsWithoutClicks(kind: EffectKind, rampFrames: Int) {
        var report: [String] = []
        for info in kind.parameters {
            let base = Self.base(kind, sweeping: info.index)
            let targets = Self.targets(info)
            let frames = Self.settle + targets.count * Self.hold + 8192
            let swept = Self.render(kind, base, frames: frames) { at, effect in
                guard at >= Self.settle else { return }
                var p = effect.target
                p[info.index] = targets[min((at - Self.settle) / Self.hold, targets.count - 1)]
                effect.setTarget(p, rampFrames: rampFrames)
            }
            let modulated = Self.measure(swept)
            if kind == .delay || kind == .reverb {
                var still = (index: 0.0, step: Float(0), relativeStep: 0.0)
                for value in [info.minimum, base[info.index], info.maximum] {
                    var p = base
                    p[info.index] = value
                    let y = Self.render(kind, p, frames: frames)
                    let m = Self.measure(y)
                    let level = max(peak(y[0], Self.settle..<frames), peak(y[1], Self.settle..<frames))
                    still.index = max(still.index, m.index)
                    still.relativeStep = max(still.relativeStep, Double(m.step / level))
                }
                let level = max(peak(swept[0], Self.settle..<frames), peak(swept[1], Self.settle..<frames))
                let relativeStep = Double(modulated.step / level)
                report.append(
                    "\(info.name): click index \(fmt(modulated.index)) (still \(fmt(still.index))), "
                        + "step/level \(fmt(relativeStep)) (still \(fmt(still.relativeStep)))")
                #expect(
                    modulated.index <= 1.10 * max(still.index, 1),
                    "\(kind.name).\(info.name) ramp \(rampFrames): click index \(modulated.index) at frame \(modulated.at), unmodulated \(still.index)")
                #expect(
                    relativeStep <= 1.10 * still.relativeStep,
                    "\(kind.name).\(info.name) ramp \(rampFrames): step/level \(relativeStep), unmodulated \(still.relativeStep)")
            } else {
                report.append("\(info.name): click index \(fmt(modulated.index))")
                #expect(
                    modulated.index <= 1.05,
                    "\(kind.name).\(info.name) ramp \(rampFrames): click index \(modulated.index) at frame \(modulated.at)")
            }
        }
        print("smoothness \(kind.name), ramp \(rampFrames): " + report.joined(separator: "; "))
    }
}

/// Three decimals.
func fmt(_ x: Double) -> String { String(format: "%.3f", x) }
