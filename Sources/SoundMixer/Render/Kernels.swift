import CMixKernels

// The render path's only door to the C kernels (docs/mixer.md, "Kernels and
// CPU dispatch").
//
// Swift's performance checker cannot see into C, so every call is wrapped in
// `_unsafePerformance`: the proof that the kernels neither allocate nor lock
// is on the C side, where each kernel and each function-pointer type is
// `nonblocking` and clang's -Wfunction-effects is an error (a pragma at
// the top of mix_kernels.c; the target has no build flags).
extension RenderCore {
    @_noLocks @inline(__always)
    func mix(
        _ quality: UInt8, _ segment: inout mk_segment, _ left: UnsafeMutablePointer<Float>,
        _ right: UnsafeMutablePointer<Float>?, _ frames: Int
    ) {
        flushMixBatch()
        let kernels = self.kernels
        _unsafePerformance {
            mk_mix(kernels, mk_interpolation(UInt32(quality)), &segment, left, right, Int32(truncatingIfNeeded: frames))
        }
    }

    /// Mixes `segment` into two pairs of planes at once, crossfading
    /// (`mk_mix_crossfade`): into `to` weighted `weight + t · step`, into
    /// `from` weighted one less that, frame `t` from 0.
    @_noLocks @inline(__always)
    func mixCrossfade(
        _ quality: UInt8, _ segment: inout mk_segment,
        from fromLeft: UnsafeMutablePointer<Float>, _ fromRight: UnsafeMutablePointer<Float>,
        to toLeft: UnsafeMutablePointer<Float>, _ toRight: UnsafeMutablePointer<Float>, _ frames: Int,
        weight: Float, step: Float
    ) {
        flushMixBatch()
        let kernels = self.kernels
        _unsafePerformance {
            mk_mix_crossfade(
                kernels, mk_interpolation(UInt32(quality)), &segment, fromLeft, fromRight, toLeft, toRight,
                Int32(truncatingIfNeeded: frames), weight, step)
        }
    }

    @_noLocks @inline(__always)
    func clear(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ frames: Int) {
        flushMixBatch()
        let kernels = self.kernels
        _unsafePerformance { mk_clear(kernels, left, right, Int32(truncatingIfNeeded: frames)) }
    }

    @_noLocks @inline(__always)
    func accumulate(
        _ sourceLeft: UnsafePointer<Float>, _ sourceRight: UnsafePointer<Float>,
        into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ frames: Int
    ) {
        flushMixBatch()
        let kernels = self.kernels
        _unsafePerformance {
            mk_accumulate_ramped(kernels, sourceLeft, sourceRight, left, right, 1, 0, Int32(truncatingIfNeeded: frames))
        }
    }

    /// `dst += src · (gain + t · step)` on both planes, frame `t` from 0.
    @_noLocks @inline(__always)
    func accumulate(
        _ sourceLeft: UnsafePointer<Float>, _ sourceRight: UnsafePointer<Float>,
        into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ frames: Int,
        gain: Float, step: Float
    ) {
        flushMixBatch()
        let kernels = self.kernels
        _unsafePerformance {
            mk_accumulate_ramped(kernels, sourceLeft, sourceRight, left, right, gain, step, Int32(truncatingIfNeeded: frames))
        }
    }

    @_noLocks @inline(__always)
    func scale(
        _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, gain: Float, step: Float,
        _ frames: Int
    ) {
        flushMixBatch()
        let kernels = self.kernels
        _unsafePerformance { mk_scale_ramped(kernels, left, right, gain, step, Int32(truncatingIfNeeded: frames)) }
    }

    @_noLocks @inline(__always)
    func measure(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, _ frames: Int, peak: inout Float,
        sumSquares: inout Double
    ) {
        let kernels = self.kernels
        _unsafePerformance { mk_measure(kernels, left, right, Int32(truncatingIfNeeded: frames), &peak, &sumSquares) }
    }

    @_noLocks @inline(__always)
    func softClip(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ frames: Int) {
        let kernels = self.kernels
        _unsafePerformance { mk_soft_clip(kernels, left, right, Int32(truncatingIfNeeded: frames)) }
    }

    /// Converts `frames` frames of the planes to interleaved `format` at `destination`.
    @_noLocks @inline(__always)
    func write(
        _ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, to destination: UnsafeMutableRawPointer,
        _ frames: Int, _ format: OutputFormatWord
    ) {
        let kernels = self.kernels
        let n = Int32(truncatingIfNeeded: frames), channels = Int32(truncatingIfNeeded: format.channels)
        if format.isInt16 {
            let d = destination.assumingMemoryBound(to: Int16.self)
            _unsafePerformance { mk_write_int16(kernels, left, right, d, n, channels) }
        } else {
            let d = destination.assumingMemoryBound(to: Float.self)
            _unsafePerformance { mk_write_float32(kernels, left, right, d, n, channels) }
        }
    }

    /// Low-pass filters `frames` frames of both planes (or only `left`, when
    /// `right` is `nil`) in place (`mk_lowpass`).
    @_noLocks @inline(__always)
    func lowPass(
        _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>?, _ frames: Int,
        state: UnsafeMutablePointer<Float>, coefficient: Float, step: Float
    ) {
        flushMixBatch()
        let kernels = self.kernels
        _unsafePerformance {
            mk_lowpass(kernels, left, right, Int32(truncatingIfNeeded: frames), state, coefficient, step)
        }
    }

    @_noLocks @inline(__always)
    func zero(_ destination: UnsafeMutableRawPointer, bytes: Int) {
        flushMixBatch()
        _unsafePerformance { mk_zero_bytes(destination, Int64(bytes)) }
    }

    // MARK: Batches (docs/mixer.md, "Batches of voices")

    /// Adds `segment` (`frames` into `left`/`right`) to the batch of
    /// segments waiting to be mixed together into the same planes, mixing
    /// the batch first when this one goes elsewhere, reads another way or
    /// finds it full. The sums come out bit for bit as if each segment were
    /// mixed at once (`mk_mix_batch`); the AVX-512 kernels keep them in
    /// registers across the batch instead of loading and storing the planes
    /// once per voice.
    @_noLocks @inline(__always)
    func mixBatched(
        _ quality: UInt8, _ segment: inout mk_segment, _ left: UnsafeMutablePointer<Float>,
        _ right: UnsafeMutablePointer<Float>, _ frames: Int
    ) {
        let batch = mixBatch
        let b = batch.pointee
        if b.count > 0
            && (b.left != left || b.right != right || b.frames != frames || b.quality != quality
                || b.count == Int(MK_BATCH_MAX))
        {
            flushMixBatch()
        }
        if batch.pointee.count == 0 {
            batch.pointee.left = left
            batch.pointee.right = right
            batch.pointee.frames = frames
            batch.pointee.quality = quality
        }
        mixBatchSegments[batch.pointee.count] = segment
        batch.pointee.count += 1
    }

    /// Mixes the segments waiting in the batch. Every kernel call that may
    /// read or write planes during the voice loop, and the loop's end, come
    /// after it: the planes hold every earlier voice's sum before anything
    /// else touches them.
    @_noLocks @inline(__always)
    func flushMixBatch() {
        let batch = mixBatch
        let count = batch.pointee.count
        guard count > 0, let left = batch.pointee.left, let right = batch.pointee.right else { return }
        batch.pointee.count = 0
        let kernels = self.kernels, segments = mixBatchSegments
        let interpolation = mk_interpolation(UInt32(batch.pointee.quality))
        let frames = Int32(truncatingIfNeeded: batch.pointee.frames)
        _unsafePerformance { mk_mix_batch(kernels, interpolation, segments, Int32(count), left, right, frames) }
    }
}

/// Where the segments waiting in ``RenderCore/mixBatchSegments`` go.
struct MixBatch {
    var count = 0
    var left: UnsafeMutablePointer<Float>?
    var right: UnsafeMutablePointer<Float>?
    var frames = 0
    var quality: UInt8 = 0
}
