// The delay: one line per channel, all at the same time, with feedback
// through an optional one-pole low-pass:
//
//   s  = line read `time` ago (two read heads crossfading while the time changes)
//   lp = lp + (1 − p)·(s − lp)          (p: damping, 0 = off)
//   line ← x + feedback·lp
//   y  = dry·x + wet·s
//
// A change of time does not move a read head (which would pitch the
// repeats): a second head starts at the new time and the output crossfades
// to it over 20 ms (smoothstep weights, which sum to 1, so the loop gain
// never exceeds the feedback); then it becomes the only head. A change that
// arrives during a crossfade waits for it to end, then crossfades again.

/// Two read heads of a delay line and the crossfade between them (render-safe data).
struct Crossfade: BitwiseCopyable {
    /// Delay of the settled head, frames.
    var current: Int
    /// Delay of the incoming head, frames (= `current` when settled).
    var next: Int
    /// Frames of the crossfade done.
    var position: Int
    /// Frames the crossfade takes (0 when settled).
    var length: Int

    /// Settled on `delay` frames. Render-safe.
    @_noLocks
    init(settledAt delay: Int) {
        current = delay
        next = delay
        position = 0
        length = 0
    }

    /// Whether a crossfade is under way. Render-safe.
    var isFading: Bool { @_noLocks @inline(__always) get { length > 0 } }

    /// The incoming head's weight at the next frame (smoothstep of the
    /// progress), then one frame on; when the fade completes the incoming
    /// head becomes the settled one. Render-safe.
    @_noLocks @inline(__always)
    mutating func step() -> Float {
        position += 1
        let t = Float(position) / Float(length)
        if position >= length {
            current = next
            length = 0
            position = 0
            return 1
        }
        return t * t * (3 - 2 * t)
    }

    /// Starts a crossfade to `delay` over `frames` frames if settled on another delay. Render-safe.
    @_noLocks @inline(__always)
    mutating func follow(_ delay: Int, frames: Int) {
        if length == 0 && delay != current {
            next = delay
            position = 0
            length = max(1, frames)
        }
    }
}

/// The delay's header in the state memory.
struct DelayState: BitwiseCopyable {
    /// The read heads.
    var fade: Crossfade
    /// Feedback low-pass state per channel.
    var lowPass: InlineArray<8, Float>
}

extension RenderEffect {
    /// The pole at this rate of a one-pole low-pass whose pole is `pole48k`
    /// at 48 kHz (the same time constant): pole48k^(48000/rate). Runs on the render thread.
    @_noLocks @inline(__always)
    func poleAtRate(_ pole48k: Float) -> Float {
        pole48k <= 0 ? 0 : fastExp2(fastLog2(pole48k) * Float(48000 / sampleRate))
    }

    /// Runs the delay over `frames` frames whose parameters move from
    /// `from` to `to` (gains, feedback and damping per frame, the time per
    /// crossfade). Runs on the render thread.
    @_noLocks
    mutating func delayBlock(
        from: EffectParameters, to: EffectParameters, _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int
    ) {
        let header = memory.assumingMemoryBound(to: DelayState.self)
        let lines = (memory + layout.offsets[1]).assumingMemoryBound(to: Float.self)
        let ring = layout.ring, mask = ring - 1
        let delay = max(1, min(Int(Double(to.delayTime) * 0.001 * sampleRate + 0.5), ring - 2))
        let fadeFrames = Int(sampleRate * 0.02)
        if fresh { header.pointee.fade = Crossfade(settledAt: delay) }
        let inv = 1 / Float(n)
        let feedbackFrom = from.delayFeedback, feedbackStep = (to.delayFeedback - feedbackFrom) * inv
        let wetFrom = from.delayWet, wetStep = (to.delayWet - wetFrom) * inv
        let dryFrom = from.delayDry, dryStep = (to.delayDry - dryFrom) * inv
        let poleFrom = poleAtRate(from.delayDamping), poleStep = (poleAtRate(to.delayDamping) - poleFrom) * inv
        let start = header.pointee.fade
        // Settled: one head on the time asked for, every parameter still,
        // and reads that reach no frame this block writes.
        if settledDelayPath && !start.isFading && start.current == delay && delay >= n && delay + n <= ring
            && feedbackStep == 0 && wetStep == 0 && dryStep == 0 && poleStep == 0
        {
            // Each as the loop forms it (from + step · l, the step 0): the same bits, −0 made +0 included.
            delaySettledBlock(
                header, lines, base, stride: stride, frames: n, delay: delay, feedback: feedbackFrom + feedbackStep,
                wet: wetFrom + wetStep, dry: dryFrom + dryStep, pole: poleFrom + poleStep)
            return
        }
        var fade = start
        var loudAt = -1
        for c in 0..<activeChannels {
            let x = base + c * stride
            let line = lines + c * ring
            var lp = header.pointee.lowPass[c]
            fade = start
            for j in 0..<n {
                let write = (frame + j) & mask
                fade.follow(delay, frames: fadeFrames)
                var s = line[(write - fade.current) & mask]
                if fade.isFading {
                    let other = line[(write - fade.next) & mask]
                    s += (other - s) * fade.step()
                }
                let l = Float(j + 1)
                let p = poleFrom + poleStep * l
                lp = s + p * (lp - s)
                let input = x[j]
                let written = flushTiny(input + (feedbackFrom + feedbackStep * l) * lp)
                line[write] = written
                x[j] = (dryFrom + dryStep * l) * input + (wetFrom + wetStep * l) * s
                let level = max(abs(input), abs(written))
                if level >= RenderEffect.silence { loudAt = max(loudAt, j) }
            }
            header.pointee.lowPass[c] = flushTiny(lp)
        }
        header.pointee.fade = fade
        if loudAt >= 0 { lastLoud = frame + loudAt }
    }

    /// ``delayBlock``'s loop for settled parameters on one head: without
    /// the crossfade's bookkeeping and the parameters' per-frame steps (all
    /// zero, so every product and sum is the loop's to the bit), and two
    /// channels at a time, so their feedback low-passes, each a serial
    /// recursion, overlap. Runs on the render thread.
    @_noLocks
    mutating func delaySettledBlock(
        _ header: UnsafeMutablePointer<DelayState>, _ lines: UnsafeMutablePointer<Float>,
        _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int, delay: Int, feedback: Float, wet: Float,
        dry: Float, pole p: Float
    ) {
        let ring = layout.ring, mask = ring - 1
        let silence = RenderEffect.silence
        var loudAt = -1
        var c = 0
        while c < activeChannels {
            let x0 = base + c * stride, line0 = lines + c * ring
            var lp0 = header.pointee.lowPass[c]
            if c + 1 < activeChannels {
                let x1 = x0 + stride, line1 = line0 + ring
                var lp1 = header.pointee.lowPass[c + 1]
                for j in 0..<n {
                    let write = (frame + j) & mask, read = (frame + j - delay) & mask
                    let s0 = line0[read], s1 = line1[read]
                    lp0 = s0 + p * (lp0 - s0)
                    lp1 = s1 + p * (lp1 - s1)
                    let input0 = x0[j], input1 = x1[j]
                    let written0 = flushTiny(input0 + feedback * lp0), written1 = flushTiny(input1 + feedback * lp1)
                    line0[write] = written0
                    line1[write] = written1
                    x0[j] = dry * input0 + wet * s0
                    x1[j] = dry * input1 + wet * s1
                    let level = max(max(abs(input0), abs(written0)), max(abs(input1), abs(written1)))
                    if level >= silence { loudAt = max(loudAt, j) }
                }
                header.pointee.lowPass[c + 1] = flushTiny(lp1)
            } else {
                for j in 0..<n {
                    let write = (frame + j) & mask
                    let s = line0[(frame + j - delay) & mask]
                    lp0 = s + p * (lp0 - s)
                    let input = x0[j]
                    let written = flushTiny(input + feedback * lp0)
                    line0[write] = written
                    x0[j] = dry * input + wet * s
                    if max(abs(input), abs(written)) >= silence { loudAt = max(loudAt, j) }
                }
            }
            header.pointee.lowPass[c] = flushTiny(lp0)
            c += 2
        }
        if loudAt >= 0 { lastLoud = frame + loudAt }
    }
}
