// The limiter: a look-ahead peak limiter whose output never exceeds the
// ceiling, by construction rather than by clipping.
//
// For every input frame n it computes the gain that frame needs,
// r[n] = min(1, c[n] / max over channels |x[n]|), c[n] being the ceiling
// (linear) at that frame. The signal is delayed by d frames (the
// look-ahead). The gain applied to the frame leaving the delay is
//
//   m[k]   = min r over the last W + 1 frames (a monotonic deque, O(1) amortised),
//   env[k] = min(m[k], αR·env[k−1] + (1 − αR)·m[k])  (instant attack, exponential release),
//   g[n]   = mean of env over the last B frames (a running sum),
//
// with W = ⌈d⌉ + 1 and B = ⌊d⌋ + 1. Every env in the box was computed
// from a window that contains the frame(s) being read, so g ≤ r of each
// of them, and |y| = |x|·g ≤ c. The box average turns the gain's fall into
// a ramp over the look-ahead (no click at the attack), the release is a
// one-pole (time constant `release`).
//
// Parameter changes: the ceiling moves per frame (linearly in amplitude
// between the 16-frame ticks of its dB ramp) and, like the signal, applies
// to frames as they enter: a frame leaves with the ceiling that was in
// force when it came in (the latency is that of the audio). The
// look-ahead moves the read head by at most 1/32 frame per frame (a 3 %
// pitch change while it moves: 10 → 0.5 ms takes 0.3 s at 48 kHz) (a
// linearly interpolated read; W grows by at most one frame per frame, which
// the deque follows exactly), so its change neither clicks nor breaks the
// guarantee. Two guards remain against float rounding: the gain is capped
// at r of the frames read, and the output clamped to their ceiling; each
// counts the frames it had to change by more than rounding
// (`RenderEffect.limiterGuardClamps`, which the tests require to stay 0).

/// The limiter's header in the state memory.
struct LimiterState: BitwiseCopyable {
    /// The read delay (look-ahead), frames, fractional while it moves.
    var delay: Float
    /// Deque of the sliding minimum: absolute position of its first entry.
    var head: Int
    /// Deque of the sliding minimum: absolute position one past its last entry.
    var tail: Int
    /// Frames in the running sum.
    var boxLength: Int
    /// Sum of the last `boxLength` envelope values.
    var boxSum: Double
    /// The envelope (instant attack, one-pole release) at the last frame.
    var envelope: Float
    /// The linear ceiling at the last frame.
    var ceiling: Float
    /// Frames whose smooth gain exceeded the bound of the frames read, or
    /// whose output the final clamp changed, by more than float rounding
    /// (10⁻⁶ relative): 0 unless the design is broken.
    var clamps: Int
}

extension RenderEffect {
    /// The read delay the look-ahead `milliseconds` asks for, in whole
    /// frames, clamped to what the rings hold. Runs on the render thread.
    @_noLocks @inline(__always)
    func limiterDelayFrames(_ milliseconds: Float) -> Int {
        let frames = Int(Double(milliseconds) * 0.001 * sampleRate + 0.5)
        return max(1, min(frames, layout.ring - 4))
    }

    /// The limiter's rings: `[0]` audio (one per channel, `channel * ring`
    /// apart), `[1]` r, `[2]` ceiling, `[3]` envelope, `[4]` deque values
    /// (Floats), and the deque positions (Ints).
    @_noLocks @inline(__always)
    func limiterRing(_ i: Int) -> UnsafeMutablePointer<Float> {
        (memory + layout.offsets[1 + i]).assumingMemoryBound(to: Float.self)
    }

    /// The deque's positions ring.
    @_noLocks @inline(__always)
    func limiterDequePositions() -> UnsafeMutablePointer<Int> {
        (memory + layout.offsets[6]).assumingMemoryBound(to: Int.self)
    }

    /// Sets up a cleared limiter: unity gains, the target's look-ahead and ceiling. Runs on the render thread.
    @_noLocks
    mutating func limiterClear() {
        let header = memory.assumingMemoryBound(to: LimiterState.self)
        let ring = layout.ring
        limiterRing(1).update(repeating: 1, count: ring)
        let ceiling = fastDecibelsToGain(target.limiterCeiling)
        limiterRing(2).update(repeating: ceiling, count: ring)
        limiterRing(3).update(repeating: 1, count: ring)
        header.pointee.delay = Float(limiterDelayFrames(target.limiterLookahead))
        header.pointee.envelope = 1
        header.pointee.ceiling = ceiling
        latencyFrames = Int(header.pointee.delay)
    }

    /// Runs the limiter over `frames` frames whose parameters move from
    /// `from` to `to`. Runs on the render thread.
    @_noLocks
    mutating func limiterBlock(
        from: EffectParameters, to: EffectParameters, _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int
    ) {
        let header = memory.assumingMemoryBound(to: LimiterState.self)
        let mask = layout.ring - 1
        let audio = limiterRing(0), gains = limiterRing(1), ceilings = limiterRing(2), envelopes = limiterRing(3)
        let dequeValues = limiterRing(4), dequePositions = limiterDequePositions()
        let ring = layout.ring
        let ceilingFrom = header.pointee.ceiling
        let ceilingTo = fastDecibelsToGain(to.limiterCeiling)
        let ceilingStep = (ceilingTo - ceilingFrom) / Float(n)
        let release = onePole(milliseconds: to.limiterRelease)
        let delayTarget = Float(limiterDelayFrames(to.limiterLookahead))
        // Passes pay from a few dozen frames; a moving limiter's 16-frame
        // blocks whose ceiling happens to hold stay in the loop.
        if settledLimiterPath && n >= 64 && ceilingStep == 0 && header.pointee.delay == delayTarget {
            limiterSettledBlock(header, base, stride: stride, frames: n, ceiling: ceilingFrom, release: release)
            header.pointee.ceiling = ceilingTo
            return
        }
        var state = header.pointee
        var loud = lastLoud
        for j in 0..<n {
            let now = frame + j
            let slot = now & mask
            let ceiling = ceilingFrom + ceilingStep * Float(j + 1)
            var peak: Float = 0
            for c in 0..<activeChannels {
                let s = base[c * stride + j]
                audio[c * ring + slot] = s
                peak = max(peak, abs(s))
            }
            if peak >= RenderEffect.silence { loud = now }
            let r: Float = peak > ceiling ? ceiling / peak : 1
            gains[slot] = r
            ceilings[slot] = ceiling

            // The read head slides toward the target look-ahead, 1/32 frame per frame at most.
            let move = delayTarget - state.delay
            state.delay += move > 0.031_25 ? 0.031_25 : (move < -0.031_25 ? -0.031_25 : move)
            let whole = Int(state.delay)
            let fraction = state.delay - Float(whole)
            let ceil = fraction > 0 ? whole + 1 : whole
            let window = ceil + 1
            let box = whole + 1

            // Sliding minimum of r over [now − window, now].
            while state.tail > state.head && dequeValues[(state.tail - 1) & mask] >= r { state.tail -= 1 }
            dequeValues[state.tail & mask] = r
            dequePositions[state.tail & mask] = now
            state.tail += 1
            while dequePositions[state.head & mask] < now - window { state.head += 1 }
            let m = dequeValues[state.head & mask]

            // Instant attack, one-pole release, then the mean over the box.
            let env = min(m, release * state.envelope + (1 - release) * m)
            state.envelope = env
            envelopes[slot] = env
            state.boxSum += Double(env)
            state.boxLength += 1
            while state.boxLength > box {
                state.boxSum -= Double(envelopes[(now - state.boxLength + 1) & mask])
                state.boxLength -= 1
            }
            var gain = Float(state.boxSum / Double(state.boxLength))

            // Read the delayed frame at now − delay: positions `at` and `at + 1`, weight `weight` on the latter.
            // The smooth gain is already ≤ the r of the frames read; the guard
            // below only absorbs rounding, and counts anything more.
            let at = now - ceil
            let weight = Float(ceil) - state.delay
            var bound = gains[at & mask]
            var limit = ceilings[at & mask]
            if weight > 0 {
                bound = min(bound, gains[(at + 1) & mask])
                limit = max(limit, ceilings[(at + 1) & mask])
            }
            if gain > bound {
                if gain > bound * 1.000_001 { state.clamps += 1 }
                gain = bound
            }
            for c in 0..<activeChannels {
                let line = audio + c * ring
                var s = line[at & mask]
                if weight > 0 { s += (line[(at + 1) & mask] - s) * weight }
                var y = s * gain
                if abs(y) > limit {
                    if abs(y) > limit * 1.000_001 { state.clamps += 1 }
                    y = y > 0 ? limit : -limit
                }
                base[c * stride + j] = y
            }
        }
        state.ceiling = ceilingTo
        header.pointee = state
        lastLoud = loud
    }

    /// ``limiterBlock``'s loop for a constant `ceiling` and a settled,
    /// whole look-ahead, in chunks of two passes: first every frame's
    /// peak, gain need `r` and the rings (loops the compiler vectorises),
    /// then the sliding minimum, the envelope, the box and the output, frame
    /// by frame. Each frame's arithmetic is the loop's, in the same order,
    /// so the output is the same to the bit. A chunk is at most the ring
    /// less the look-ahead, so the first pass never overwrites a frame the
    /// second still reads. Runs on the render thread.
    @_noLocks
    mutating func limiterSettledBlock(
        _ header: UnsafeMutablePointer<LimiterState>, _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int,
        ceiling: Float, release: Float
    ) {
        var state = header.pointee
        let ring = layout.ring, mask = ring - 1
        let audio = limiterRing(0), gains = limiterRing(1), ceilings = limiterRing(2), envelopes = limiterRing(3)
        let dequeValues = limiterRing(4), dequePositions = limiterDequePositions()
        let channels = activeChannels
        let delay = Int(state.delay)
        let window = delay + 1, box = delay + 1
        var loud = lastLoud
        var done = 0
        while done < n {
            let chunk = min(n - done, ring - delay)
            // 1. The rings and r, in runs where the ring does not wrap.
            var k = 0
            while k < chunk {
                let first = frame + done + k
                let slot = first & mask
                let run = min(chunk - k, ring - slot)
                let peaks = gains + slot  // the peaks first, then r in place
                peaks.update(repeating: 0, count: run)
                for c in 0..<channels {
                    let input = base + c * stride + done + k, line = audio + c * ring + slot
                    for t in 0..<run {
                        let s = input[t]
                        line[t] = s
                        peaks[t] = max(peaks[t], abs(s))
                    }
                }
                var loudAt = run - 1  // the last loud frame: most often the last
                while loudAt >= 0 && !(peaks[loudAt] >= RenderEffect.silence) { loudAt -= 1 }
                if loudAt >= 0 { loud = first + loudAt }
                let limits = ceilings + slot
                for t in 0..<run {
                    let peak = peaks[t]
                    peaks[t] = peak > ceiling ? ceiling / peak : 1
                    limits[t] = ceiling
                }
                k += run
            }
            // 2. Frame by frame: as in limiterBlock with the read head still
            // (the state in locals, so it stays in registers).
            var head = state.head, tail = state.tail, envelope = state.envelope
            var boxSum = state.boxSum, boxLength = state.boxLength, clamps = state.clamps
            for j in done..<done + chunk {
                let now = frame + j
                let r = gains[now & mask]
                while tail > head && dequeValues[(tail - 1) & mask] >= r { tail -= 1 }
                dequeValues[tail & mask] = r
                dequePositions[tail & mask] = now
                tail += 1
                while dequePositions[head & mask] < now - window { head += 1 }
                let m = dequeValues[head & mask]
                let env = min(m, release * envelope + (1 - release) * m)
                envelope = env
                envelopes[now & mask] = env
                boxSum += Double(env)
                boxLength += 1
                while boxLength > box {
                    boxSum -= Double(envelopes[(now - boxLength + 1) & mask])
                    boxLength -= 1
                }
                var gain = Float(boxSum / Double(boxLength))
                let at = (now - delay) & mask
                let bound = gains[at], limit = ceilings[at]
                if gain > bound {
                    if gain > bound * 1.000_001 { clamps += 1 }
                    gain = bound
                }
                for c in 0..<channels {
                    var y = audio[c * ring + at] * gain
                    if abs(y) > limit {
                        if abs(y) > limit * 1.000_001 { clamps += 1 }
                        y = y > 0 ? limit : -limit
                    }
                    base[c * stride + j] = y
                }
            }
            state.head = head
            state.tail = tail
            state.envelope = envelope
            state.boxSum = boxSum
            state.boxLength = boxLength
            state.clamps = clamps
            done += chunk
        }
        header.pointee = state
        lastLoud = loud
    }
}
