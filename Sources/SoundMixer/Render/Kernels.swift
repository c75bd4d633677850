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
        let kernels = self.kernels
        _unsafePerformance {
            mk_mix(kernels, mk_interpolation(UInt32(quality)), &segment, left, right, Int32(truncatingIfNeeded: frames))
        }
    }

    @_noLocks @inline(__always)
    func clear(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ frames: Int) {
        let kernels = self.kernels
        _unsafePerformance { mk_clear(kernels, left, right, Int32(truncatingIfNeeded: frames)) }
    }

    @_noLocks @inline(__always)
    func accumulate(
        _ sourceLeft: UnsafePointer<Float>, _ sourceRight: UnsafePointer<Float>,
        into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ frames: Int
    ) {
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
        let kernels = self.kernels
        _unsafePerformance {
            mk_lowpass(kernels, left, right, Int32(truncatingIfNeeded: frames), state, coefficient, step)
        }
    }

    @_noLocks @inline(__always)
    func zero(_ destination: UnsafeMutableRawPointer, bytes: Int) {
        _unsafePerformance { mk_zero_bytes(destination, Int64(bytes)) }
    }
}
