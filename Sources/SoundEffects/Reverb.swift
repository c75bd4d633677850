import CMixKernels

// The reverb: a 16-line feedback delay network (Jot & Chaigne; Stautner &
// Puckette) with a Hadamard feedback matrix.
//
//   input    the channels' left-side and right-side sums (the LFE excluded),
//            narrowed toward their mono sum by `stereoInput`;
//   pre      a pre-delay (two rings; a change crossfades two read heads over 20 ms);
//   diffuse  four Schroeder all-passes per side (4.8, 3.6, 12.7 and 9.3 ms,
//            the right side's 8 % longer; gains 0.75, 0.75, 0.625, 0.625),
//            which thicken the onset;
//   FDN      16 delay lines of 23…83 ms × (0.25 + 0.75·roomSize), each
//            followed by Jot's absorption filter g(1 − b)/(1 − b·z⁻¹): its
//            DC gain g = 10^(−3·L/(rt60·fs)) gives every mode the same
//            decay (rt60, exactly at 0 Hz), and its pole b makes the decay
//            at Nyquist rt60 × (1 − 0.9·damping). The filtered line
//            outputs are mixed by the 16 × 16 Hadamard matrix / 4 (orthogonal:
//            energy preserving) and fed back, with the left input added
//            to the even lines and the right input to the odd ones (signs
//            varying);
//   output   each non-LFE channel takes its own even row (2, 4, … 14) of
//            the Hadamard mix — sign patterns over all 16 lines that stay
//            mutually orthogonal on the even (left-fed) and on the odd
//            (right-fed) lines alone, so the channels are decorrelated from
//            the first echo on and each has the full echo density. The LFE
//            passes dry only.
//
// Room size changes do not move read heads (that would pitch the tail up
// or down on every pass): each line gets a second head at its new length
// and all lines crossfade to them over 40 ms (weights summing to 1, so the
// loop gain never grows), recomputing the gains as the effective lengths
// change. What the loops store is flushed to 0 below −300 dB (the network
// kernel's fx_flush, as flushTiny does in Swift), so the tail ends in
// zeros, never subnormals, without flush-to-zero.

/// The reverb's fixed design: line and diffuser lengths, gains, signs.
enum ReverbDesign {
    /// Delay lines in the network.
    static var lines: Int { @_noLocks @inline(__always) get { 16 } }
    /// All-pass diffusers per input side.
    static var diffusers: Int { @_noLocks @inline(__always) get { 4 } }
    /// The longest line at room size 1, seconds.
    static var longestLineSeconds: Float { @_noLocks @inline(__always) get { 0.08297 } }
    /// The longest diffuser (the right side's longest), seconds.
    static var longestDiffuserSeconds: Float { @_noLocks @inline(__always) get { 0.01275 * 1.08 } }
    /// Frames in one chunk at most (shorter if a diffuser is shorter): the
    /// size of the chunked path's scratch (the mixed rows, the two inputs).
    static var blockFrames: Int { @_noLocks @inline(__always) get { 128 } }
    /// Frames over which the lines crossfade to a new room size, per second of rate.
    static var roomFadeSeconds: Double { @_noLocks @inline(__always) get { 0.04 } }

    /// Length of line `i` at room size 1, seconds (23…83 ms, spaced
    /// exponentially, slightly detuned so no two share a simple ratio).
    @_noLocks
    static func lineSeconds(_ i: Int) -> Float {
        switch i {
        case 0: 0.02300
        case 1: 0.02513
        case 2: 0.02729
        case 3: 0.02971
        case 4: 0.03241
        case 5: 0.03531
        case 6: 0.03839
        case 7: 0.04187
        case 8: 0.04557
        case 9: 0.04969
        case 10: 0.05413
        case 11: 0.05891
        case 12: 0.06423
        case 13: 0.06997
        case 14: 0.07617
        default: 0.08297
        }
    }

    /// Length of diffuser `k` (0…3), seconds; the right side's are 8 % longer.
    @_noLocks
    static func diffuserSeconds(_ k: Int, right: Bool) -> Float {
        let base: Float =
            switch k {
            case 0: 0.004771
            case 1: 0.003595
            case 2: 0.012735
            default: 0.009307
            }
        return right ? base * 1.08 : base
    }

    /// Gain of diffuser `k`.
    @_noLocks
    static func diffuserGain(_ k: Int) -> Float { k < 2 ? 0.75 : 0.625 }

    /// Input gains per line: the left input feeds the even lines, the right
    /// the odd ones, with varying signs, each 1/√8 (unit energy per side).
    @_noLocks
    static func inputGains() -> (left: SIMD16<Float>, right: SIMD16<Float>) {
        let g: Float = 0.353_553_39
        let signs = SIMD16<Float>(1, 1, -1, 1, 1, -1, -1, -1, 1, -1, 1, 1, -1, 1, -1, -1)
        let even = SIMD16<Float>(1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0)
        let odd = SIMD16<Float>(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1)
        return (signs * even * g, signs * odd * g)
    }
}

/// The reverb's header in the state memory.
struct ReverbState: BitwiseCopyable {
    /// Each line's settled length, frames.
    var current: SIMD16<Int32>
    /// Each line's incoming length during a room-size crossfade.
    var next: SIMD16<Int32>
    /// Frames of the room-size crossfade done.
    var fadePosition: Int
    /// Frames the room-size crossfade takes (0: settled).
    var fadeLength: Int
    /// Each line's absorption filter input gain g(1 − b), as the last frame
    /// used it (it moves linearly over each block).
    var feed: SIMD16<Float>
    /// Each line's absorption filter pole b, as the last frame used it.
    var pole: SIMD16<Float>
    /// Each line's absorption filter state (its output at the last frame).
    var lowPass: SIMD16<Float>
    /// The pre-delay's read heads.
    var pre: Crossfade
    /// Diffuser lengths at the current rate, frames: left side 0…3, right side 4…7.
    var diffuserDelays: SIMD8<Int32>
    /// Frames after the last loud input before the tail is surely below −120 dBFS
    /// (longest line + pre-delay + diffusers).
    var tailWindow: Int
}

extension RenderEffect {
    /// How long after the last loud input or loop signal the reverb may
    /// still sound, frames. Runs on the render thread.
    var reverbTailWindow: Int {
        @_noLocks get { memory.assumingMemoryBound(to: ReverbState.self).pointee.tailWindow }
    }

    /// Copies `count` frames between the buffers `a`, `b` and the two rings
    /// `left`, `right` of `size` floats (a power of two) from ring position
    /// `start` (wrapping): into the rings when `intoRing`, else out of them.
    /// In runs where the ring does not wrap. Render-safe.
    @_noLocks @inline(__always)
    static func ringCopy(
        _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, size: Int, at start: Int,
        _ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ count: Int, intoRing: Bool
    ) {
        var j = 0
        while j < count {
            let r = (start &+ j) & (size - 1)
            let m = min(count - j, size - r)
            let l = left + r, rr = right + r, x = a + j, y = b + j
            if intoRing {
                for t in 0..<m {
                    l[t] = x[t]
                    rr[t] = y[t]
                }
            } else {
                for t in 0..<m {
                    x[t] = l[t]
                    y[t] = rr[t]
                }
            }
            j += m
        }
    }

    /// Runs the reverb over `frames` frames whose parameters move from
    /// `from` to `to` (wet, dry, the stereo input and the lines' absorption
    /// filters per frame, the filters recomputed per block for the decay,
    /// damping and crossfading line lengths; a block is at most
    /// ``RenderEffect/linearBlockFrames`` while anything moves). Runs on the render thread.
    @_noLocks
    mutating func reverbBlock(
        from: EffectParameters, to: EffectParameters, _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int
    ) {
        let header = memory.assumingMemoryBound(to: ReverbState.self)
        var st = header.pointee
        let rate = Float(sampleRate)
        let ring = layout.ring, mask = ring - 1
        let lines = (memory + layout.offsets[1]).assumingMemoryBound(to: Float.self)
        let preRing = layout.preRing, preMask = preRing - 1
        let pre = (memory + layout.offsets[2]).assumingMemoryBound(to: Float.self)
        let diffuserRing = layout.diffuserRing
        let diffusers = (memory + layout.offsets[3]).assumingMemoryBound(to: Float.self)

        // Where the lines and the pre-delay should be.
        // Above the capacity rate the lines may not fit: then all shrink in
        // proportion (as if the room were smaller), keeping their ratios.
        var scale = (0.25 + 0.75 * to.reverbRoomSize) * rate
        let needed = ReverbDesign.longestLineSeconds * scale
        if needed > Float(ring - 3) { scale *= Float(ring - 3) / needed }
        var lengths = SIMD16<Int32>(repeating: 0)
        for i in 0..<16 {
            let frames = Int(ReverbDesign.lineSeconds(i) * scale + 0.5)
            lengths[i] = Int32(truncatingIfNeeded: max(2, min(frames, ring - 2)))
        }
        let preFrames = max(0, min(Int(Double(to.reverbPreDelay) * 0.001 * sampleRate + 0.5), preRing - 2))
        if fresh {
            st.current = lengths
            st.next = lengths
            st.fadeLength = 0
            st.fadePosition = 0
            st.pre = Crossfade(settledAt: preFrames)
            var diffuserRate = rate  // likewise, diffusers that do not fit shrink in proportion
            let longestDiffuser = ReverbDesign.longestDiffuserSeconds * rate
            if longestDiffuser > Float(diffuserRing - 3) { diffuserRate *= Float(diffuserRing - 3) / longestDiffuser }
            for k in 0..<8 {
                let frames = Int(ReverbDesign.diffuserSeconds(k & 3, right: k >= 4) * diffuserRate + 0.5)
                st.diffuserDelays[k] = Int32(truncatingIfNeeded: max(1, min(frames, diffuserRing - 2)))
            }
        }
        if st.fadeLength == 0 {
            var differs = false
            for i in 0..<16 where lengths[i] != st.current[i] { differs = true }
            if differs {
                st.next = lengths
                st.fadePosition = 0
                st.fadeLength = max(1, Int(sampleRate * ReverbDesign.roomFadeSeconds))
            }
        }

        // The absorption filters for the lengths in effect at the block's end.
        var effective = SIMD16<Float>(repeating: 0)
        var fadeEnd: Float = 0
        if st.fadeLength > 0 {
            let t = min(1, Float(st.fadePosition + n) / Float(st.fadeLength))
            fadeEnd = t * t * (3 - 2 * t)
        }
        for i in 0..<16 {
            effective[i] = Float(st.current[i]) + (Float(st.next[i]) - Float(st.current[i])) * fadeEnd
        }
        let perFrame = -9.965_784_3 / (to.reverbRT60 * rate)  // log2 of the DC gain per frame of delay
        let brighter = 1 / (1 - 0.9 * to.reverbDamping) - 1  // Nyquist's extra decay, relative
        var feed = SIMD16<Float>(repeating: 0), pole = SIMD16<Float>(repeating: 0)
        for i in 0..<16 {
            let g = fastExp2(perFrame * effective[i])
            let rho = fastExp2(perFrame * effective[i] * brighter)  // Nyquist gain / DC gain
            let b = (1 - rho) / (1 + rho)
            feed[i] = g * (1 - b)
            pole[i] = b
        }
        // The filters move linearly over the block to their new values (no zipper steps).
        if fresh {
            st.feed = feed
            st.pole = pole
        }
        let feedStep = (feed - st.feed) / Float(n), poleStep = (pole - st.pole) / Float(n)

        // The C kernels' per-call tables: the lines' lengths, their incoming
        // lengths and the crossfade's position and length (stored per
        // chunk, and read back: the kernel ends the crossfade), the
        // diffusers' delays and the channels' output rows (Int32), the
        // channels' input weights (left 0–7, right 8–15) and the diffusers'
        // gains (Float).
        let kernelLengths = (memory + layout.offsets[6]).assumingMemoryBound(to: Int32.self)
        let kernelDelays = kernelLengths + 16, kernelRows = kernelLengths + 24
        let kernelNext = kernelLengths + 32, kernelFade = kernelLengths + 48
        let kernelWeights = (memory + layout.offsets[7]).assumingMemoryBound(to: Float.self)
        let kernelGains = kernelWeights + 16
        for k in 0..<8 {
            kernelWeights[k] = 0
            kernelWeights[8 + k] = 0
            kernelRows[k] = -1
            kernelDelays[k] = st.diffuserDelays[k]
            kernelGains[k] = ReverbDesign.diffuserGain(k & 3)
        }
        // Per-channel input weights and output rows.
        var row: Int32 = 2
        for c in 0..<activeChannels {
            switch ChannelLayout.side(of: c, channels: min(channels, 8)) {
            case .mono:
                kernelWeights[c] = 1
                kernelWeights[8 + c] = 1
            case .left: kernelWeights[c] = 1
            case .right: kernelWeights[8 + c] = 1
            case .centre:
                kernelWeights[c] = 0.707_106_77
                kernelWeights[8 + c] = 0.707_106_77
            case .lfe: continue
            }
            // Even rows only: restricted to the even lines (the left input's)
            // or to the odd ones (the right's) they stay mutually orthogonal,
            // so the outputs are decorrelated from the first echo on.
            kernelRows[c] = row
            row += 2
        }
        let (injectLeft, injectRight) = ReverbDesign.inputGains()

        // The lines are one frame-major ring: line i's sample of frame t at
        // lines[(t & mask)·16 + i] (16·ring < 2³¹).
        let inv = 1 / Float(n)
        let wetFrom = from.reverbWet * 0.25, wetStep = (to.reverbWet * 0.25 - wetFrom) * inv
        let dryFrom = from.reverbDry, dryStep = (to.reverbDry - dryFrom) * inv
        let spreadFrom = from.reverbStereoInput, spreadStep = (to.reverbStereoInput - spreadFrom) * inv
        let preFadeFrames = Int(sampleRate * 0.02)
        var loud = lastLoud
        let block = ReverbDesign.blockFrames
        let mixed = (memory + layout.offsets[4]).assumingMemoryBound(to: Float.self)
        let parameterBlock = (memory + layout.offsets[5]).assumingMemoryBound(to: Float.self)
        let inputs = parameterBlock + Int(FX_REVERB_PARAMETER_FLOATS)
        let level = kernelLevel, channelCount = Int32(truncatingIfNeeded: activeChannels)
        // The kernel's parameters that hold for the whole call; the filters'
        // states, gains and poles are stored before each chunk.
        let kernelParameters = UnsafeMutableRawPointer(parameterBlock)
        kernelParameters.storeBytes(of: feedStep, toByteOffset: 192, as: SIMD16<Float>.self)
        kernelParameters.storeBytes(of: poleStep, toByteOffset: 256, as: SIMD16<Float>.self)
        kernelParameters.storeBytes(of: injectLeft, toByteOffset: 320, as: SIMD16<Float>.self)
        kernelParameters.storeBytes(of: injectRight, toByteOffset: 384, as: SIMD16<Float>.self)
        var done = 0
        while done < n {
            // A chunk: at most `block` frames (the scratch), no longer than
            // the shortest diffuser (each diffuser runs a chunk at a time, so
            // nothing it reads may be written in the same chunk), and such
            // that a one-head pre-delay, written a chunk before it is read,
            // fits its ring (chunk + delay ≤ the ring). The network needs no
            // limit: it reads and writes frame by frame, in order.
            var chunk = min(min(block, n - done), preRing - max(max(st.pre.current, st.pre.next), preFrames))
            for k in 0..<8 { chunk = min(chunk, Int(st.diffuserDelays[k])) }
            chunk = max(1, chunk)
            let first = frame + done

            // 1. The inputs: channel sums and their stereo spread (C), pre-delay, diffusers (C).
            // Swift's performance checker cannot see into C: the kernels
            // are `nonblocking`, proven by clang (fx_kernels.c).
            st.pre.follow(preFrames, frames: preFadeFrames)
            let inA = inputs, inB = inputs + block
            let count = Int32(truncatingIfNeeded: chunk), offset = Int32(truncatingIfNeeded: done)
            let loudInput = _unsafePerformance {
                fx_reverb_inputs(
                    level, base + done, Int64(stride), channelCount, kernelWeights, count, spreadFrom, spreadStep,
                    offset, inA, inB, RenderEffect.silence)
            }
            if loudInput >= 0 { loud = max(loud, first + Int(loudInput)) }
            if st.pre.isFading {
                // Two read heads crossfading: frame by frame.
                for j in 0..<chunk {
                    let now = first + j
                    let preSlot = now & preMask
                    pre[preSlot] = inA[j]
                    pre[preRing + preSlot] = inB[j]
                    st.pre.follow(preFrames, frames: preFadeFrames)
                    var a = pre[(now - st.pre.current) & preMask]
                    var b = pre[preRing + ((now - st.pre.current) & preMask)]
                    if st.pre.isFading {
                        let a2 = pre[(now - st.pre.next) & preMask]
                        let b2 = pre[preRing + ((now - st.pre.next) & preMask)]
                        let w = st.pre.step()
                        a += (a2 - a) * w
                        b += (b2 - b) * w
                    }
                    inA[j] = a
                    inB[j] = b
                }
            } else {
                // One head: the chunk is written, then read (chunk + delay ≤ the ring).
                let delay = st.pre.current
                RenderEffect.ringCopy(pre, pre + preRing, size: preRing, at: first, inA, inB, chunk, intoRing: true)
                RenderEffect.ringCopy(
                    pre, pre + preRing, size: preRing, at: first &- delay, inA, inB, chunk, intoRing: false)
            }
            // Diffusers: u = x − g·d, y = d + g·u (all-pass (g + z⁻ᴸ)/(1 + g·z⁻ᴸ)),
            // a chunk at a time (no diffuser is shorter than the chunk), in
            // runs where neither the read nor the write head wraps (C).
            let ringFrames = Int32(truncatingIfNeeded: diffuserRing), start = Int64(first)
            _unsafePerformance {
                fx_reverb_diffusers(level, inA, inB, diffusers, ringFrames, kernelDelays, kernelGains, start, count)
            }

            // 2. The network: the C kernel, frame by frame over the chunk,
            // reading each line at its length (through both heads while the
            // lines crossfade to a new room size) and writing each frame's row.
            kernelParameters.storeBytes(of: st.lowPass, toByteOffset: 0, as: SIMD16<Float>.self)
            kernelParameters.storeBytes(of: st.feed, toByteOffset: 64, as: SIMD16<Float>.self)
            kernelParameters.storeBytes(of: st.pole, toByteOffset: 128, as: SIMD16<Float>.self)
            for i in 0..<16 {
                kernelLengths[i] = st.current[i]
                kernelNext[i] = st.next[i]
            }
            kernelFade[0] = Int32(truncatingIfNeeded: st.fadePosition)
            kernelFade[1] = Int32(truncatingIfNeeded: st.fadeLength)
            // Swift's performance checker cannot see into C: the kernel is
            // `nonblocking`, proven by clang (fx_kernels.c).
            let loudSquare = RenderEffect.silence * RenderEffect.silence
            let ringMask = Int32(truncatingIfNeeded: mask)
            let loudInChunk = _unsafePerformance {
                fx_reverb_network(
                    level, lines, ringMask, start, kernelLengths, kernelNext, kernelFade, mixed, inA, inB,
                    parameterBlock, count, loudSquare)
            }
            if loudInChunk >= 0 { loud = max(loud, first + Int(loudInChunk)) }
            st.lowPass = kernelParameters.load(fromByteOffset: 0, as: SIMD16<Float>.self)
            st.feed = kernelParameters.load(fromByteOffset: 64, as: SIMD16<Float>.self)
            st.pole = kernelParameters.load(fromByteOffset: 128, as: SIMD16<Float>.self)
            for i in 0..<16 { st.current[i] = kernelLengths[i] }
            st.fadePosition = Int(kernelFade[0])
            st.fadeLength = Int(kernelFade[1])

            // 3. The outputs: each channel its row of the mix, wet, plus its dry signal (C).
            _unsafePerformance {
                fx_reverb_outputs(
                    level, base + done, Int64(stride), channelCount, kernelRows, mixed, count, offset, dryFrom,
                    dryStep, wetFrom, wetStep)
            }
            done += chunk
        }
        st.feed = feed  // exactly, whatever the rounding of the steps
        st.pole = pole
        var longest: Int32 = 0
        for i in 0..<16 { longest = max(longest, max(st.current[i], st.next[i])) }
        var diffusion = 0
        for k in 0..<8 { diffusion += Int(st.diffuserDelays[k]) }
        st.tailWindow = Int(longest) + max(st.pre.current, st.pre.next) + diffusion + 2
        header.pointee = st
        lastLoud = loud
        needsTicks = st.fadeLength > 0
    }
}
