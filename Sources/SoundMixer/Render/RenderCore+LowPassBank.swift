import CMixKernels

/// The shared low-pass (docs/mixer.md, "The shared low-pass").
///
/// The filter is linear, so the sum of several voices through one filter
/// equals the sum of each voice through its own copy. Voices whose cutoffs
/// round to the same band share a filter. Each voice is mixed, panned and
/// faded, into the stereo planes of the filter for its bus and band. Once
/// per quantum, one kernel call filters every filter in use, two lanes each,
/// and adds it to its bus. So a voice costs what an unfiltered voice costs,
/// and a filter costs about what one filtered voice used to cost.
///
/// Bands are 1/8 octave apart: a cutoff is off by at most 1/16 octave (4.4 %).
/// A voice's band is set once per quantum, from its cutoff at the quantum's end.
/// When the band changes, or the voice starts or stops being filtered, the
/// voice crossfades over that quantum. Its old path fades out and keeps its
/// filter state, so the old filter's tail rings out on its own. Its new path
/// fades in. Nothing jumps, and no filter is retuned while it holds a signal.
extension RenderCore {
    /// Mixes frames `offset..<quantum` of a low-passed voice into its shared
    /// filter (or, for a voice whose filter opened this quantum, into its
    /// bus). Falls back to filtering the voice on its own when every filter
    /// is taken. `false` when the voice ended.
    @_noLocks
    mutating func bankFiltered(_ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int, bus: Int) -> Bool {
        let n = quantum - offset
        let coefficient = voice.pointee.lowPass.value(after: n)
        var slot = -1
        let route: Int16
        if coefficient == 0 {
            route = RenderVoice.routeDirect
        } else {
            let band = bankBand(coefficient, near: Int(voice.pointee.route))
            slot = bankSlot(bus: bus, band: band)
            guard slot >= 0 else {
                // Every filter is taken: this voice gets its own, from silence
                // (its state is stale unless it was already on its own).
                if voice.pointee.route != RenderVoice.routeOwn { clearFilterState(Int(voice - voices)) }
                voice.pointee.route = RenderVoice.routeOwn
                voicesAlone += 1
                let (busLeft, busRight) = busPlanes(bus)
                return filterOnItsOwn(voice, from: offset, into: busLeft, busRight)
            }
            route = Int16(truncatingIfNeeded: band)
        }
        voice.pointee.lowPass.advance(n)
        let (busLeft, busRight) = busPlanes(bus)
        let (newLeft, newRight) = slot >= 0 ? feedBankSlot(slot, byVoice: true) : (busLeft, busRight)

        // Where the voice went last quantum, if it must fade out of there.
        let old = voice.pointee.route
        voice.pointee.route = route
        var oldPlanes: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)? = nil
        if old != route {
            if old == RenderVoice.routeDirect {
                oldPlanes = (busLeft, busRight)
            } else if old >= 0 {
                let oldSlot = Int(bankIndex[bankKey(bus: bus, band: Int(old))])
                if oldSlot >= 0 { oldPlanes = feedBankSlot(oldSlot, byVoice: true) }  // else its tail has died: nothing to fade
            }
        }
        guard let (oldLeft, oldRight) = oldPlanes else {
            // A filter's planes are touched only by kernel calls and
            // flushBank, which mix the batch first: the segment may wait.
            return renderRuns(voice, from: offset, into: newLeft, newRight, batchable: true)
        }
        // Crossfade: each run is resampled once and added to the old path
        // fading out and to the new one fading in (mixRun, mk_mix_crossfade).
        crossfade = Crossfade(
            fromLeft: oldLeft, fromRight: oldRight, to: newLeft, start: offset, step: 1 / Float(n))
        let alive = renderRuns(voice, from: offset, into: newLeft, newRight)
        crossfade = nil
        return alive
    }

    /// The band of coefficient `p` (> 0): the nearest 1/8 octave of its
    /// cutoff. `hint` is the band the voice had (or a negative route): it
    /// is checked first, since a band rarely changes from one quantum to the
    /// next and a binary search's branches mispredict.
    @_noLocks
    func bankBand(_ p: Float, near hint: Int) -> Int {
        // Band b holds the coefficients between boundary b - 1 (above) and b.
        if hint >= 0 && hint < bankBands
            && (hint == 0 || bankBounds[hint - 1] > p) && (hint == bankBands - 1 || bankBounds[hint] <= p)
        {
            return hint
        }
        // The boundaries fall with the band: count those above p.
        var low = 0, high = bankBands - 1
        while low < high {
            let middle = (low + high) / 2
            if bankBounds[middle] > p { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where `bankIndex` keeps the filter of (`bus`, `band`).
    @_noLocks @inline(__always)
    func bankKey(bus: Int, band: Int) -> Int { bus * bankBands + band }

    /// The filter of (`bus`, `band`), taken from the free ones if it is not
    /// running; -1 when none is free.
    @_noLocks
    mutating func bankSlot(bus: Int, band: Int) -> Int {
        let key = bankKey(bus: bus, band: band)
        let existing = Int(bankIndex[key])
        if existing >= 0 { return existing }
        guard bankFreeCount > 0 else { return -1 }
        bankFreeCount -= 1
        let slot = Int(bankFree[bankFreeCount])
        bankSlots[slot] = BankSlot(bus: Int32(bus), band: Int32(band), fed: false)
        bankIndex[key] = Int16(truncatingIfNeeded: slot)
        let state = bankStates + 4 * slot
        state[0] = 0
        state[1] = 0
        state[2] = 0
        state[3] = 0
        // Into the live list, after the last filter of a bus not above this one.
        var at = bankLiveCount
        while at > 0 && Int(bankSlots[Int(bankLive[at - 1])].bus) > bus {
            bankLive[at] = bankLive[at - 1]
            at -= 1
        }
        bankLive[at] = Int16(truncatingIfNeeded: slot)
        bankLiveCount += 1
        return slot
    }

    /// The planes of filter `slot`, cleared by the first to feed it this
    /// quantum: a voice, or the flush (silence, for a tail).
    @_noLocks
    mutating func feedBankSlot(_ slot: Int, byVoice: Bool) -> (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) {
        let left = bankPlanes + slot * 2 * quantum
        if byVoice { bankSlots[slot].wasFed = true }
        if !bankSlots[slot].fed {
            clear(left, left + quantum, quantum)
            bankSlots[slot].fed = true
        }
        return (left, left + quantum)
    }

    /// Runs every filter in use over this quantum and adds it to its bus (one
    /// kernel call per bus); a filter no voice fed runs on silence until its
    /// tail has died away, and is then free again.
    @_noLocks
    mutating func flushBank() {
        guard bankLiveCount > 0 else { return }
        flushMixBatch()
        var i = 0
        while i < bankLiveCount {
            let bus = Int(bankSlots[Int(bankLive[i])].bus)
            var lanes = 0
            while i < bankLiveCount && Int(bankSlots[Int(bankLive[i])].bus) == bus {
                let slot = Int(bankLive[i])
                let (left, right) = feedBankSlot(slot, byVoice: false)  // silence for one no voice fed
                let p = bankCoefficients[Int(bankSlots[slot].band)]
                let state = bankStates + 4 * slot
                bankLanes[lanes] = mk_lowpass_lane(
                    row: left, state: state, start: 0, ramp_end: 0, coefficient: p, coefficient_step: 0, hold: p,
                    fuse: 1, gain: (1, 0), gain_step: (0, 0))
                bankLanes[lanes + 1] = mk_lowpass_lane(
                    row: right, state: state + 2, start: 0, ramp_end: 0, coefficient: p, coefficient_step: 0, hold: p,
                    fuse: 1, gain: (0, 1), gain_step: (0, 0))
                lanes += 2
                i += 1
            }
            touchBus(bus)
            let (busLeft, busRight) = busPlanes(bus)
            let kernels = self.kernels, lanePointer = bankLanes, frames = Int32(truncatingIfNeeded: quantum)
            _unsafePerformance {
                mk_lowpass_batch(kernels, lanePointer, Int32(truncatingIfNeeded: lanes), frames, busLeft, busRight)
            }
        }
        // Free the filters whose tail has died; the rest wait for the next quantum's voices.
        var k = 0
        while k < bankLiveCount {
            let slot = Int(bankLive[k])
            let state = bankStates + 4 * slot
            let silent = !bankSlots[slot].wasFed
                && abs(state[0]) < 1e-9 && abs(state[1]) < 1e-9 && abs(state[2]) < 1e-9 && abs(state[3]) < 1e-9
            if silent {
                bankIndex[bankKey(bus: Int(bankSlots[slot].bus), band: Int(bankSlots[slot].band))] = -1
                bankFree[bankFreeCount] = Int16(truncatingIfNeeded: slot)
                bankFreeCount += 1
                var j = k
                while j + 1 < bankLiveCount {
                    bankLive[j] = bankLive[j + 1]
                    j += 1
                }
                bankLiveCount -= 1
                continue
            }
            bankSlots[slot].wasFed = false
            bankSlots[slot].fed = false
            k += 1
        }
    }
}

/// A voice's move between two pairs of planes over one quantum
/// (``RenderCore/crossfade``): frames `start..<quantum` of the planes at
/// `to` get the voice weighted `(t - start) · step`, those at `fromLeft`
/// and `fromRight` weighted one less that.
struct Crossfade {
    let fromLeft: UnsafeMutablePointer<Float>
    let fromRight: UnsafeMutablePointer<Float>
    /// The left plane the voice is rendered into (its runs' `left` is this
    /// plus their first frame).
    let to: UnsafeMutablePointer<Float>
    let start: Int
    let step: Float
}

/// One shared filter's bookkeeping (render).
struct BankSlot: BitwiseCopyable {
    var bus: Int32 = 0
    var band: Int32 = 0
    /// Its planes were cleared this quantum (by a voice, or for silence).
    var fed = false
    /// A voice fed it this quantum (its tail is not dying yet).
    var wasFed = false

    @_noLocks
    init(bus: Int32 = 0, band: Int32 = 0, fed: Bool = false) {
        self.bus = bus
        self.band = band
        self.fed = fed
    }
}

extension RenderCore {
    /// Orders the active voices for this quantum's loop into ``visitOrder``
    /// by the shared filter each fed last quantum (``visitKeys``, per slot:
    /// 1 + its band, 0 for none), so the voices of one filter follow each
    /// other and fill the mix batches. Stable: within a key, voices keep
    /// their active order, so each plane receives its voices in one fixed
    /// order. `false` (nothing written) when no voice fed a shared filter:
    /// the loop then takes ``active``.
    @_noLocks
    mutating func orderByBand() -> Bool {
        let count = activeCount
        let keys = bankBands + 1
        for k in 0..<keys { visitCounts[k] = 0 }
        for i in 0..<count { visitCounts[Int(visitKeys[Int(active[i])])] &+= 1 }
        guard Int(visitCounts[0]) < count else { return false }
        var start: Int32 = 0
        for k in 0..<keys {
            let c = visitCounts[k]
            visitCounts[k] = start
            start &+= c
        }
        for i in 0..<count {
            let slot = active[i]
            let k = Int(visitKeys[Int(slot)])
            visitOrder[Int(visitCounts[k])] = slot
            visitCounts[k] &+= 1
        }
        return true
    }
}
