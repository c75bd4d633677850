package import SoundCore
import CMixKernels
import Synchronization

/// The real-time mixer: voices playing in-memory and streamed sounds, routed
/// through a tree of buses to one output. See docs/mixer.md.
///
/// Two worlds (docs/mixer.md, "The two worlds"):
/// - the **control world**: every method of this class, from any thread.
///   Methods validate their arguments, may allocate and lock briefly, and
///   throw `SoundEngineError` changing nothing when they refuse. Changes reach
///   the render thread as commands through a bounded lock-free queue (a full
///   queue throws `commandQueueFull` and counts it) or, for the bus graph, as
///   an immutable plan swapped in atomically.
/// - the **render world**: the function in ``renderEntry``, called by one
///   thread at a time (the backend's real-time thread). It mixes in quanta of
///   ``MixerConfiguration/quantumFrames``, never locks, allocates or waits,
///   and reports back through an event queue (``drainEvents(_:)``).
///
/// Threads: the mixer starts one, the streaming thread, with the first
/// streamed voice; ``shutdown()`` (or deinit) stops it. The render thread
/// and the event thread belong to the engine.
///
/// Lifetime: the mixer must outlive every use of its ``renderEntry``: close
/// the backend before releasing the mixer.
package final class Mixer: @unchecked Sendable {
    // @unchecked: `core` is mutated only by the one render thread (the control
    // side writes its handed-over tables as RenderCore documents); all other
    // mutable state is behind `control`, `drain` or inside `streamer`.

    /// Bytes one command takes in the command queue: the divisor of
    /// ``MixerConfiguration/commandQueueBytes``.
    package static let commandSlotBytes = MemoryLayout<Command>.stride

    /// The configuration the mixer was created with.
    package let configuration: MixerConfiguration

    let core: UnsafeMutablePointer<RenderCore>
    let control: ControlLock<ControlState>
    /// Serialises the consumers of the event ring.
    let drain = ControlLock(())
    let streamer: Streamer

    /// Creates a mixer and preallocates everything it will use: voices,
    /// buses, sound table, stream rings, queues.
    ///
    /// - Throws: `invalidParameter` naming the first field of `configuration` out of range.
    package init(_ configuration: MixerConfiguration = MixerConfiguration()) throws(SoundEngineError) {
        try configuration.validate()
        self.configuration = configuration
        let slots = configuration.commandQueueBytes / Self.commandSlotBytes
        core = RenderCore.make(configuration, commandSlots: slots)
        control = ControlLock(ControlState(configuration))
        streamer = Streamer(core: core)
    }

    deinit {
        streamer.stop()
        control.withLock { state in
            state.arena.removeAll()
            for bus in state.graph.buses { for effect in bus.effects { effect?.block.free() } }
            for retired in state.retiredEffects { retired.block.free() }
            state.retiredEffects.removeAll()
        }
        RenderCore.destroy(core)
    }

    /// Stops the streaming thread and closes its sources; streamed voices
    /// starve from then on. Call after the backend stopped rendering; idempotent;
    /// deinit calls it too.
    package func shutdown() {
        streamer.stop()
    }

    // MARK: - Output

    /// The function and context a backend calls on its real-time thread to
    /// fill an output buffer with `frames` frames (any count) in the current
    /// output format (``setOutputFormat(_:)``, stereo float32 at the
    /// configured rate until then). One thread at a time: an overlapping
    /// call writes silence and counts ``MixerStatistics/overlappingRenderCalls``.
    package var renderEntry: RenderEntry {
        RenderEntry(function: mixerRenderEntry, context: UnsafeMutableRawPointer(core))
    }

    /// Renders `frames` frames into `destination` on the calling thread,
    /// through the same entry a backend calls (offline bounces, tests,
    /// benchmarks). Not concurrently with a backend rendering this mixer.
    package func render(into destination: UnsafeMutableRawPointer, frames: Int) {
        mixerRenderEntry(UnsafeMutableRawPointer(core), destination, frames)
    }

    /// Applies the queued commands without rendering (voices hold their
    /// place, the clock does not move), so the command queue never fills
    /// while the output is paused. Render world: never concurrently with a
    /// backend rendering this mixer (an overlapping call does nothing and
    /// counts ``MixerStatistics/overlappingRenderCalls``). A voice being
    /// stopped ends at once (nothing is heard while held), so its slot is
    /// free again and its completion runs.
    package func applyPendingCommands() {
        core.pointee.applyWithoutRendering()
    }

    /// Sets the format the render entry writes: the one the server granted.
    /// float32 or int16; any channel count ≥ 1. One or two channels get the
    /// stereo mix (one: (L + R) / 2); 3 to 8 get a mix in their layout
    /// (docs/mixer.md, "Surround": 2D voices on the front pair, placed
    /// voices over the speakers); more than 8 the 7.1 mix, then silence.
    /// When the layout changes, every placed voice is placed again. A different
    /// sample rate becomes the mix rate (voices keep their pitch; frame counts
    /// given to other calls are at the new rate). Takes effect at the next
    /// render call; safe while rendering.
    ///
    /// - Throws: `invalidParameter` for 0 or more than 64 channels or a rate outside 8000…384000.
    package func setOutputFormat(_ format: StreamFormat) throws(SoundEngineError) {
        guard (1...64).contains(format.channelCount) else {
            throw .invalidParameter("output channelCount \(format.channelCount) must be 1…64")
        }
        guard (8000...384_000).contains(format.sampleRate) else {
            throw .invalidParameter("output sampleRate \(format.sampleRate) must be 8000…384000")
        }
        let word = OutputFormatWord(
            sampleRate: format.sampleRate, channels: format.channelCount, isInt16: format.sampleFormat == .int16)
        control.withLock { state in
            let before = outputFormat.channelCount
            // relaxed: one self-contained word, read once per render call.
            core.pointee.atomics.pointee.outputFormat.store(word.word, ordering: .relaxed)
            if RenderCore.mixChannels(forOutput: before) != RenderCore.mixChannels(forOutput: format.channelCount) {
                placeAgain(state)
            }
        }
    }

    /// The format the render entry writes now.
    package var outputFormat: StreamFormat {
        // relaxed: one self-contained word.
        let f = OutputFormatWord(word: core.pointee.atomics.pointee.outputFormat.load(ordering: .relaxed))
        return StreamFormat(sampleRate: f.sampleRate, channelCount: f.channels, sampleFormat: f.isInt16 ? .int16 : .float32)
    }

    /// Ramps the master gain (after the master bus volume) to `gain` over
    /// `rampFrames` frames. Never queued, never refused: the engine uses it to
    /// fade around suspends, interruptions and stream switches, and can watch
    /// ``currentMasterGain`` to know when the fade is done. A newer call
    /// replaces an unfinished ramp from wherever it got to.
    ///
    /// `gain` must be finite and 0…16 and `rampFrames` 0…2^31−1 (a
    /// programmer error otherwise: it traps).
    package func setMasterGain(_ gain: Float, rampFrames: Int) {
        precondition(gain.isFinite && gain >= 0 && gain <= 16, "setMasterGain: gain \(gain) must be finite, 0…16")
        precondition(rampFrames >= 0 && rampFrames <= Int(Int32.max), "setMasterGain: rampFrames must be 0…2^31-1")
        // relaxed: one self-contained word (target bits, ramp frames); the render
        // thread compares it with the last one it saw.
        core.pointee.atomics.pointee.masterGainRequest.store(
            UInt64(gain.bitPattern) | UInt64(rampFrames) << 32, ordering: .relaxed)
    }

    /// The master gain as of the end of the last rendered quantum.
    package var currentMasterGain: Float {
        // relaxed: a published number.
        Float(bitPattern: core.pointee.atomics.pointee.masterGainNow.load(ordering: .relaxed))
    }

    /// Turns the master soft clip (``MixerConfiguration/limiter``) on or off from the next quantum.
    package func setLimiter(_ enabled: Bool) {
        core.pointee.atomics.pointee.limiter.store(enabled, ordering: .relaxed)  // relaxed: a setting word
    }

    /// `duration` in frames at the current mix rate (rounded to nearest),
    /// for the frame counts the other calls take, e.g.
    /// `stop(voice, fadeOutFrames: mixer.frames(.milliseconds(200)))`. For
    /// times already checked or the engine's own: it saturates at 0 and
    /// 2^31−1 frames rather than trapping (``TimeArgument/frames(_:sampleRate:)``).
    package func frames(_ duration: Duration) -> Int {
        TimeArgument.frames(duration, sampleRate: outputFormat.sampleRate)
    }

    /// `duration` in frames, as ``frames(_:)``, after checking it with the
    /// engine's one rule for times: 0…3600 s (``TimeArgument``).
    /// - Throws: `invalidParameter` naming `what`, the duration and the range.
    package func frames(_ duration: Duration, checking what: String) throws(SoundEngineError) -> Int {
        try TimeArgument.frames(duration, what, sampleRate: outputFormat.sampleRate)
    }

    /// The mixer clock: frames of all quanta rendered so far (the time base of ``VoiceStart/atFrame(_:)``).
    package var renderedFrames: Int64 {
        core.pointee.atomics.pointee.renderedFrames.load(ordering: .relaxed)  // relaxed: a published number
    }

    /// Counters since creation, from any thread.
    package var statistics: MixerStatistics {
        let a = core.pointee.atomics
        var s = MixerStatistics()
        // relaxed (all): independent counters; a snapshot is not one instant.
        s.commandsQueued = a.pointee.commandsQueued.load(ordering: .relaxed)
        s.commandsProcessed = a.pointee.commandsProcessed.load(ordering: .relaxed)
        s.commandsRejected = a.pointee.commandsRejected.load(ordering: .relaxed)
        s.quantaRendered = a.pointee.quantaRendered.load(ordering: .relaxed)
        s.renderCalls = a.pointee.renderCalls.load(ordering: .relaxed)
        s.overlappingRenderCalls = a.pointee.overlappingRenderCalls.load(ordering: .relaxed)
        s.voicesActive = a.pointee.voicesActive.load(ordering: .relaxed)
        s.sharedLowPassFilters = a.pointee.sharedFilters.load(ordering: .relaxed)
        s.voicesFilteredAlone = a.pointee.voicesFilteredAlone.load(ordering: .relaxed)
        s.starvations = a.pointee.starvations.load(ordering: .relaxed)
        s.streamedFrames = a.pointee.streamedFrames.load(ordering: .relaxed)
        s.eventsPosted = a.pointee.eventsPosted.load(ordering: .relaxed)
        s.eventsDropped = a.pointee.eventsDropped.load(ordering: .relaxed)
        s.voiceEndsDeferred = a.pointee.voiceEndsDeferred.load(ordering: .relaxed)
        s.virtualVoices = a.pointee.virtualVoices.load(ordering: .relaxed)
        s.voicesKilledByLimit = a.pointee.voicesKilledByLimit.load(ordering: .relaxed)
        s.voicesStolen = control.withLock { $0.voicesStolen }
        s.kernels = kernelName
        return s
    }

    /// Name of the kernel set mixing: "avx512", "avx2+fma" or "portable".
    package var kernelName: String {
        String(cString: mk_kernel_name(core.pointee.kernels))
    }

    // MARK: - Commands

    /// Queues `command`, and `then` with it (all or none: the render thread
    /// takes them in one quantum); the caller holds the control lock (one producer).
    func push(_ command: Command, then: [Command] = []) throws(SoundEngineError) {
        let a = core.pointee.atomics
        let pushed = then.isEmpty ? core.pointee.commands.push(command) : core.pointee.commands.push(command, then)
        guard pushed else {
            a.pointee.commandsRejected.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
            throw .commandQueueFull(
                "the command queue is full (\(core.pointee.commands.capacity) commands of \(Self.commandSlotBytes) bytes; "
                    + "MixerConfiguration.commandQueueBytes); is the mixer rendering?")
        }
        a.pointee.commandsQueued.wrappingAdd(UInt64(1 + then.count), ordering: .relaxed)  // relaxed: a counter
    }
}
