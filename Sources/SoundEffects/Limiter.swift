// The limiter: a look-ahead peak limiter whose output never exceeds the
// ceiling, by construction rather than by clipping.
//
// For every input frame n it computes the gain that frame needs,
// r[n] = min(1, c[n] / max over channels |x[n]|), c[n] being the ceiling
// (linear) at that frame. The signal is delayed by d frames (the
// look-ahead). The gain applied to the frame leaving the delay is
//
//   m[k]   = min r over the last W + 1 frames (a monotonic deque, O(1) amortised;
//            van Herk–Gil-Werman block minima on the settled path),
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
    /// The settled path's sliding minimum (van Herk–Gil-Werman, blocks of
    /// `minimaLength` frames from frame 0), where it left off: it is carried
    /// on only from frame `minimaFrame` with the same block length
    /// (otherwise it starts over from the r ring).
    var minimaLength: Int
    /// The frame the settled path's minimum continues from.
    var minimaFrame: Int
    /// The suffix minima are in the deque's value ring for every block that
    /// ends before this frame (a block boundary).
    var suffixEnd: Int
    /// The minimum of r from the current block's first frame to `minimaFrame − 1`.
    var prefixMin: Float
    /// The settled path used the deque's rings for its suffix minima: the
    /// frame loop rebuilds the deque from the r ring before it runs.
    var dequeStale: Bool
}

extension LimiterState {
    /// Frame `now`'s smooth gain, before the guard: the minimum of the gain
    /// needs r over frames `now − window … now` (the deque in `values` and
    /// `positions`, `r` pushed here), the envelope (instant attack, one-pole
    /// `release`) stored in `envelopes`, and its mean over the last `box`
    /// frames. The one copy of both loops' recursion. Runs on the render thread.
    @_noLocks @inline(__always)
    mutating func smoothGain(
        _ r: Float, at now: Int, window: Int, box: Int, release: Float, values: UnsafeMutablePointer<Float>,
        positions: UnsafeMutablePointer<Int>, envelopes: UnsafeMutablePointer<Float>, mask: Int
    ) -> Float {
        push(r, at: now, values: values, positions: positions, mask: mask)
        while positions[head & mask] < now - window { head += 1 }
        return smoothGain(minimum: values[head & mask], at: now, box: box, release: release, envelopes: envelopes, mask: mask)
    }

    /// Frame `now`'s smooth gain from `m`, the minimum of r over its
    /// window: the envelope and the box average of ``smoothGain(_:at:window:box:release:values:positions:envelopes:mask:)``,
    /// which the settled path calls with its own minimum.
    @_noLocks @inline(__always)
    mutating func smoothGain(
        minimum m: Float, at now: Int, box: Int, release: Float, envelopes: UnsafeMutablePointer<Float>, mask: Int
    ) -> Float {
        let env = min(m, release * envelope + (1 - release) * m)
        envelope = env
        envelopes[now & mask] = env
        boxSum += Double(env)
        boxLength += 1
        while boxLength > box {
            boxSum -= Double(envelopes[(now - boxLength + 1) & mask])
            boxLength -= 1
        }
        return Float(boxSum / Double(boxLength))
    }

    /// Pushes frame `now`'s r onto the deque, dropping the entries it
    /// makes useless (r at least as large, earlier). Runs on the render thread.
    @_noLocks @inline(__always)
    mutating func push(
        _ r: Float, at now: Int, values: UnsafeMutablePointer<Float>, positions: UnsafeMutablePointer<Int>, mask: Int
    ) {
        while tail > head && values[(tail - 1) & mask] >= r { tail -= 1 }
        values[tail & mask] = r
        positions[tail & mask] = now
        tail += 1
    }

    /// Rebuilds the deque after the settled path: the monotonic deque of r
    /// over frames `last − window … last` (the r ring), as the frame loop
    /// would hold it at frame `last`. A deque holds the same minima for
    /// every later window (which grows by at most one frame per frame), so
    /// the loop carries on to the bit.
    @_noLocks
    mutating func rebuildDeque(
        through last: Int, window: Int, gains: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>,
        positions: UnsafeMutablePointer<Int>, mask: Int
    ) {
        tail = head
        var i = max(0, last - window)
        while i <= last {
            push(gains[i & mask], at: i, values: values, positions: positions, mask: mask)
            i += 1
        }
        dequeStale = false
    }

    /// `gain` capped at the `bound` of the frames read: it is already below
    /// it but for rounding; more than that is counted in `clamps`.
    @_noLocks @inline(__always)
    mutating func guarded(_ gain: Float, bound: Float) -> Float {
        guard gain > bound else { return gain }
        if gain > bound * 1.000_001 { clamps += 1 }
        return bound
    }

    /// An output sample clamped to `limit`, counted in `clamps` when it was
    /// over by more than rounding.
    @_noLocks @inline(__always)
    mutating func guarded(output y: Float, limit: Float) -> Float {
        guard abs(y) > limit else { return y }
        if abs(y) > limit * 1.000_001 { clamps += 1 }
        return y > 0 ? limit : -limit
    }
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
        if state.dequeStale {
            state.rebuildDeque(
                through: frame - 1, window: Int(state.delay) + 1, gains: gains, values: dequeValues,
                positions: dequePositions, mask: mask)
        }
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

            let smooth = state.smoothGain(
                r, at: now, window: window, box: box, release: release, values: dequeValues,
                positions: dequePositions, envelopes: envelopes, mask: mask)

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
            let gain = state.guarded(smooth, bound: bound)
            for c in 0..<activeChannels {
                let line = audio + c * ring
                var s = line[at & mask]
                if weight > 0 { s += (line[(at + 1) & mask] - s) * weight }
                base[c * stride + j] = state.guarded(output: s * gain, limit: limit)
            }
        }
        state.ceiling = ceilingTo
        header.pointee = state
        lastLoud = loud
    }

    /// ``limiterBlock``'s loop for a constant `ceiling` and a settled,
    /// whole look-ahead, in chunks of passes: first every frame's peak,
    /// gain need `r` and the rings (loops the compiler vectorises), then
    /// the suffix minima of the blocks the chunk completes, then frame by
    /// frame the sliding minimum (a prefix minimum and a suffix minimum),
    /// the envelope, the box and the output (``LimiterState/smoothGain(minimum:at:box:release:envelopes:mask:)``,
    /// as the loop). The minima are the deque's and each frame's arithmetic
    /// is the loop's, in the same order, so the output is the same to the
    /// bit. A chunk is at most the ring less the window, so the first pass
    /// never overwrites a frame the others still read. Runs on the render thread.
    @_noLocks
    mutating func limiterSettledBlock(
        _ header: UnsafeMutablePointer<LimiterState>, _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int,
        ceiling: Float, release: Float
    ) {
        var state = header.pointee
        let ring = layout.ring, mask = ring - 1
        let audio = limiterRing(0), gains = limiterRing(1), ceilings = limiterRing(2), envelopes = limiterRing(3)
        let dequeValues = limiterRing(4)  // the suffix minima, while the deque is not in use
        let channels = activeChannels
        let delay = Int(state.delay)
        let window = delay + 1, box = delay + 1
        // The sliding minimum of r over `window + 1` frames, van Herk–Gil-
        // Werman: blocks of that length from frame 0; for frame t the
        // minimum is that of the suffix minimum (to its block's end) at
        // t − window, in the block before t's or t's own, and the prefix
        // minimum (from its block's start) at t. Branch-free, about two
        // comparisons a frame whatever the signal, where the deque's pops
        // depend on it; the same minima, so the same output to the bit.
        // Suffix minima live in the deque's value ring (the deque is
        // rebuilt if the frame loop runs next).
        let length = window + 1
        var blockStart = frame - frame % length  // frame ≥ 0 since the last clear
        var prefixMin = state.prefixMin
        if state.minimaLength != length || state.minimaFrame != frame {
            // Start over: the prefix of frame's block so far, and the
            // suffix minima of the block before it.
            prefixMin = 1
            var i = blockStart
            while i < frame {
                prefixMin = min(prefixMin, gains[i & mask])
                i += 1
            }
            Self.limiterSuffixMinima(from: blockStart - length, length: length, gains: gains, into: dequeValues, mask: mask)
            state.suffixEnd = blockStart
        }
        state.dequeStale = true
        var loud = lastLoud
        var done = 0
        while done < n {
            // The suffix minima and the r they are worked out from, for
            // frames back to window before the chunk, stay in the rings
            // while the chunk is written: a chunk is at most the ring less
            // the window.
            let chunk = min(n - done, ring - window)
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
            // 2. The suffix minima of every block that ends in the chunk.
            let end = frame + done + chunk
            while state.suffixEnd + length <= end {
                Self.limiterSuffixMinima(
                    from: state.suffixEnd, length: length, gains: gains, into: dequeValues, mask: mask)
                state.suffixEnd += length
            }
            // 3. Frame by frame: as in limiterBlock with the read head still.
            for j in done..<done + chunk {
                let now = frame + j
                let r = gains[now & mask]
                if now == blockStart + length { blockStart = now }
                prefixMin = now == blockStart ? r : min(prefixMin, r)
                let minimum = min(dequeValues[(now - window) & mask], prefixMin)
                let smooth = state.smoothGain(
                    minimum: minimum, at: now, box: box, release: release, envelopes: envelopes, mask: mask)
                let at = (now - delay) & mask
                let gain = state.guarded(smooth, bound: gains[at])
                let limit = ceilings[at]
                for c in 0..<channels {
                    base[c * stride + j] = state.guarded(output: audio[c * ring + at] * gain, limit: limit)
                }
            }
            done += chunk
        }
        state.minimaLength = length
        state.minimaFrame = frame + n
        state.prefixMin = prefixMin
        header.pointee = state
        lastLoud = loud
    }

    /// Writes the suffix minima of r over the block of `length` frames from
    /// frame `start` (each frame's minimum of r from it to the block's end)
    /// into `minima`, both rings indexed by frame & `mask`.
    @_noLocks @inline(__always)
    static func limiterSuffixMinima(
        from start: Int, length: Int, gains: UnsafeMutablePointer<Float>, into minima: UnsafeMutablePointer<Float>,
        mask: Int
    ) {
        var i = start + length - 1
        var m = gains[i & mask]
        minima[i & mask] = m
        while i > start {
            i -= 1
            m = min(m, gains[i & mask])
            minima[i & mask] = m
        }
    }
}
