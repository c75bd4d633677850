/// The bus tree on the render side: taking a newly published plan, then
/// gain, metering and summing each bus into its parent, and the master's
/// gain and limiter.
extension RenderCore {
    /// Swaps in the plan the control side published last, if any.
    @_noLocks
    mutating func takePublishedPlan() {
        let shared = atomics
        // relaxed: only a hint; the exchange below does the synchronisation.
        guard shared.pointee.planMiddle.load(ordering: .relaxed) & 4 != 0 else { return }
        // acquiring: pairs with the control side's releasing exchange that
        // published the plan. releasing: hands our old front plan back; the
        // control side's acquiring exchange sees we are done reading it.
        let previous = shared.pointee.planMiddle.exchange(UInt32(frontPlan), ordering: .acquiringAndReleasing)
        frontPlan = Int(previous & 3)
        // releasing: pairs with the control side's acquiring load in
        // reclaimEffects: nothing of an older plan is read after this.
        shared.pointee.planTaken.store(planGenerations[frontPlan], ordering: .releasing)
    }

    /// Runs the plan: each bus's gain ramp and meter, summed into its parent;
    /// then the master's gain, the master gain request and the limiter.
    @_noLocks
    mutating func mixBuses() {
        let shared = atomics
        // relaxed: one self-contained word (target bits, ramp frames).
        let request = shared.pointee.masterGainRequest.load(ordering: .relaxed)
        if request != lastMasterRequest {
            lastMasterRequest = request
            masterGain.start(to: Float(bitPattern: UInt32(request & 0xFFFF_FFFF)), over: Int(request &>> 32))
        }
        let plan = planEntries + frontPlan * maxBuses
        let count = planCounts[frontPlan]
        for e in 0..<count {
            let entry = plan[e]
            let bus = Int(entry.bus)
            let state = busStates + bus
            if entry.gain != state.pointee.gain.target {
                state.pointee.gain.start(to: entry.gain, over: max(1, Int(entry.rampFrames)))
            }
            let isMaster = entry.parent < 0
            if !state.pointee.dirty {
                // A bus nothing fed is skipped, unless an effect's tail still rings.
                if !isMaster && !effectsRing(entry) {
                    state.pointee.gain.advance(quantum)
                    state.pointee.heard = false
                    meter(bus, measured: false, events: entry.meterEvents)
                    continue
                }
                clearBus(bus)
            }
            state.pointee.dirty = false
            state.pointee.heard = true
            if entry.effectCount > 0 { runEffects(entry, bus: bus) }
            applyRamp(&state.pointee.gain, bus: bus)
            if isMaster {
                applyRamp(&masterGain, bus: bus)
                // relaxed: load a setting word.
                if shared.pointee.limiter.load(ordering: .relaxed) { softClipBus(bus) }
                meter(bus, measured: true, events: entry.meterEvents)
            } else {
                meter(bus, measured: true, events: entry.meterEvents)
                let parent = Int(entry.parent)
                touchBus(parent)
                accumulateBus(bus, into: parent)
            }
        }
        // relaxed: a published number.
        shared.pointee.masterGainNow.store(masterGain.value.bitPattern, ordering: .relaxed)
    }

    /// Multiplies the bus's planes by the ramp over one quantum (split where the ramp ends).
    @_noLocks
    func applyRamp(_ ramp: inout GainRamp, bus: Int) {
        var done = 0
        if ramp.framesLeft > 0 {
            let n = min(ramp.framesLeft, quantum)
            scaleBus(bus, gain: ramp.value, step: ramp.step, from: 0, n)
            ramp.advance(n)
            done = n
        }
        if done < quantum && ramp.value != 1 {
            scaleBus(bus, gain: ramp.value, step: 0, from: done, quantum - done)
        }
    }

    /// Adds one quantum of the bus's output (`measured`) or of silence to
    /// its meter window and publishes the window's reading when it completes
    /// (and posts it as an event when `events`). The mean square is per
    /// sample of the mix's channels.
    @_noLocks
    mutating func meter(_ bus: Int, measured: Bool, events: Bool) {
        let state = busStates + bus
        if measured { measureBus(bus, peak: &state.pointee.peak, sumSquares: &state.pointee.sumSquares) }
        state.pointee.windowQuanta += 1
        guard state.pointee.windowQuanta >= meterWindowQuanta else { return }
        let meanSquare = Float(state.pointee.sumSquares / Double(mixChannels * quantum * meterWindowQuanta))
        // relaxed: one self-contained word (peak bits, mean-square bits).
        meters[bus].store(
            UInt64(state.pointee.peak.bitPattern) &<< 32 | UInt64(meanSquare.bitPattern), ordering: .relaxed)
        if events {
            post(RenderEvent(kind: .meter, count: bus, peak: state.pointee.peak, meanSquare: meanSquare))
        }
        state.pointee.peak = 0
        state.pointee.sumSquares = 0
        state.pointee.windowQuanta = 0
    }
}
