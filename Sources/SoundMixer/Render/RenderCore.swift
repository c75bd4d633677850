import CMixKernels
import Synchronization

/// Everything the render thread touches, in memory allocated once when the
/// mixer is created: no Swift class, no array, no reference counting. The
/// render entry receives a pointer to it as its context.
///
/// Ownership by field: the plain mutable fields and the tables marked
/// "render" are read and written only by the render thread; "control" tables
/// are written only by the control side (under the mixer's mutex) at moments
/// when the render thread cannot be reading them, and handed over by a
/// releasing command push; the atomics are shared.
struct RenderCore {
    // MARK: Fixed at creation
    let quantum: Int
    let maxVoices: Int
    /// Slots after the `maxVoices` the control side uses, where a voice
    /// another one takes the place of fades out over the de-click (voice
    /// stealing, ``startVoice(_:)``); their ends are not reported.
    let fadeSlots: Int
    let maxBuses: Int
    let maxSounds: Int
    let declickFrames: Int
    let meterWindowQuanta: Int
    let kernels: OpaquePointer

    // MARK: Queues and atomics
    let commands: SPSCRing<Command>
    let events: SPSCRing<RenderEvent>
    let atomics: UnsafeMutablePointer<SharedAtomics>

    // MARK: Voices (render)
    let voices: UnsafeMutablePointer<RenderVoice>
    /// Slots of the voices that are not idle, `activeCount` of them.
    let active: UnsafeMutablePointer<Int32>
    var activeCount = 0
    /// Per voice slot: generation of the last voice that ended there (render
    /// stores with release; the control side loads with acquire to reuse the slot).
    let voiceEnded: UnsafeMutablePointer<Atomic<UInt32>>
    /// Per voice slot: where its voice is in its source, published after each
    /// quantum (``publishPosition(_:)``): the generation's low 24 bits, then
    /// the source frame in the low 40. Followed by ``voiceReports``
    /// (`2 × maxVoices` words in all).
    let positions: UnsafeMutablePointer<Atomic<UInt64>>
    /// Per voice slot, after ``positions``: what its voice is doing, published
    /// with its position (``VoiceReportWord``), for the live profiler.
    var voiceReports: UnsafeMutablePointer<Atomic<UInt64>> { positions + maxVoices }
    /// Per voice slot: the low-pass filter's four stage outputs (render).
    let filterStates: UnsafeMutablePointer<Float>
    /// Where a filtered voice is mixed before its filter: a left and a right
    /// plane of `quantum` frames, 64-byte aligned (render).
    let voiceScratch: UnsafeMutablePointer<Float>
    /// Per voice slot: what only some voices use, a placed voice's speaker
    /// gains (render; ``VoiceExtras``).
    let voiceExtras: UnsafeMutablePointer<VoiceExtras>

    // MARK: Batched low-pass (render)
    /// Whether filtered mono voices go through the batch (`MixerConfiguration.batchedLowPass`).
    let batchedLowPass: Bool
    /// `RenderCore.lowPassBatch` rows of `quantum` frames, each a batched
    /// voice's pre-filter mono signal, with `MK_GUARD_FRAMES` readable zeros
    /// before the first and after the last (the pan-add reads them).
    let batchRows: UnsafeMutablePointer<Float>
    /// The batch's kernel descriptions and what the pan-add needs, per row.
    let batchLanes: UnsafeMutablePointer<mk_lowpass_lane>
    let batchEntries: UnsafeMutablePointer<BatchEntry>
    var batchCount = 0
    /// The bus the batch's fused lanes are added to (the first lane's).
    var batchBus = 0

    // MARK: Shared low-pass (render; docs/mixer.md, "The shared low-pass")
    /// Whether low-passed voices share filters (`MixerConfiguration.sharedLowPass`).
    let sharedLowPass: Bool
    /// Whether steady voices take ``renderSteady(_:)`` (`MixerConfiguration.steadyVoicePath`).
    let steadyVoicePath: Bool
    /// Bands: cutoffs 10 Hz · 2^(b/8), b = 0..<bankBands.
    let bankBands: Int
    /// Coefficient of each band (`bankBands`).
    let bankCoefficients: UnsafeMutablePointer<Float>
    /// Coefficient at each boundary between band b and b + 1
    /// (`bankBands - 1`, falling: a higher cutoff has a smaller `p`).
    let bankBounds: UnsafeMutablePointer<Float>
    /// Per filter: its bus, band and whether a voice fed it this quantum.
    let bankSlots: UnsafeMutablePointer<BankSlot>
    /// Per filter: a left and a right plane of `quantum` frames, the sum of
    /// its voices this quantum (64-byte aligned).
    let bankPlanes: UnsafeMutablePointer<Float>
    /// Per filter: the two stage outputs of the left, then of the right chain.
    let bankStates: UnsafeMutablePointer<Float>
    /// `maxBuses × bankBands`: the filter of (bus, band), or -1.
    let bankIndex: UnsafeMutablePointer<Int16>
    /// The filters in use, ordered by bus, `bankLiveCount` of them.
    let bankLive: UnsafeMutablePointer<Int16>
    var bankLiveCount = 0
    /// The free filters, a stack of `bankFreeCount`.
    let bankFree: UnsafeMutablePointer<Int16>
    var bankFreeCount: Int
    /// Kernel descriptions, two lanes (left, right) per filter.
    let bankLanes: UnsafeMutablePointer<mk_lowpass_lane>
    /// Voices filtered on their own this quantum for want of a free filter.
    var voicesAlone = 0
    /// While a voice moves between shared filters or its bus
    /// (``bankFiltered(_:from:bus:)``), where it leaves from and how the
    /// move's weight runs: ``mixRun`` then mixes each run into both.
    var crossfade: Crossfade? = nil
    /// Whether the voice loop visits voices in band order (`MixerConfiguration.bandOrderedVoices`).
    let bandOrder: Bool
    /// The order the voice loop visits the active voices in when shared
    /// filters run (``orderByBand()``), `maxVoices + fadeSlots` slots.
    let visitOrder: UnsafeMutablePointer<Int32>
    /// Per voice slot: 1 + the band of the shared filter its voice fed last
    /// quantum, 0 for none (written by the voice loop).
    let visitKeys: UnsafeMutablePointer<Int32>
    /// `bankBands + 1` counts, the counting sort's.
    let visitCounts: UnsafeMutablePointer<Int32>

    // MARK: Voice limit (render)
    /// `MixerConfiguration.maxAudibleVoices`.
    let maxAudible: Int
    /// Ranking scratch, `maxVoices` entries (``RenderCore/applyVoiceLimit()``).
    let rankScratch: UnsafeMutablePointer<RankEntry>
    /// Whether the last quantum was over the limit or had virtual voices:
    /// the limit is checked again even if few voices are active.
    var limitEngaged = false
    /// Voices started so far (each voice's `serial`).
    var startSerial: UInt64 = 0

    // MARK: Sounds
    /// Sound table (control).
    let sounds: UnsafeMutablePointer<SoundBody>
    /// Voices per sound slot (render).
    let soundVoices: UnsafeMutablePointer<Int32>
    /// Generation being unloaded per sound slot, 0 = none (render).
    let soundUnloading: UnsafeMutablePointer<UInt32>
    /// Per sound slot: generation the render thread has released (render
    /// stores with release once no voice reads the sound; control loads with
    /// acquire before freeing its memory).
    let soundReleased: UnsafeMutablePointer<Atomic<UInt32>>

    // MARK: Streams
    let streams: UnsafeMutablePointer<StreamRing>
    let maxStreams: Int

    // MARK: Buses (render)
    /// `maxBuses` buffers of ``RenderCore/maxChannels`` planes of `quantum`
    /// frames each, in the output's channel order (front left, front right,
    /// …); the first ``RenderCore/busPlaneCount`` are in use.
    let busBuffers: UnsafeMutablePointer<Float>
    let busStates: UnsafeMutablePointer<RenderBusState>
    /// Per bus: last meter window, peak bits (high 32) and mean-square bits (low 32).
    let meters: UnsafeMutablePointer<Atomic<UInt64>>

    // MARK: Plans
    /// Three plans of `maxBuses` entries each (the triple buffer).
    let planEntries: UnsafeMutablePointer<PlanEntry>
    /// Valid entries of each plan (written by whoever owns that buffer).
    let planCounts: UnsafeMutablePointer<Int>
    /// Each plan buffer's generation (written with it by the control side).
    let planGenerations: UnsafeMutablePointer<UInt64>
    /// ``RenderCore/maxChannels`` silent planes: the sidechain of a keying
    /// bus that has nothing this quantum (render; never written).
    let silentPlanes: UnsafeMutablePointer<Float>
    /// The plan the render thread mixes with (render).
    var frontPlan = 0

    // MARK: Master and output (render)
    /// Channels of the mix: 2 for a mono or stereo output (a mono output
    /// gets the stereo mix's average), else the output's (3…8). Changes at
    /// a quantum's start (docs/mixer.md, "Surround").
    var mixChannels = 2
    var masterGain = GainRamp(1)
    var lastMasterRequest = UInt64(Float(1).bitPattern)
    /// Frames of the current quantum already copied out; `quantum` = none left.
    var carryOffset: Int
    /// Mixer frame of the first frame of the next quantum.
    var clock: Int64 = 0
    var engineRate: Double
    /// Render events lost to a full event ring, not yet reported.
    var unreportedDrops = 0
    /// Samples a voice a few places ahead will read (`renderQuantum`): the
    /// kernels prefetch them while mixing (see `mk_segment.prefetch`); taken by the first run.
    var prefetch0: UnsafePointer<Float>?
    var prefetch1: UnsafePointer<Float>?
    /// Segments waiting to be mixed together into the same planes
    /// (``mixBatched``; room for `MK_BATCH_MAX`), and how many and where
    /// they go: every other kernel call mixes them first.
    let mixBatchSegments: UnsafeMutablePointer<mk_segment>
    let mixBatch: UnsafeMutablePointer<MixBatch>
    /// Voices with the same settled sends gathered in ``sendScratch``
    /// (``renderWithSends``): added to their buses once, at the group's end.
    var sendGroup = SendGroup()

    /// Left and right planes of bus `bus` (channels 0 and 1).
    @_noLocks @inline(__always)
    func busPlanes(_ bus: Int) -> (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) {
        let left = busBuffers + bus * Self.maxChannels * quantum
        return (left, left + quantum)
    }
}

extension RenderCore {
    /// Filtered mono voices per batch: one per AVX-512 lane.
    static var lowPassBatch: Int { @_noLocks @inline(__always) get { 16 } }

    /// Allocates and initialises a core for `configuration` (validated).
    /// How many voices can fade out at once while others take their slots.
    static let fadeSlotCount = 16

    static func make(_ configuration: MixerConfiguration, commandSlots: Int) -> UnsafeMutablePointer<RenderCore> {
        let c = configuration
        func table<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(count, 1))
            p.initialize(repeating: value, count: max(count, 1))
            return p
        }
        func atomics(_ count: Int) -> UnsafeMutablePointer<Atomic<UInt32>> {
            let p = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: count)
            for i in 0..<count { (p + i).initialize(to: Atomic(0)) }
            return p
        }
        let positions = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: 2 * c.maxVoices)
        for i in 0..<2 * c.maxVoices { (positions + i).initialize(to: Atomic(0)) }
        let shared = UnsafeMutablePointer<SharedAtomics>.allocate(capacity: 1)
        shared.initialize(to: SharedAtomics())
        shared.pointee.limiter.store(c.limiter, ordering: .relaxed)  // relaxed: before any other thread exists
        shared.pointee.outputFormat.store(
            OutputFormatWord(sampleRate: c.sampleRate, channels: 2, isInt16: false).word, ordering: .relaxed)
        let meters = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: c.maxBuses)
        for i in 0..<c.maxBuses { (meters + i).initialize(to: Atomic(0)) }
        let streams = UnsafeMutablePointer<StreamRing>.allocate(capacity: max(c.maxStreams, 1))
        for i in 0..<c.maxStreams { (streams + i).initialize(to: StreamRing(capacity: c.streamBufferFrames)) }
        let kernels = mk_select_kernels(c.kernels.choice)!  // validated: the CPU supports the set
        // Cache-line aligned (every plane then is too: a quantum is a power of
        // two ≥ 64 frames), so no vector load or store of a bus splits a line.
        let busFloats = c.maxBuses * Self.maxChannels * c.quantumFrames
        let busBuffers = UnsafeMutableRawPointer.allocate(byteCount: busFloats * 4, alignment: 64)
            .initializeMemory(as: Float.self, repeating: 0, count: busFloats)

        // The filter's (and a placed voice's) two planes, then a voice with aux sends' output (``sendScratch``).
        let scratchFloats = (2 + Self.maxChannels) * c.quantumFrames
        let voiceScratch = UnsafeMutableRawPointer.allocate(byteCount: scratchFloats * 4, alignment: 64)
            .initializeMemory(as: Float.self, repeating: 0, count: scratchFloats)

        let rowFloats = lowPassBatch * c.quantumFrames + 2 * Int(MK_GUARD_FRAMES)
        let batchRows = UnsafeMutableRawPointer.allocate(byteCount: rowFloats * 4, alignment: 64)
            .initializeMemory(as: Float.self, repeating: 0, count: rowFloats)
        let bank = LowPassBank.make(c)
        let blankLane = mk_lowpass_lane(
            row: batchRows, state: batchRows, start: 0, ramp_end: 0, coefficient: 0, coefficient_step: 0, hold: 0,
            fuse: 0, gain: (0, 0), gain_step: (0, 0))

        let core = UnsafeMutablePointer<RenderCore>.allocate(capacity: 1)
        core.initialize(
            to: RenderCore(
                quantum: c.quantumFrames, maxVoices: c.maxVoices, fadeSlots: Self.fadeSlotCount,
                maxBuses: c.maxBuses, maxSounds: c.maxSounds,
                declickFrames: c.declickFrames,
                meterWindowQuanta: max(1, (c.meterWindowFrames + c.quantumFrames - 1) / c.quantumFrames),
                kernels: kernels,
                commands: SPSCRing(capacity: commandSlots), events: SPSCRing(capacity: c.eventQueueCapacity),
                atomics: shared,
                voices: table(c.maxVoices + Self.fadeSlotCount, RenderVoice()),
                active: table(c.maxVoices + Self.fadeSlotCount, Int32(0)),
                voiceEnded: atomics(c.maxVoices), positions: positions, filterStates: table(4 * (c.maxVoices + Self.fadeSlotCount), Float(0)),
                voiceScratch: voiceScratch, voiceExtras: table(c.maxVoices + Self.fadeSlotCount, VoiceExtras()),
                batchedLowPass: c.batchedLowPass, batchRows: batchRows,
                batchLanes: table(lowPassBatch, blankLane), batchEntries: table(lowPassBatch, BatchEntry()),
                sharedLowPass: c.sharedLowPass && bank.capacity > 0, steadyVoicePath: c.steadyVoicePath,
                bankBands: bank.bands,
                bankCoefficients: bank.coefficients, bankBounds: bank.bounds,
                bankSlots: table(bank.capacity, BankSlot()), bankPlanes: bank.planes,
                bankStates: table(4 * bank.capacity, Float(0)),
                bankIndex: table(c.maxBuses * bank.bands, Int16(-1)),
                bankLive: table(bank.capacity, Int16(0)),
                bankFree: bank.free, bankFreeCount: bank.capacity,
                bankLanes: table(2 * bank.capacity, blankLane),
                bandOrder: c.bandOrderedVoices, visitOrder: table(c.maxVoices + Self.fadeSlotCount, Int32(0)),
                visitKeys: table(c.maxVoices + Self.fadeSlotCount, Int32(0)),
                visitCounts: table(bank.bands + 1, Int32(0)),
                maxAudible: c.maxAudibleVoices, rankScratch: table(c.maxVoices + Self.fadeSlotCount, RankEntry()),
                sounds: table(c.maxSounds, SoundBody.empty), soundVoices: table(c.maxSounds, Int32(0)),
                soundUnloading: table(c.maxSounds, UInt32(0)), soundReleased: atomics(c.maxSounds),
                streams: streams, maxStreams: c.maxStreams,
                busBuffers: busBuffers, busStates: table(c.maxBuses, RenderBusState()), meters: meters,
                planEntries: table(3 * c.maxBuses, PlanEntry(bus: 0, parent: -1, gain: 1, rampFrames: 0, meterEvents: false)),
                planCounts: table(3, 1), planGenerations: table(3, UInt64(0)),
                silentPlanes: table(Self.maxChannels * c.quantumFrames, Float(0)),
                carryOffset: c.quantumFrames, engineRate: Double(c.sampleRate),
                mixBatchSegments: table(Int(MK_BATCH_MAX), mk_segment()), mixBatch: table(1, MixBatch())))
        return core
    }

    /// Frees everything `make` allocated. No thread may use the core during or after.
    static func destroy(_ core: UnsafeMutablePointer<RenderCore>) {
        let c = core.pointee
        c.commands.deallocate()
        c.events.deallocate()
        c.atomics.deinitialize(count: 1)
        c.atomics.deallocate()
        c.voices.deallocate()
        c.active.deallocate()
        c.voiceEnded.deinitialize(count: c.maxVoices)
        c.voiceEnded.deallocate()
        c.positions.deinitialize(count: 2 * c.maxVoices)
        c.positions.deallocate()
        c.filterStates.deallocate()
        c.mixBatchSegments.deallocate()
        c.mixBatch.deallocate()
        UnsafeMutableRawPointer(c.voiceScratch).deallocate()  // allocated raw, 64-byte aligned
        c.voiceExtras.deallocate()
        UnsafeMutableRawPointer(c.batchRows).deallocate()  // allocated raw, 64-byte aligned
        c.batchLanes.deallocate()
        c.batchEntries.deallocate()
        c.bankCoefficients.deallocate()
        c.bankBounds.deallocate()
        c.bankSlots.deallocate()
        UnsafeMutableRawPointer(c.bankPlanes).deallocate()  // allocated raw, 64-byte aligned
        c.bankStates.deallocate()
        c.bankIndex.deallocate()
        c.bankLive.deallocate()
        c.bankFree.deallocate()
        c.bankLanes.deallocate()
        c.visitOrder.deallocate()
        c.visitKeys.deallocate()
        c.visitCounts.deallocate()
        c.rankScratch.deallocate()
        c.sounds.deallocate()
        c.soundVoices.deallocate()
        c.soundUnloading.deallocate()
        c.soundReleased.deinitialize(count: c.maxSounds)
        c.soundReleased.deallocate()
        for i in 0..<c.maxStreams { c.streams[i].deallocate() }
        c.streams.deallocate()
        UnsafeMutableRawPointer(c.busBuffers).deallocate()  // allocated raw, 64-byte aligned
        c.busStates.deallocate()
        c.meters.deinitialize(count: c.maxBuses)
        c.meters.deallocate()
        c.planEntries.deallocate()
        c.planCounts.deallocate()
        c.planGenerations.deallocate()
        c.silentPlanes.deallocate()
        core.deinitialize(count: 1)
        core.deallocate()
    }
}

extension RenderCore {
    /// Where a voice with aux sends is mixed whole (``maxChannels`` planes of
    /// a quantum, after the filter's scratch) before it is added to its bus
    /// and, scaled, to each send's bus.
    var sendScratch: UnsafeMutablePointer<Float> { @_noLocks @inline(__always) get { voiceScratch + 2 * quantum } }
}
