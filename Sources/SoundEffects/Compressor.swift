// The compressor: feed-forward, channel-linked, gain computed in the dB
// domain (Giannoulis, Massberg & Reiss, "Digital Dynamic Range Compressor
// Design — A Tutorial and Analysis", JAES 2012):
//
//   level (dB)      peak: the largest |x| over the channels this frame;
//                   RMS: the largest per-channel mean square, averaged by a
//                   one-pole with a 10 ms time constant;
//   overshoot xL    the static curve's gain reduction: 0 below the knee,
//                   (1 − 1/ratio)·(level − threshold) above it, quadratic in
//                   the knee (width `knee` dB, centred on the threshold);
//   smoothing       "smooth decoupled" peak detector on xL: a release stage
//                   y1 = max(xL, αR·y1 + (1 − αR)·xL), then an attack stage
//                   yL = αA·yL + (1 − αA)·y1, with α = exp(−1/(τ·fs));
//                   (a stage below 1e-12 dB is set to 0 at the end of each
//                   128-frame chunk, so no stage decays into subnormals);
//   gain            10^((makeup − yL)/20), the same for every channel.
//
// So attack is the time constant τA in which the gain reduction moves 63 %
// of the way up to a new, higher target; release the time constant τR of
// its fall (which the attack stage then follows: the 63 % point of a
// release comes at about τR + τA).

import CMixKernels

/// The compressor's header in the state memory.
struct CompressorState: BitwiseCopyable {
    /// Release stage of the detector, dB of gain reduction.
    var releaseStage: Float
    /// Attack stage of the detector: the gain reduction applied, dB.
    var attackStage: Float
    /// Per-channel mean square of the detector input (RMS detector).
    var meanSquares: InlineArray<8, Float>
}

extension RenderEffect {
    /// Frames the compressor's passes run over at a time (its scratch, in the state memory).
    static var compressorChunk: Int { @_noLocks @inline(__always) get { 128 } }

    /// The gain reduction, dB (≥ 0), the static curve asks for a `level` dB
    /// signal. Runs on the render thread.
    @_noLocks @inline(__always)
    static func overshoot(_ level: Float, threshold: Float, slope: Float, knee: Float) -> Float {
        let e = level - threshold
        if 2 * e <= -knee { return 0 }
        if 2 * e < knee {
            let u = e + 0.5 * knee
            return slope * u * u / (2 * knee)
        }
        return slope * e
    }

    /// `exp(−1/(τ·fs))` for a time constant of `milliseconds` ms: the
    /// one-pole coefficient. Runs on the render thread.
    @_noLocks @inline(__always)
    func onePole(milliseconds: Float) -> Float {
        fastExp2(-1.442_695_04 / (milliseconds * 0.001 * Float(sampleRate)))
    }

    /// Runs the compressor over `frames` frames whose parameters move from
    /// `from` to `to` (makeup and the detector mix per frame, the rest per
    /// block). Runs on the render thread.
    @_noLocks
    mutating func compressorBlock(
        from: EffectParameters, to: EffectParameters, _ base: UnsafeMutablePointer<Float>, stride: Int,
        frames n: Int, sidechain: UnsafePointer<Float>?, sidechainStride: Int
    ) {
        let header = memory.assumingMemoryBound(to: CompressorState.self)
        let threshold = to.compressorThreshold
        let slope = 1 - 1 / to.compressorRatio
        let knee = to.compressorKnee
        let attack = onePole(milliseconds: to.compressorAttack)
        let release = onePole(milliseconds: to.compressorRelease)
        let rms = onePole(milliseconds: 10)
        let makeupFrom = from.compressorMakeup
        let makeupStep = (to.compressorMakeup - makeupFrom) / Float(n)
        let mixFrom = from[EffectParameters.Compressor.detector]
        let mixStep = (to[EffectParameters.Compressor.detector] - mixFrom) / Float(n)
        let usesPeak = mixFrom < 1 || mixStep != 0
        let usesRMS = mixFrom > 0 || mixStep != 0
        let source: UnsafePointer<Float> = sidechain ?? UnsafePointer(base)
        let sourceStride = sidechain == nil ? stride : sidechainStride
        var squares = header.pointee.meanSquares
        // Three passes a chunk at a time, so only the detector's smoothing
        // waits on the frame before: the static curve per frame, then the
        // two smoothing stages, then the gain per frame applied channel by
        // channel. Each frame's arithmetic is what one loop over the frames
        // would do.
        let chunkFrames = RenderEffect.compressorChunk
        let curve = (memory + layout.offsets[1]).assumingMemoryBound(to: Float.self)
        // The two stages where the C smoothing keeps them, after the curve.
        let stages = curve + chunkFrames
        stages[0] = header.pointee.releaseStage
        stages[1] = header.pointee.attackStage
        let level = kernelLevel, channels = Int32(truncatingIfNeeded: activeChannels)
        var done = 0
        while done < n {
            let m = min(chunkFrames, n - done)
            let frames = Int32(truncatingIfNeeded: m), first = Int32(truncatingIfNeeded: done)
            // 1. The level and the static curve's gain reduction.
            if usesRMS {
                for j in 0..<m {
                    var peak: Float = 0
                    var meanSquare: Float = 0
                    for c in 0..<activeChannels {
                        let s = source[c * sourceStride + done + j]
                        peak = max(peak, abs(s))
                        // + 1e-24 keeps the average a normal float in silence (its floor: −213 dB).
                        let m = rms * squares[c] + (1 - rms) * (s * s) + 1e-24
                        squares[c] = m
                        meanSquare = max(meanSquare, m)
                    }
                    let mix = mixFrom + mixStep * Float(done + j + 1)
                    var level: Float = 0
                    if usesPeak { level = fastLog2(peak) * log2ToDecibels }
                    let rmsLevel = fastLog2(meanSquare) * (0.5 * log2ToDecibels)
                    level = usesPeak ? level + (rmsLevel - level) * mix : rmsLevel
                    curve[j] = RenderEffect.overshoot(level, threshold: threshold, slope: slope, knee: knee)
                }
            } else {
                // The same arithmetic in C, 16 frames at a time.
                _unsafePerformance {
                    fx_compressor_peak_curve(
                        level, source + done, Int64(sourceStride), channels, frames, curve, threshold, slope, knee)
                }
            }
            // 2. The smoothing: the one recursion (in C, the stages flushed
            // to 0 below 1e-12 dB at the end of the chunk, so no subnormals
            // as the reduction decays).
            _unsafePerformance { fx_compressor_smooth(level, curve, frames, release, attack, stages) }
            // 3. The gain, the same for every channel (in C, as the Swift
            // fastExp2 computes it, 16 frames at a time).
            _unsafePerformance {
                fx_compressor_gain(
                    level, base + done, Int64(stride), channels, frames, curve, makeupFrom, makeupStep, first)
            }
            done += m
        }
        header.pointee.releaseStage = stages[0]
        header.pointee.attackStage = stages[1]
        header.pointee.meanSquares = squares
    }
}
