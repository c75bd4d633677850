import CMixKernels

/// A bus's channels: a bus buffer holds ``RenderCore/maxChannels`` planes,
/// of which the mix uses ``RenderCore/mixChannels`` (docs/mixer.md,
/// "Surround"). The kernels work on pairs of planes, so an odd layout's
/// spare plane (3.0, 5.0, 6.1) is cleared and carried along, always silent.
extension RenderCore {
    /// Planes a bus buffer holds (the most channels an output gets a mix for).
    static var maxChannels: Int { @_noLocks @inline(__always) get { 8 } }

    /// Planes of each bus in use this quantum: the mix's channels rounded up
    /// to a whole pair.
    var busPlaneCount: Int { @_noLocks @inline(__always) get { (mixChannels + 1) & ~1 } }

    /// Plane `channel` of bus `bus`.
    @_noLocks @inline(__always)
    func busPlane(_ bus: Int, _ channel: Int) -> UnsafeMutablePointer<Float> {
        busBuffers + (bus * Self.maxChannels + channel) * quantum
    }

    /// Makes `bus` hold this quantum's audio: its planes in use are cleared
    /// the first time anything is added to it in a quantum.
    @_noLocks @inline(__always)
    mutating func touchBus(_ bus: Int) {
        guard !busStates[bus].dirty else { return }
        clearBus(bus)
        busStates[bus].dirty = true
    }

    /// Clears the planes of `bus` in use.
    @_noLocks
    func clearBus(_ bus: Int) {
        var k = 0
        while k < busPlaneCount {
            clear(busPlane(bus, k), busPlane(bus, k + 1), quantum)
            k += 2
        }
    }

    /// Multiplies the planes of `bus` in use by `gain + t · step` for frames
    /// `offset..<offset + frames`.
    @_noLocks
    func scaleBus(_ bus: Int, gain: Float, step: Float, from offset: Int, _ frames: Int) {
        var k = 0
        while k < busPlaneCount {
            scale(busPlane(bus, k) + offset, busPlane(bus, k + 1) + offset, gain: gain, step: step, frames)
            k += 2
        }
    }

    /// Adds the planes of bus `source` in use to those of bus `destination`.
    @_noLocks
    func accumulateBus(_ source: Int, into destination: Int) {
        var k = 0
        while k < busPlaneCount {
            accumulate(
                busPlane(source, k), busPlane(source, k + 1), into: busPlane(destination, k),
                busPlane(destination, k + 1), quantum)
            k += 2
        }
    }

    /// Adds this quantum of `bus` to a meter window's peak and sum of squares.
    @_noLocks
    func measureBus(_ bus: Int, peak: inout Float, sumSquares: inout Double) {
        var k = 0
        while k < busPlaneCount {
            measure(busPlane(bus, k), busPlane(bus, k + 1), quantum, peak: &peak, sumSquares: &sumSquares)
            k += 2
        }
    }

    /// The master soft clip on the planes of `bus` in use.
    @_noLocks
    func softClipBus(_ bus: Int) {
        var k = 0
        while k < busPlaneCount {
            softClip(busPlane(bus, k), busPlane(bus, k + 1), quantum)
            k += 2
        }
    }

    /// The mix's channel count for an output of `channels` channels.
    @_noLocks @inline(__always)
    static func mixChannels(forOutput channels: Int) -> Int {
        channels <= 2 ? 2 : min(channels, maxChannels)
    }

    /// Converts frames `offset..<offset + frames` of the master bus to
    /// interleaved `format` at `destination`: a stereo mix by the stereo
    /// writer (mono: the average; more channels: zeros after L, R), a
    /// surround mix plane by plane (channels past the mix's: zeros).
    @_noLocks
    func writeMaster(from offset: Int, _ frames: Int, to destination: UnsafeMutableRawPointer, _ format: OutputFormatWord) {
        guard mixChannels > 2 else {
            let (left, right) = busPlanes(0)
            write(left + offset, right + offset, to: destination, frames, format)
            return
        }
        let base = UnsafePointer(busPlane(0, 0) + offset)
        let stride = Int32(truncatingIfNeeded: quantum), planes = Int32(truncatingIfNeeded: mixChannels)
        let n = Int32(truncatingIfNeeded: frames), channels = Int32(truncatingIfNeeded: format.channels)
        if format.isInt16 {
            let d = destination.assumingMemoryBound(to: Int16.self)
            _unsafePerformance { mk_write_planes_int16(base, stride, planes, d, n, channels) }
        } else {
            let d = destination.assumingMemoryBound(to: Float.self)
            _unsafePerformance { mk_write_planes_float32(base, stride, planes, d, n, channels) }
        }
    }
}
