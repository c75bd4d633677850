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
            let (left, right) = busPlanes(bus)
            let isMaster = entry.parent < 0
            if !state.pointee.dirty {
                if !isMaster {
                    state.pointee.gain.advance(quantum)
                    meter(bus, nil, nil, events: entry.meterEvents)
                    continue
                }
                clear(left, right, quantum)
            }
            state.pointee.dirty = false
            applyRamp(&state.pointee.gain, left, right)
            if isMaster {
                applyRamp(&masterGain, left, right)
                // relaxed: load a setting word.
                if shared.pointee.limiter.load(ordering: .relaxed) { softClip(left, right, quantum) }
                meter(bus, left, right, events: entry.meterEvents)
            } else {
                meter(bus, left, right, events: entry.meterEvents)
                let parent = Int(entry.parent)
                let (parentLeft, parentRight) = busPlanes(parent)
                if !busStates[parent].dirty {
                    clear(parentLeft, parentRight, quantum)
                    busStates[parent].dirty = true
                }
                accumulate(left, right, into: parentLeft, parentRight, quantum)
            }
        }
        // relaxed: a published number.
        shared.pointee.masterGainNow.store(masterGain.value.bitPattern, ordering: .relaxed)
    }

    /// Multiplies the planes by the ramp over one quantum (split where the ramp ends).
    @_noLocks
    func applyRamp(_ ramp: inout GainRamp, _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>) {
        var done = 0
        if ramp.framesLeft > 0 {
            let n = min(ramp.framesLeft, quantum)
            scale(left, right, gain: ramp.value, step: ramp.step, n)
            ramp.advance(n)
            done = n
        }
        if done < quantum && ramp.value != 1 {
            scale(left + done, right + done, gain: ramp.value, step: 0, quantum - done)
        }
    }

    /// Adds one quantum of the bus's output (or silence, `nil`) to its meter
    /// window and publishes the window's reading when it completes (and posts
    /// it as an event when `events`).
    @_noLocks
    mutating func meter(_ bus: Int, _ left: UnsafePointer<Float>?, _ right: UnsafePointer<Float>?, events: Bool) {
        let state = busStates + bus
        if let left, let right {
            measure(left, right, quantum, peak: &state.pointee.peak, sumSquares: &state.pointee.sumSquares)
        }
        state.pointee.windowQuanta += 1
        guard state.pointee.windowQuanta >= meterWindowQuanta else { return }
        let meanSquare = Float(state.pointee.sumSquares / Double(2 * quantum * meterWindowQuanta))
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
