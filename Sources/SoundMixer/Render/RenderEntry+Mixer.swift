import CMixKernels
import SoundCore

/// The mixer's render entry: the `@convention(c)` function a backend calls on
/// its real-time thread with the mixer's render core as `context`.
///
/// Checked by the compiler (`@_noLocks`): nothing it calls may lock,
/// allocate, retain or release, use existentials or unspecialised generics.
@_noLocks
func mixerRenderEntry(_ context: UnsafeMutableRawPointer?, _ destination: UnsafeMutableRawPointer, _ frames: Int) {
    guard let context, frames > 0 else { return }
    // Denormals flushed to zero while mixing (a fade or filter tail never
    // takes the slow path); the caller's floating-point mode is restored.
    // (C, nonblocking-checked by clang like the kernels: see Kernels.swift.)
    let fpu = _unsafePerformance { mk_fpu_enter() }
    context.assumingMemoryBound(to: RenderCore.self).pointee.render(into: destination, frames: frames)
    _unsafePerformance { mk_fpu_leave(fpu) }
}

extension RenderCore {
    /// Fills `frames` frames of `destination` in the current output format,
    /// mixing new quanta as needed and keeping the rest of the last one for
    /// the next call.
    @_noLocks
    mutating func render(into destination: UnsafeMutableRawPointer, frames: Int) {
        let shared = atomics
        // relaxed: the format is one self-contained word.
        let format = OutputFormatWord(word: shared.pointee.outputFormat.load(ordering: .relaxed))
        let bytesPerFrame = format.channels * (format.isInt16 ? 2 : 4)
        // acquiring: pairs with the releasing store at the end of the previous
        // call, so this call sees all the render state that call left.
        if shared.pointee.rendering.exchange(true, ordering: .acquiring) {
            shared.pointee.overlappingRenderCalls.wrappingAdd(1, ordering: .relaxed)
            zero(destination, bytes: frames * bytesPerFrame)
            return
        }
        shared.pointee.renderCalls.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
        engineRate = Double(format.sampleRate)
        var done = 0
        while done < frames {
            if carryOffset == quantum {
                // A new layout takes effect with a whole quantum (the rest of
                // the last one is written as it was mixed).
                mixChannels = Self.mixChannels(forOutput: format.channels)
                let start = _unsafePerformance { mk_monotonic_ns() }
                renderQuantum()
                timeQuantum(since: start)
                carryOffset = 0
            }
            let n = min(frames - done, quantum - carryOffset)
            writeMaster(from: carryOffset, n, to: destination + done * bytesPerFrame, format)
            carryOffset += n
            done += n
        }
        // releasing: pairs with the acquiring exchange of the next call (any thread).
        shared.pointee.rendering.store(false, ordering: .releasing)
    }

    /// Publishes how long the quantum that began at `start` took to mix
    /// (``SharedAtomics/renderNanosLast`` and the others): four atomic
    /// operations and a clock read, nothing else.
    @_noLocks
    func timeQuantum(since start: UInt64) {
        let elapsed = _unsafePerformance { mk_monotonic_ns() } &- start
        let shared = atomics
        // relaxed (all four): published numbers; the sampler reads each on its
        // own and a mean a quantum off is fine. The max is a load-then-store,
        // not a compare-exchange: only this thread raises it, and the
        // sampler's exchange of 0 that a store overwrites loses one reading.
        shared.pointee.renderNanosLast.store(elapsed, ordering: .relaxed)
        shared.pointee.renderNanosSum.wrappingAdd(elapsed, ordering: .relaxed)
        shared.pointee.renderQuantaTimed.wrappingAdd(1, ordering: .relaxed)
        if elapsed > shared.pointee.renderNanosMax.load(ordering: .relaxed) {
            shared.pointee.renderNanosMax.store(elapsed, ordering: .relaxed)
        }
    }

    /// Applies queued commands and the published bus plan without mixing:
    /// the clock does not move. For a paused output, so the command queue
    /// drains while nothing renders. Same one-thread rule as `render`.
    @_noLocks
    mutating func applyWithoutRendering() {
        let shared = atomics
        // acquiring/releasing: as in render(into:frames:).
        if shared.pointee.rendering.exchange(true, ordering: .acquiring) {
            shared.pointee.overlappingRenderCalls.wrappingAdd(1, ordering: .relaxed)
            return
        }
        applyCommands()
        takePublishedPlan()
        // Nothing is heard while held: a voice on its way out (stop fade)
        // ends now, so its slot and its completion do not wait for the output.
        var i = 0
        while i < activeCount {
            let slot = Int(active[i])
            if voices[slot].fadeEnd == .stop {
                endVoice(slot)  // the last active voice moved into index i
            } else {
                if voices[slot].fadeEnd == .virtualize {  // faded out for the voice limit: virtual now
                    becomeVirtual(voices + slot)
                }
                i += 1
            }
        }
        shared.pointee.voicesActive.store(activeCount, ordering: .relaxed)  // relaxed: a published number
        shared.pointee.rendering.store(false, ordering: .releasing)
    }

    /// Mixes one quantum into the master bus buffer.
    @_noLocks
    mutating func renderQuantum() {
        applyCommands()
        takePublishedPlan()
        if maxAudible < maxVoices && (activeCount > maxAudible || limitEngaged) { applyVoiceLimit() }
        renderVoices()
        flushSendGroup()
        flushMixBatch()
        flushLowPassBatch()
        flushBank()
        mixBuses()
        clock += Int64(quantum)
        let shared = atomics
        // relaxed (all three): published numbers, nothing else is read on their strength.
        shared.pointee.renderedFrames.store(clock, ordering: .relaxed)
        shared.pointee.quantaRendered.wrappingAdd(1, ordering: .relaxed)
        shared.pointee.voicesActive.store(activeCount, ordering: .relaxed)
        if sharedLowPass {
            shared.pointee.sharedFilters.store(bankLiveCount, ordering: .relaxed)
            shared.pointee.voicesFilteredAlone.store(voicesAlone, ordering: .relaxed)
            voicesAlone = 0
        }
    }

    /// Mixes every active voice's quantum (the voice loop of
    /// ``renderQuantum()``, apart so the steady path inlines into it).
    @_noLocks @inline(never)
    mutating func renderVoices() {
        // Have the kernels load the samples of a voice a few places ahead
        // while they mix this one: at large voice counts the mix waits on
        // memory, not arithmetic. Voices straight into one bus are mixed in
        // batches of MK_BATCH_MAX, all of a batch at once (mk_mix_batch), so
        // the voice to load is the one in the same place of the next batch:
        // one batch ahead, as limit-c does. Nothing here is tuned to a
        // machine (before batches, distance 5 won on one machine; on another
        // it made no difference: docs/performance.md).
        let prefetchDistance = Int(MK_BATCH_MAX)
        // bankLiveCount stays 0 unless sharedLowPass is on.
        let sorted = bandOrder && bankLiveCount > 0 && orderByBand()
        let order = sorted ? visitOrder : active
        var i = 0, end = activeCount
        while i < end {
            if i + prefetchDistance < end { spreadPrefetch(Int(order[i + prefetchDistance])) }
            let slot = Int(order[i])
            if (steadyVoicePath && renderSteady(slot)) || renderVoice(slot) {
                publishPosition(slot)
                // Keys for the next quantum's order, needed only while filters
                // run (read live: a filter may open during this loop).
                if bandOrder && bankLiveCount > 0 {
                    // A band (0..<bankBands) is key 1 + band; anything else 0,
                    // so a key always indexes orderByBand's counts.
                    let route = Int(voices[slot].route)
                    visitKeys[slot] = route >= 0 && route < bankBands ? Int32(truncatingIfNeeded: route + 1) : 0
                }
                i += 1
            } else if sorted {
                i += 1  // the order is a snapshot: the voice that ended left the active list only
            } else {
                end = activeCount  // the voice ended and the last active voice moved into index i
            }
        }
    }

    /// Queues `event` (a meter reading, a starvation) for the control side;
    /// counts it as lost when the queue is full. Voice ends go through
    /// ``postEnd(_:)``, which never loses one.
    @_noLocks
    mutating func post(_ event: RenderEvent) {
        let shared = atomics
        reportDrops()
        if unreportedDrops == 0 && events.pushEvent(event) {
            shared.pointee.eventsPosted.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
        } else {
            unreportedDrops += 1
            shared.pointee.eventsDropped.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
        }
    }

    /// Queues a voice end. The caller has already stored the end in
    /// `voiceEnded[slot]`; when the ring is full the end is counted in
    /// `voiceEndsDeferred` instead, and `drainEvents` finds it by sweeping the
    /// slots. So every end reaches the control side whatever the burst, with
    /// no allocation here and a ring of any size.
    @_noLocks
    mutating func postEnd(_ event: RenderEvent) {
        let shared = atomics
        reportDrops()
        if events.pushEvent(event) {
            shared.pointee.eventsPosted.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
        } else {
            // releasing: pairs with the acquiring load in drainEvents, so a
            // drain that sees this count also sees the voiceEnded store before it.
            shared.pointee.voiceEndsDeferred.wrappingAdd(1, ordering: .releasing)
        }
    }

    /// Reports lost events (`eventsDropped`) as soon as there is room, before
    /// anything newer.
    @_noLocks
    mutating func reportDrops() {
        if unreportedDrops > 0 && events.pushEvent(RenderEvent(kind: .eventsDropped, count: unreportedDrops)) {
            unreportedDrops = 0
        }
    }
}
