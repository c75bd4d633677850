import Synchronization

/// The mixer's atomics: counters, clocks and settings that cross between the
/// worlds as single words. Allocated once with the render core.
///
/// Orderings: the counters and published values are `relaxed` (each is a
/// self-contained number; no other memory is read on the strength of it).
/// The ones that hand memory over say so at their use.
struct SharedAtomics: ~Copyable {
    /// Frames of rendered quanta: the mixer clock (render writes).
    let renderedFrames = Atomic<Int64>(0)
    let commandsQueued = Atomic<UInt64>(0)
    let commandsProcessed = Atomic<UInt64>(0)
    let commandsRejected = Atomic<UInt64>(0)
    let quantaRendered = Atomic<UInt64>(0)
    let renderCalls = Atomic<UInt64>(0)
    let overlappingRenderCalls = Atomic<UInt64>(0)
    let voicesActive = Atomic<Int>(0)
    /// Shared low-pass filters running, and voices filtered alone for want of one.
    let sharedFilters = Atomic<Int>(0)
    let voicesFilteredAlone = Atomic<Int>(0)
    let starvations = Atomic<UInt64>(0)
    let streamedFrames = Atomic<UInt64>(0)
    let eventsPosted = Atomic<UInt64>(0)
    let eventsDropped = Atomic<UInt64>(0)
    /// Voice ends that found the event ring full. Not lost: the render thread
    /// stored the end in `voiceEnded[slot]` first, and the control side
    /// sweeps those slots when this count moves (render increments with
    /// release; `drainEvents` loads with acquire).
    let voiceEndsDeferred = Atomic<UInt64>(0)
    /// Voices the voice limit keeps from being mixed (render writes).
    let virtualVoices = Atomic<Int>(0)
    let voicesKilledByLimit = Atomic<UInt64>(0)
    /// How long the render thread took to mix quanta, in nanoseconds of
    /// CLOCK_MONOTONIC (render writes; the live profiler's sampler reads):
    /// the last quantum's, their sum, the largest since the sampler last
    /// took it (it exchanges 0 in), and how many quanta the sum holds.
    let renderNanosLast = Atomic<UInt64>(0)
    let renderNanosSum = Atomic<UInt64>(0)
    let renderNanosMax = Atomic<UInt64>(0)
    let renderQuantaTimed = Atomic<UInt64>(0)
    /// Set while a render call runs; a second, overlapping call writes silence.
    let rendering = Atomic<Bool>(false)
    /// The output format, packed by ``OutputFormatWord``.
    let outputFormat = Atomic<UInt64>(0)
    /// Master gain request: target gain bits (low 32) and ramp frames (high 32).
    let masterGainRequest = Atomic<UInt64>(UInt64(Float(1).bitPattern))
    /// The master gain reached at the end of the last quantum (float bits).
    let masterGainNow = Atomic<UInt32>(Float(1).bitPattern)
    let limiter = Atomic<Bool>(false)
    /// Index (low 2 bits) of the middle buffer of the plan triple buffer, and
    /// bit 2 set when the control side has published a plan the render
    /// thread has not taken yet.
    let planMiddle = Atomic<UInt32>(1)
    /// The generation of the plan the render thread mixes with (stored,
    /// releasing, each time it takes one): effects only older plans held
    /// can be freed (``Mixer/reclaimEffects()``).
    let planTaken = Atomic<UInt64>(0)
}

/// The output format as one atomic word: rate (bits 0–31), channels (32–47),
/// sample format (48–55; 0 = float32, 1 = int16).
struct OutputFormatWord {
    var sampleRate: Int
    var channels: Int
    var isInt16: Bool

    init(sampleRate: Int, channels: Int, isInt16: Bool) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.isInt16 = isInt16
    }

    @_noLocks
    init(word: UInt64) {
        sampleRate = Int(word & 0xFFFF_FFFF)
        channels = Int((word &>> 32) & 0xFFFF)
        isInt16 = (word &>> 48) & 0xFF == 1
    }

    var word: UInt64 {
        UInt64(sampleRate) | UInt64(channels) &<< 32 | (isInt16 ? 1 : 0) &<< 48
    }
}
