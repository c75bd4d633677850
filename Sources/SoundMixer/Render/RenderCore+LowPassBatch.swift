import CMixKernels

/// The batched low-pass (docs/mixer.md, "The batched low-pass"): a filtered
/// mono voice is mixed (source × fade) into a row of `batchRows`, and its
/// filter waits until `lowPassBatch` voices are waiting (or the quantum's
/// voices are all mixed); then one kernel call filters them all, one voice
/// per vector lane, and adds each to its bus with its pan gains.
extension RenderCore {
    /// Mixes frames `offset..<quantum` of a filtered mono voice into the next
    /// batch row and queues its filter and pan-add; `false` when it ended.
    @_noLocks
    mutating func batchFiltered(_ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int, bus: Int) -> Bool {
        let k = batchCount
        let row = batchRows + Int(MK_GUARD_FRAMES) + k * quantum
        // The whole row is cleared: frames before `offset` are read by the
        // kernel's transpose (and ignored), so they must be finite.
        zero(row, bytes: 4 * quantum)
        let gains = (voice.pointee.left, voice.pointee.right)
        voice.pointee.left = GainRamp(1)
        voice.pointee.right = GainRamp(0)
        // Mono into the row alone (no right plane).
        let alive = renderRuns(voice, from: offset, into: row, nil)
        let ramp = voice.pointee.lowPass
        let n = quantum - offset
        let ramped = min(n, ramp.framesLeft)
        voice.pointee.lowPass.advance(n)
        voice.pointee.left = gains.0
        voice.pointee.right = gains.1
        voice.pointee.left.advance(n)
        voice.pointee.right.advance(n)

        if k == 0 { batchBus = bus }
        // Fused into the kernel's output pass: a lane that starts at frame 0
        // with gain ramps linear over the whole quantum, on the batch's bus.
        let (l, r) = gains
        let linear = (l.framesLeft == 0 || l.framesLeft >= quantum) && (r.framesLeft == 0 || r.framesLeft >= quantum)
        let fuse = offset == 0 && linear && bus == batchBus
        let q = Float(quantum)
        batchLanes[k] = mk_lowpass_lane(
            row: row, state: filterStates + 4 * Int(voice - voices), start: Int32(offset),
            ramp_end: Int32(offset + ramped), coefficient: ramp.value, coefficient_step: ramp.step,
            hold: ramp.value(after: ramped), fuse: fuse ? 1 : 0, gain: (l.value, r.value),
            gain_step: ((l.value(after: quantum) - l.value) / q, (r.value(after: quantum) - r.value) / q))
        batchEntries[k] = BatchEntry(bus: bus, offset: offset, left: l, right: r)
        batchCount = k + 1
        if batchCount == Self.lowPassBatch { flushLowPassBatch() }
        return alive
    }

    /// Filters the waiting batch and adds every voice of it to its bus.
    @_noLocks
    mutating func flushLowPassBatch() {
        let count = batchCount
        guard count > 0 else { return }
        flushMixBatch()  // the batch's voices come after the ones waiting there
        batchCount = 0
        let (fusedLeft, fusedRight) = busPlanes(batchBus)
        let kernels = self.kernels, lanes = batchLanes, frames = Int32(truncatingIfNeeded: quantum)
        _unsafePerformance { mk_lowpass_batch(kernels, lanes, Int32(count), frames, fusedLeft, fusedRight) }
        var k = 0
        while k < count {
            defer { k += 1 }
            guard batchLanes[k].fuse == 0 else { continue }
            let e = batchEntries[k]
            let (busLeft, busRight) = busPlanes(e.bus)
            let row = batchRows + Int(MK_GUARD_FRAMES) + k * quantum
            panAdd(row + e.offset, from: e.offset, gains: (e.left, e.right), into: busLeft, busRight)
        }
    }
}

/// What the pan-add of a batched voice that the kernel did not fuse needs.
struct BatchEntry: BitwiseCopyable {
    var bus = 0
    var offset = 0
    var left = GainRamp(0)
    var right = GainRamp(0)
}
