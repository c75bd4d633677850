import CMixKernels

/// Rendering one voice for one quantum: scheduling, ramps and fades, then the
/// resampling kernels over runs of frames that cross no loop end.
extension RenderCore {
    /// Mixes the voice in `slot` into its bus; `false` when it ended (and was
    /// removed from the active list).
    @_noLocks
    mutating func renderVoice(_ slot: Int) -> Bool {
        let voice = voices + slot
        switch voice.pointee.phase {
        case .idle:
            return false
        case .paused:
            return true
        case .waitingForStream:
            if !streamBecameReady(voice) { return voice.pointee.phase != .idle }
        case .scheduled, .playing:
            break
        }
        var offset = 0
        if voice.pointee.phase == .scheduled {
            let start = voice.pointee.startTime
            if start >= clock + Int64(quantum) { return true }
            offset = max(0, Int(start - clock))
            voice.pointee.phase = .playing
        }
        return renderFrames(voice, from: offset)
    }

    /// Mixes a steady voice's whole quantum in one segment into its bus's
    /// batch (or the open send group's, or its shared low-pass filter's),
    /// and `true`; `false` (nothing done) for any other voice, which then
    /// takes ``renderVoice(_:)``. Steady: playing and audible, an in-memory
    /// sound not placed over speakers; no aux sends, or settled sends that
    /// join the open send group; no low-pass, or a shared filter it stays in
    /// (no crossfade due); gain ramps that run at least to the quantum's end
    /// and a fade that runs past it, no stop due this quantum; and a read
    /// position that reaches neither the sound's end nor its loop's this
    /// quantum. Most voices of a game's mix are steady most quanta (a 3D
    /// voice too, its pan ramping); for them this does what
    /// ``renderVoice(_:)`` would, to the bit, without its run splitting
    /// (docs/mixer.md, "Steady voices").
    @_noLocks @inline(__always)
    mutating func renderSteady(_ slot: Int) -> Bool {
        let voice = voices + slot
        let v = voice.pointee
        let n = quantum
        // Nothing ramping (most voices, most quanta) is one test.
        let moving = v.left.framesLeft | v.right.framesLeft | v.fade.framesLeft != 0
        guard v.phase == .playing, !v.isVirtual, v.stream < 0,
            !moving
                || ((v.left.framesLeft == 0 || v.left.framesLeft >= n)
                    && (v.right.framesLeft == 0 || v.right.framesLeft >= n)
                    && (v.fade.framesLeft == 0 || v.fade.framesLeft > n)),
            v.stopTime >= clock + Int64(n), !isPlaced(voice), v.body.plane0 != nil
        else { return false }
        let step = readStep(voice)
        let limit = UInt64(v.body.readLimit(looping: v.looping, inLoopBody: v.inLoopBody)) &<< 32
        let (advance, overflow) = step.multipliedReportingOverflow(by: UInt64(n))
        guard !overflow, v.position < limit, advance < limit &- v.position else { return false }
        // Where it goes, checked before anything changes: its bus; the open
        // send group's planes when it joins that group (renderWithSends);
        // its shared filter's, or its bus, when a low-passed voice stays
        // where it went last quantum (bankFiltered; a move crossfades).
        let bus = Int(v.bus)
        var band = -1
        if v.isFiltered {
            band = steadyBand(voice, bus: bus)
            guard band != Self.noSteadyBand else { return false }
        } else if v.sendCount > 0 {
            guard sendGroup.open && joins(slot, bus: bus, count: Int(v.sendCount)) else { return false }
        }
        let (p0, p1) = v.body.planes(at: Int(v.position &>> 32), inLoopBody: v.inLoopBody)
        touchBus(bus)
        let left: UnsafeMutablePointer<Float>
        if v.isFiltered {
            voice.pointee.lowPass.advance(n)
            left = band >= 0 ? feedBankSlot(bankSlot(bus: bus, band: band), byVoice: true).0 : busPlane(bus, 0)
        } else {
            voice.pointee.route = RenderVoice.routeDirect
            left = v.sendCount > 0 ? sendScratch : busPlane(bus, 0)
        }
        // The gains and their steps as renderRuns forms them for a run of
        // the whole quantum, and mixRun's start (a zero offset: the same
        // bits, -0 included).
        let f0 = v.fade.value
        let left0 = v.left.value * f0, right0 = v.right.value * f0
        var stepLeft: Float = 0, stepRight: Float = 0  // (x - x) / n with nothing moving
        if moving {
            let f1 = v.fade.value(after: n)
            let left1 = v.left.value(after: n) * f1, right1 = v.right.value(after: n) * f1
            stepLeft = (left1 - left0) / Float(n)
            stepRight = (right1 - right0) / Float(n)
        }
        let d = Float(0)
        var segment = mk_segment(
            source: (p0, p1), position: v.position & 0xFFFF_FFFF, step: step,
            gain: (left0 + stepLeft * d, right0 + stepRight * d), gain_step: (stepLeft, stepRight),
            prefetch: (prefetch0, prefetch1))
        prefetch0 = nil
        prefetch1 = nil
        mixBatched(v.quality, &segment, left, left + n, n)
        voice.pointee.left.advance(n)
        voice.pointee.right.advance(n)
        voice.pointee.fade.advance(n)
        let position = v.position &+ advance
        voice.pointee.position = position
        reportMarkers(voice, before: position)
        return true
    }

    /// Where a low-passed voice goes in ``renderSteady(_:)``: the band of the
    /// shared filter it stays in, -1 for its bus (a filter opened to
    /// transparent, already moved there), or ``noSteadyBand`` when it is not
    /// steady (a move of band or route crossfades, a voice with sends or
    /// without shared filters takes its own filter). Changes nothing.
    /// Inlined: as a call of its own it cost the 3D mix the steady path's
    /// gain (docs/performance.md, issue 18).
    @_noLocks @inline(__always)
    func steadyBand(_ voice: UnsafeMutablePointer<RenderVoice>, bus: Int) -> Int {
        let v = voice.pointee
        guard v.sendCount == 0, sharedLowPass else { return Self.noSteadyBand }
        let coefficient = v.lowPass.value(after: quantum)
        if coefficient == 0 { return v.route == RenderVoice.routeDirect ? -1 : Self.noSteadyBand }
        let band = bankBand(coefficient, near: Int(v.route))
        guard Int(v.route) == band, bankIndex[bankKey(bus: bus, band: band)] >= 0 else { return Self.noSteadyBand }
        return band
    }

    /// ``steadyBand(_:bus:)``'s answer for a voice that is not steady.
    static var noSteadyBand: Int { @_noLocks @inline(__always) get { Int.min } }

    /// The voice's read step, 32.32: pitch × the body's rate ÷ the engine
    /// rate, from ``RenderVoice/step`` unless the pitch, the body or the
    /// engine rate changed since it was worked out.
    @_noLocks @inline(__always)
    func readStep(_ voice: UnsafeMutablePointer<RenderVoice>) -> UInt64 {
        if voice.pointee.stepRate == engineRate { return voice.pointee.step }
        let ratio = voice.pointee.pitch * voice.pointee.body.sampleRate / engineRate
        let step = UInt64(ratio * 4_294_967_296.0)
        voice.pointee.step = step
        voice.pointee.stepRate = engineRate
        return step
    }

    /// Arranges for the kernels mixing the next voice to prefetch the voice
    /// in `slot` as they go (`mk_segment.prefetch`).
    @_noLocks
    mutating func spreadPrefetch(_ slot: Int) {
        let v = voices[slot]
        prefetch0 = nil
        prefetch1 = nil
        guard v.phase == .playing, !v.isVirtual, v.stream < 0, let plane0 = v.body.plane0, !v.inLoopBody else { return }
        let k = Int(v.position &>> 32)
        guard v.body.frames - k > quantum * 2 else { return }
        prefetch0 = UnsafePointer(plane0 + k)
        if let plane1 = v.body.plane1 { prefetch1 = UnsafePointer(plane1 + k) }
    }

    /// Checks a waiting stream; `true` once it is ready and the voice is scheduled.
    @_noLocks
    mutating func streamBecameReady(_ voice: UnsafeMutablePointer<RenderVoice>) -> Bool {
        let ring = streams[Int(voice.pointee.stream)]
        let state = ring.shared.pointee.renderState()
        if state.failed {
            endVoice(Int(voice - voices))
            return false
        }
        guard state.ready else { return false }
        var body = SoundBody()
        body.plane0 = UnsafePointer(ring.plane0)
        body.plane1 = ring.shared.pointee.planes == 2 ? UnsafePointer(ring.plane1) : nil
        body.planes = ring.shared.pointee.planes
        body.sampleRate = Double(ring.shared.pointee.sampleRate)
        body.frames = ring.capacity
        let sound = sounds[Int(voice.pointee.sound)]
        body.markers = sound.markers
        body.markerCount = sound.markerCount
        body.sourceFrames = sound.sourceFrames
        voice.pointee.body = body
        voice.pointee.stepRate = 0
        voice.pointee.startTime = max(voice.pointee.startTime, clock)
        voice.pointee.phase = .scheduled
        settleGains(&voice.pointee)
        if voice.pointee.fadeEnd == .pause {
            // Sought while paused: it waits, paused, at the new place.
            voice.pointee.fadeEnd = .nothing
            voice.pointee.phase = .paused
            return false
        }
        return true
    }

    /// Mixes frames `offset..<quantum` of a playing voice into its bus:
    /// straight in (the fast path), or, for a voice with a low-pass, into
    /// the scratch planes, through the filter and then added to the bus.
    @_noLocks
    mutating func renderFrames(_ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int) -> Bool {
        if voice.pointee.isVirtual {
            voice.pointee.lowPass.advance(quantum - offset)
            if voice.pointee.speakerLayout != 0 { advanceSpeakers(Int(voice - voices), quantum - offset) }
            return advanceVirtual(voice, from: offset)
        }
        let bus = Int(voice.pointee.bus)
        touchBus(bus)
        if voice.pointee.sendCount > 0 { return renderWithSends(voice, from: offset, bus: bus) }
        return renderDry(voice, from: offset, into: busPlane(bus, 0), bus: bus, shared: true)
    }

    /// Mixes frames `offset..<quantum` of a playing voice into `planes`
    /// (channel k at `planes + k · quantum`): over the speakers if it is
    /// placed, straight in (the fast path), or through its low-pass. With
    /// `shared`, `planes` are bus `bus`'s, and a filtered voice may take a
    /// shared filter or the batch (which add to the bus themselves); else
    /// it is filtered on its own filter, into `planes`.
    /// `batchDirect` (default: `shared`): an unfiltered, unplaced voice's
    /// segments may wait in the batch (the planes are only added to).
    @_noLocks
    mutating func renderDry(
        _ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int, into planes: UnsafeMutablePointer<Float>, bus: Int,
        shared: Bool, batchDirect: Bool? = nil
    ) -> Bool {
        if isPlaced(voice) { return renderPlaced(voice, from: offset, into: planes) }
        let (left, right) = (planes, planes + quantum)
        guard voice.pointee.isFiltered else {
            voice.pointee.route = RenderVoice.routeDirect
            // Straight into a bus (or a send group's planes): its segments may wait in the batch.
            return renderRuns(voice, from: offset, into: left, right, batchable: batchDirect ?? shared)
        }
        if shared {
            if sharedLowPass { return bankFiltered(voice, from: offset, bus: bus) }
        } else {
            // Its own filter's state is stale unless it was already on it.
            if voice.pointee.route != RenderVoice.routeOwn { clearFilterState(Int(voice - voices)) }
            voice.pointee.route = RenderVoice.routeOwn
        }
        return filterOnItsOwn(voice, from: offset, into: left, right, batching: shared)
    }

    /// Mixes frames `offset..<quantum` of a voice with aux sends whole into
    /// ``sendScratch`` (its low-pass on its own filter: a voice that sends is
    /// never in a shared band or a batch), then adds that to its bus and,
    /// times each send's gain ramp, to each send's bus (docs/mixer.md, "Aux sends").
    ///
    /// A voice whose sends are all settled (no gain ramping) joins the open
    /// send group if its bus and sends are the group's, or opens a new one:
    /// the group's voices are summed in ``sendScratch`` (batched like voices
    /// into a bus), and the sum is added to the bus and the send buses once,
    /// when a voice of another kind comes or the voice loop ends
    /// (``flushSendGroup()``). A voice with a ramping send is mixed and
    /// added alone, as below.
    @_noLocks
    mutating func renderWithSends(_ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int, bus: Int) -> Bool {
        let slot = Int(voice - voices)
        let count = Int(voice.pointee.sendCount)
        // Most voices join the group the voice before opened: checked in
        // place, without building a key.
        if sendGroup.open && joins(slot, bus: bus, count: count) {
            return renderDry(voice, from: offset, into: sendScratch, bus: bus, shared: false, batchDirect: true)
        }
        if let key = settledSends(slot, bus: bus, count: count) {
            if !sendGroup.open || !sendGroup.same(as: key) {
                flushSendGroup()
                sendGroup = key
                var k = 0
                while k < busPlaneCount {
                    clear(sendScratch + k * quantum, sendScratch + (k + 1) * quantum, quantum)
                    k += 2
                }
            }
            return renderDry(voice, from: offset, into: sendScratch, bus: bus, shared: false, batchDirect: true)
        }
        flushSendGroup()
        let n = quantum - offset
        let planes = sendScratch
        var k = 0
        while k < busPlaneCount {
            clear(planes + k * quantum + offset, planes + (k + 1) * quantum + offset, n)
            k += 2
        }
        let alive = renderDry(voice, from: offset, into: planes, bus: bus, shared: false)
        addPlanes(planes, into: busPlane(bus, 0), from: offset, n, gain: 1, step: 0)
        var s = 0
        while s < count {
            defer { s += 1 }
            let target = Int(voiceExtras[slot].sendBuses[s])
            var ramp = voiceExtras[slot].sendGains[s]
            guard target >= 0 && target < maxBuses, ramp.value != 0 || ramp.framesLeft > 0 else { continue }
            touchBus(target)
            var t = offset
            if ramp.framesLeft > 0 {
                let m = min(ramp.framesLeft, n)
                addPlanes(planes, into: busPlane(target, 0), from: t, m, gain: ramp.value, step: ramp.step)
                ramp.advance(m)
                t += m
            }
            if t < quantum { addPlanes(planes, into: busPlane(target, 0), from: t, quantum - t, gain: ramp.value, step: 0) }
            voiceExtras[slot].sendGains[s] = ramp
        }
        return alive
    }

    /// Whether voice `slot` (own bus `bus`, `count` sends) belongs in the
    /// open send group: the same bus, and each send settled, to the group's
    /// bus at the group's gain (bit for bit). Reads the voice's sends in place.
    @_noLocks @inline(__always)
    func joins(_ slot: Int, bus: Int, count: Int) -> Bool {
        guard sendGroup.bus == bus, sendGroup.count == count else { return false }
        let extras = voiceExtras + slot
        var s = 0
        while s < count {
            let ramp = extras.pointee.sendGains[s]
            if ramp.framesLeft > 0 || extras.pointee.sendBuses[s] != sendGroup.buses[s]
                || ramp.value.bitPattern != sendGroup.gains[s].bitPattern
            {
                return false
            }
            s += 1
        }
        return true
    }

    /// The send group voice `slot` belongs in (its bus, and each send's bus
    /// and gain), or nil if a send's gain is still ramping.
    @_noLocks
    func settledSends(_ slot: Int, bus: Int, count: Int) -> SendGroup? {
        var key = SendGroup()
        key.open = true
        key.bus = bus
        key.count = count
        for s in 0..<count {
            let ramp = voiceExtras[slot].sendGains[s]
            if ramp.framesLeft > 0 { return nil }
            key.buses[s] = voiceExtras[slot].sendBuses[s]
            key.gains[s] = ramp.value
        }
        return key
    }

    /// Adds the open send group's sum (``sendScratch``, the whole quantum:
    /// its voices cleared it and only added) to its bus and, times each
    /// send's gain, to each send's bus; then closes it.
    @_noLocks
    mutating func flushSendGroup() {
        guard sendGroup.open else { return }
        let group = sendGroup
        sendGroup.open = false
        addPlanes(sendScratch, into: busPlane(group.bus, 0), from: 0, quantum, gain: 1, step: 0)
        for s in 0..<group.count {
            let target = Int(group.buses[s])
            guard target >= 0 && target < maxBuses, group.gains[s] != 0 else { continue }
            touchBus(target)
            addPlanes(sendScratch, into: busPlane(target, 0), from: 0, quantum, gain: group.gains[s], step: 0)
        }
    }

    /// Adds frames `offset..<offset + frames` of the planes in use at
    /// `source` to those at `destination` (channel k at `+ k · quantum`),
    /// times `gain + t · step`.
    @_noLocks
    func addPlanes(
        _ source: UnsafeMutablePointer<Float>, into destination: UnsafeMutablePointer<Float>, from offset: Int,
        _ frames: Int, gain: Float, step: Float
    ) {
        var k = 0
        while k < busPlaneCount {
            let a = k * quantum + offset, b = (k + 1) * quantum + offset
            accumulate(source + a, source + b, into: destination + a, destination + b, frames, gain: gain, step: step)
            k += 2
        }
    }

    /// Mixes frames `offset..<quantum` of a low-passed voice through a filter
    /// of its own: batched with other mono voices, or alone.
    @_noLocks
    mutating func filterOnItsOwn(
        _ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int, into busLeft: UnsafeMutablePointer<Float>,
        _ busRight: UnsafeMutablePointer<Float>, batching: Bool = true
    ) -> Bool {
        if batching && batchedLowPass && voice.pointee.body.planes == 1 {
            return batchFiltered(voice, from: offset, bus: Int(voice.pointee.bus))
        }
        let n = quantum - offset
        let left = voiceScratch + offset, right = voiceScratch + quantum + offset
        clear(left, right, n)
        // A mono source is filtered before its pan: one filter chain instead
        // of two (the filter is linear, so the steady-state response is the
        // same; volume/pan ramps apply after it rather than before).
        let mono = voice.pointee.body.planes == 1
        let gains = (voice.pointee.left, voice.pointee.right)
        if mono {
            // Mix the source × fade alone into the left scratch plane.
            voice.pointee.left = GainRamp(1)
            voice.pointee.right = GainRamp(0)
        }
        let alive = renderRuns(voice, from: offset, into: voiceScratch, voiceScratch + quantum)
        filterScratch(voice, left, mono ? nil : right, n)
        if mono {
            panAdd(left, from: offset, gains: gains, into: busLeft, busRight)
            voice.pointee.left = gains.0
            voice.pointee.right = gains.1
            voice.pointee.left.advance(n)
            voice.pointee.right.advance(n)
        } else {
            accumulate(left, right, into: busLeft + offset, busRight + offset, n)
        }
        return alive
    }

    /// Runs the voice's own low-pass over `n` frames of `left` (and `right`,
    /// unless `nil`: a mono chain), its coefficient ramping in 16-frame steps
    /// until the ramp ends, then held; the ramp moves on by `n`.
    @_noLocks
    mutating func filterScratch(
        _ voice: UnsafeMutablePointer<RenderVoice>, _ left: UnsafeMutablePointer<Float>,
        _ right: UnsafeMutablePointer<Float>?, _ n: Int
    ) {
        let state = filterStates + 4 * Int(voice - voices)
        let ramp = voice.pointee.lowPass
        let ramped = min(n, ramp.framesLeft)
        if ramped > 0 { lowPass(left, right, ramped, state: state, coefficient: ramp.value, step: ramp.step) }
        if ramped < n {
            lowPass(
                left + ramped, right.map { $0 + ramped }, n - ramped, state: state,
                coefficient: ramp.value(after: ramped), step: 0)
        }
        voice.pointee.lowPass.advance(n)
    }

    /// Adds the filtered mono signal `source` (frames `offset..<quantum`,
    /// starting at `source`) to the bus planes with the voice's left/right
    /// gain ramps as they stood at `offset`, split where a ramp ends. Uses
    /// the linear mix kernel at a step of exactly one frame and fraction 0,
    /// which reads `source[k]` unchanged (the sample after the last is
    /// readable: the right scratch plane follows). `busRight` `nil`: only
    /// the left plane, with the left gains.
    @_noLocks
    mutating func panAdd(
        _ source: UnsafeMutablePointer<Float>, from offset: Int, gains: (GainRamp, GainRamp),
        into busLeft: UnsafeMutablePointer<Float>, _ busRight: UnsafeMutablePointer<Float>?
    ) {
        var (l, r) = gains
        var t = offset
        while t < quantum {
            var end = quantum
            if l.framesLeft > 0 { end = min(end, t + l.framesLeft) }
            if r.framesLeft > 0 { end = min(end, t + r.framesLeft) }
            let n = end - t
            let l0 = l.value, r0 = r.value
            let l1 = l.value(after: n), r1 = r.value(after: n)
            var segment = mk_segment(
                source: (UnsafePointer(source + (t - offset)), nil), position: 0, step: 1 &<< 32, gain: (l0, r0),
                gain_step: ((l1 - l0) / Float(n), (r1 - r0) / Float(n)), prefetch: (nil, nil))
            mix(0, &segment, busLeft + t, busRight.map { $0 + t }, n)
            l.advance(n)
            r.advance(n)
            t = end
        }
    }

    /// Mixes frames `offset..<quantum` of a playing voice into the planes
    /// `left`/`right` (a quantum long), splitting the quantum where a ramp or
    /// fade ends or a scheduled stop begins. `false` when the voice ended.
    /// `busRight` may be `nil` for a mono source (only the left plane is written).
    @_noLocks
    mutating func renderRuns(
        _ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int, into busLeft: UnsafeMutablePointer<Float>,
        _ busRight: UnsafeMutablePointer<Float>?, batchable: Bool = false
    ) -> Bool {
        let step = readStep(voice)
        var t = offset
        while t < quantum {
            if voice.pointee.stopTime <= clock + Int64(t) {
                beginStop(voice, fadeFrames: Int(voice.pointee.stopFadeFrames))
                if voice.pointee.phase == .idle { return false }
            }
            var end = quantum
            let v = voice.pointee
            if v.left.framesLeft > 0 { end = min(end, t + v.left.framesLeft) }
            if v.right.framesLeft > 0 { end = min(end, t + v.right.framesLeft) }
            if v.fade.framesLeft > 0 { end = min(end, t + v.fade.framesLeft) }
            if v.stopTime != .max { end = min(end, Int(v.stopTime - clock)) }
            let n = end - t
            let f0 = v.fade.value, f1 = v.fade.value(after: n)
            let left0 = v.left.value * f0, right0 = v.right.value * f0
            let left1 = v.left.value(after: n) * f1, right1 = v.right.value(after: n) * f1
            var run = VoiceRun(
                left: busLeft + t, right: busRight.map { $0 + t }, frames: n, step: step, gainLeft: left0,
                gainRight: right0, stepLeft: (left1 - left0) / Float(n), stepRight: (right1 - right0) / Float(n))
            let ended = v.stream >= 0 ? mixStream(voice, &run) : mixSound(voice, &run, batchable: batchable)
            voice.pointee.left.advance(n)
            voice.pointee.right.advance(n)
            voice.pointee.fade.advance(n)
            if ended {
                endVoice(Int(voice - voices))
                return false
            }
            if v.fade.framesLeft > 0 && voice.pointee.fade.framesLeft == 0 {
                switch voice.pointee.fadeEnd {
                case .stop:
                    endVoice(Int(voice - voices))
                    return false
                case .pause:
                    voice.pointee.fadeEnd = .nothing
                    voice.pointee.phase = .paused
                    return true
                case .virtualize:
                    // Faded out for the voice limit: silent from here, time still moving
                    // (or back at its start, for a voice that restarts).
                    becomeVirtual(voice)
                    return end < quantum ? advanceVirtual(voice, from: end) : true
                case .nothing:
                    break
                }
            }
            t = end
        }
        return true
    }

    /// Mixes `run` from an in-memory sound; `true` when the sound ended
    /// (a voice that does not loop passed its last frame).
    @_noLocks
    mutating func mixSound(_ voice: UnsafeMutablePointer<RenderVoice>, _ run: inout VoiceRun, batchable: Bool) -> Bool {
        let body = voice.pointee.body
        let looping = voice.pointee.looping
        var position = voice.pointee.position
        var done = 0
        while done < run.frames {
            let inLoopBody = voice.pointee.inLoopBody
            // The end of this stretch (SoundBody.readLimit).
            let limit = UInt64(body.readLimit(looping: looping, inLoopBody: inLoopBody)) &<< 32
            if position >= limit {
                guard looping else { break }
                if body.loopPlane0 != nil && !inLoopBody {
                    voice.pointee.inLoopBody = true
                } else {
                    reportMarkers(voice, before: limit)
                    position -= UInt64(body.loopEnd - body.loopStart) &<< 32
                    rewindMarkers(voice, to: body.loopStart)
                }
                continue
            }
            let n = min(run.frames - done, Int((limit - position + run.step - 1) / run.step))
            let (p0, p1) = body.planes(at: Int(position &>> 32), inLoopBody: inLoopBody)
            mixRun(&run, p0, p1, position & 0xFFFF_FFFF, done, n, voice.pointee.quality, batchable: batchable)
            position &+= UInt64(n) &* run.step
            done += n
        }
        voice.pointee.position = position
        reportMarkers(voice, before: position)
        return !looping && position >= UInt64(body.frames) &<< 32
    }

    /// Posts a marker event for every marker of the voice's sound below the
    /// read position `position` (32.32) not reported yet.
    @_noLocks @inline(__always)
    mutating func reportMarkers(_ voice: UnsafeMutablePointer<RenderVoice>, before position: UInt64) {
        guard let markers = voice.pointee.body.markers else { return }
        let count = voice.pointee.body.markerCount
        var next = Int(voice.pointee.nextMarker)
        while next < count && UInt64(markers[next]) &<< 32 < position {
            postMarker(voice, index: next)
            next += 1
        }
        voice.pointee.nextMarker = Int32(next)
    }

    /// Publishes where the voice in `slot` is in its source (``positions``):
    /// an in-memory voice's frame; a streamed one's, from the ring's start
    /// (its seek offset), wrapped into the source's length when known.
    @_noLocks @inline(__always)
    func publishPosition(_ slot: Int) {
        guard slot < maxVoices else { return }
        let v = voices[slot]
        var frame = Int(v.position &>> 32)
        if v.stream >= 0 {
            frame += v.streamBase + v.streamOffset
            if v.body.sourceFrames > 0 { frame %= v.body.sourceFrames }
        }
        let word = UInt64(v.generation & 0xFF_FFFF) &<< 40 | UInt64(frame) & 0xFF_FFFF_FFFF
        positions[slot].store(word, ordering: .relaxed)  // relaxed: one self-contained word
        let gain = v.left.value > v.right.value ? v.left.value : v.right.value
        let report = VoiceReportWord(
            generation: v.generation, phase: unsafeBitCast(v.phase, to: UInt8.self), isVirtual: v.isVirtual,
            stopping: v.fadeEnd == .stop || v.stopTime != .max, heardGain: v.isVirtual ? 0 : gain * v.fade.value)
        positions[maxVoices + slot].store(report.word, ordering: .relaxed)  // relaxed: one self-contained word (voiceReports[slot])
    }

    /// Tells the control side the voice crossed its sound's marker `index`.
    @_noLocks @inline(__always)
    mutating func postMarker(_ voice: UnsafeMutablePointer<RenderVoice>, index: Int) {
        let v = voice.pointee
        guard voice - voices < maxVoices else { return }  // a fade slot's voice tells nothing more
        post(
            RenderEvent(
                kind: .marker, voiceSlot: UInt32(voice - voices), voiceGeneration: v.generation,
                soundSlot: v.sound, soundGeneration: v.soundGeneration, count: index))
    }

    /// After a loop wrap: the next marker is the first at or after `frame`.
    @_noLocks @inline(__always)
    mutating func rewindMarkers(_ voice: UnsafeMutablePointer<RenderVoice>, to frame: Int) {
        guard let markers = voice.pointee.body.markers else { return }
        var next = 0
        while next < voice.pointee.body.markerCount && Int(markers[next]) < frame { next += 1 }
        voice.pointee.nextMarker = Int32(next)
    }

    /// Mixes `run` from a stream ring; `true` when the stream ended. A ring
    /// without enough decoded frames leaves the rest of the run silent,
    /// holds the position and reports the starvation.
    @_noLocks
    mutating func mixStream(_ voice: UnsafeMutablePointer<RenderVoice>, _ run: inout VoiceRun) -> Bool {
        let ring = streams[Int(voice.pointee.stream)]
        let shared = ring.shared
        let margin = ring.margin
        // acquiring (both): pair with the producer's releasing stores, which
        // publish the frames below `written` (and the silence after `endFrame`).
        let written = shared.pointee.written.load(ordering: .acquiring)
        let endFrame = shared.pointee.endFrame.load(ordering: .acquiring)
        let usable = endFrame != .max ? endFrame : written - margin
        let capacity = ring.capacity
        let stereo = voice.pointee.body.planes == 2
        var position = voice.pointee.position
        var base = voice.pointee.streamBase
        let firstFrame = base + Int(position &>> 32)
        var done = 0
        var ended = false
        while done < run.frames {
            if position >= UInt64(capacity) &<< 32 {
                position -= UInt64(capacity) &<< 32
                base += capacity
                continue
            }
            let limitFrame = min(capacity, usable - base)
            if limitFrame <= 0 || position >= UInt64(limitFrame) &<< 32 {
                if endFrame != .max && base + Int(position &>> 32) >= endFrame {
                    ended = true
                } else if !voice.pointee.starving {
                    voice.pointee.starving = true
                    atomics.pointee.starvations.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
                    let v = voice.pointee
                    if voice - voices < maxVoices { post(
                        RenderEvent(
                            kind: .streamStarved, voiceSlot: UInt32(voice - voices), voiceGeneration: v.generation,
                            soundSlot: v.sound, soundGeneration: v.soundGeneration)) }
                }
                break
            }
            voice.pointee.starving = false
            let limit = UInt64(limitFrame) &<< 32
            let n = min(run.frames - done, Int((limit - position + run.step - 1) / run.step))
            let k = Int(position &>> 32)
            mixRun(
                &run, UnsafePointer(ring.plane0 + k), stereo ? UnsafePointer(ring.plane1 + k) : nil,
                position & 0xFFFF_FFFF, done, n, voice.pointee.quality)
            position &+= UInt64(n) &* run.step
            done += n
        }
        voice.pointee.position = position
        voice.pointee.streamBase = base
        let lastFrame = base + Int(position &>> 32)
        // relaxed: a counter.
        if lastFrame > firstFrame {
            atomics.pointee.streamedFrames.wrappingAdd(UInt64(lastFrame - firstFrame), ordering: .relaxed)
        }
        // releasing: pairs with the producer's acquiring load before it
        // overwrites frames; our reads of frames below this happened before.
        shared.pointee.consumed.store(max(0, lastFrame - 8), ordering: .releasing)
        if lastFrame > firstFrame && voice.pointee.body.markers != nil {
            reportStreamMarkers(voice, from: firstFrame, to: lastFrame)
        }
        return ended
    }

    /// Reports the markers of a streamed voice's source frames read in this
    /// run: stream frames `first..<last`, where stream frame `f` is source
    /// frame `f mod sourceFrames` (a looping stream decodes the source again
    /// and again).
    @_noLocks
    mutating func reportStreamMarkers(_ voice: UnsafeMutablePointer<RenderVoice>, from streamFirst: Int, to streamLast: Int) {
        let body = voice.pointee.body
        guard let markers = body.markers, body.sourceFrames > 0 else { return }
        let lap = body.sourceFrames
        // Source frames: the ring starts at the stream's offset (a seek's target).
        let first = streamFirst + voice.pointee.streamOffset, last = streamLast + voice.pointee.streamOffset
        var from = first
        while from < last {
            let lapStart = from - from % lap
            let to = min(last, lapStart + lap)
            var i = 0
            while i < body.markerCount {
                let frame = lapStart + Int(markers[i])
                if frame >= from && frame < to { postMarker(voice, index: i) }
                i += 1
            }
            from = to
        }
    }

    /// Calls the kernel for `frames` frames of `run` starting `done` frames in.
    @inline(__always)
    mutating func mixRun(
        _ run: inout VoiceRun, _ plane0: UnsafePointer<Float>, _ plane1: UnsafePointer<Float>?, _ fraction: UInt64,
        _ done: Int, _ frames: Int, _ quality: UInt8, batchable: Bool = false
    ) {
        let d = Float(done)
        var segment = mk_segment(
            source: (plane0, plane1), position: fraction, step: run.step,
            gain: (run.gainLeft + run.stepLeft * d, run.gainRight + run.stepRight * d),
            gain_step: (run.stepLeft, run.stepRight), prefetch: (prefetch0, prefetch1))
        prefetch0 = nil
        prefetch1 = nil
        // Only a segment straight into a bus waits in the batch: everything
        // else that touches a bus's planes during the voice loop goes through
        // a kernel call that mixes the batch first (Kernels.swift), while a
        // scratch plane is read by Swift code too. And only an in-memory
        // sound's: a stream's ring goes back to the streamer once read.
        if batchable, let right = run.right {
            mixBatched(quality, &segment, run.left + done, right + done, frames)
        } else if let move = crossfade, let right = run.right {
            let frame = run.left - move.to + done
            mixCrossfade(
                quality, &segment, from: move.fromLeft + frame, move.fromRight + frame, to: run.left + done,
                right + done, frames, weight: Float(frame - move.start) * move.step, step: move.step)
        } else {
            mix(quality, &segment, run.left + done, run.right.map { $0 + done }, frames)
        }
    }
}

/// One stretch of a voice's output within a quantum: where it goes, how fast
/// it reads, and its linear gain ramps.
struct VoiceRun {
    let left: UnsafeMutablePointer<Float>
    /// `nil`: a mono source mixed into `left` only.
    let right: UnsafeMutablePointer<Float>?
    let frames: Int
    let step: UInt64
    let gainLeft: Float
    let gainRight: Float
    let stepLeft: Float
    let stepRight: Float
}
