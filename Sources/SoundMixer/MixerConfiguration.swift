import CMixKernels
package import SoundCore

/// Everything a ``Mixer`` fixes when it is created: its rate and quantum and
/// the size of every pool and queue. Nothing grows later; when a pool is full
/// the call fails with `maxReached` (or `commandQueueFull`) and a counter goes up.
///
/// Defaults: 48 kHz, 512-frame quanta, 256 voices, 32 buses, 512 sounds,
/// 64 KiB of command queue, 1024 events, 8 streams of 32768 frames, a
/// 2048-frame metering window, 64-frame de-click ramps, no limiter, the
/// fastest kernels the CPU supports, no voice limit below `maxVoices`.
package struct MixerConfiguration: Sendable, Hashable {
    /// Frames per second of the mix, 8000…384000. ``Mixer/setOutputFormat(_:)``
    /// may change it to the rate the server granted.
    package var sampleRate: Int = 48_000
    /// Frames mixed per render quantum: a power of two, 64…8192
    /// (`InitSettings.samplesPerFrame`). Parameter ramps span one quantum;
    /// commands take effect at quantum boundaries (voice starts and stops to
    /// the frame, see ``VoiceStart``). The render entry accepts any frame
    /// count and carries the rest of a quantum to the next call.
    package var quantumFrames: Int = 512
    /// Voices that can play at once, 1…65536.
    package var maxVoices: Int = 256
    /// Buses including the master, 1…1024.
    package var maxBuses: Int = 32
    /// Sounds loaded at once (in memory and streamed), 1…65536.
    package var maxSounds: Int = 512
    /// Bytes of the game → render command queue (`InitSettings.commandQueueSize`).
    /// The queue holds `commandQueueBytes / Mixer.commandSlotBytes` commands
    /// (at least 16); every call that changes a voice or a sound takes one.
    package var commandQueueBytes: Int = 65_536
    /// Events the render → control queue holds between two ``Mixer/drainEvents(_:)``, 16…1048576.
    package var eventQueueCapacity: Int = 1024
    /// Streamed voices that can play at once, 0…256 (each owns one ring).
    package var maxStreams: Int = 8
    /// Frames of decoded audio buffered ahead per stream, 1024…4194304, at
    /// the source's rate (about 0.7 s at 48 kHz by default).
    package var streamBufferFrames: Int = 32_768
    /// Frames a bus meter integrates before it publishes a reading, 64…1048576
    /// (rounded up to whole quanta).
    package var meterWindowFrames: Int = 2048
    /// Shortest fade the mixer applies when a voice stops, pauses or is cut
    /// by an unload, so that nothing clicks, 0…4096 frames.
    package var declickFrames: Int = 64
    /// Soft-clips the master output (identity up to ±0.75, then a smooth knee
    /// towards ±1). Off by default: the mix is not altered.
    package var limiter: Bool = false
    /// Which kernel set mixes.
    package var kernels: KernelSelection = .automatic
    /// Voices mixed at once, 1…``maxVoices`` (default: `maxVoices`, no
    /// limit). Beyond it the lowest-priority voices
    /// (``VoiceParameters/priority``) are killed or made virtual
    /// (``VoiceParameters/whenInaudible``). Follows `maxVoices` until set.
    package var maxAudibleVoices: Int {
        get { audibleLimit ?? maxVoices }
        set { audibleLimit = newValue }
    }
    /// `maxAudibleVoices` when set; `nil` = `maxVoices`.
    private var audibleLimit: Int?
    /// Filters low-passed mono voices 16 at a time, one per vector lane
    /// (docs/mixer.md, "The batched low-pass"); `false` filters each voice
    /// on its own, the reference the tests compare the batched path with.
    package var batchedLowPass = true
    /// Low-passed voices share filters (docs/mixer.md, "The shared
    /// low-pass"): each voice is mixed into a filter of its bus at its
    /// cutoff rounded to the nearest 1/8 octave, and one filter runs per
    /// bus and band in use. `false` filters every voice on its own (batched
    /// or not, per ``batchedLowPass``), the reference the tests compare with.
    package var sharedLowPass = true
    /// Shared low-pass filters that can run at once; a low-passed voice that
    /// finds none free is filtered on its own. 256 (1 MB of planes at the
    /// default quantum); tests lower it to reach the fallback.
    package var sharedLowPassFilters = 256
    /// Steady voices take the render path's fast path (docs/mixer.md,
    /// "Steady voices": a whole quantum straight into the bus's batch, no run
    /// splitting); `false` sends every voice through the general path, the
    /// reference the tests compare the fast path with, bit for bit.
    package var steadyVoicePath = true

    /// When shared low-pass filters run, the voice loop visits the voices
    /// grouped by the filter they fed last quantum (docs/mixer.md, "The
    /// shared low-pass" → "Voices in band order"), so one filter's voices
    /// fill a mix batch; `false` keeps the active list's order, the
    /// reference the tests compare the grouped order with.
    package var bandOrderedVoices = true

    /// Creates a configuration; every argument has the default described on the type.
    package init(
        sampleRate: Int = 48_000, quantumFrames: Int = 512, maxVoices: Int = 256, maxBuses: Int = 32,
        maxSounds: Int = 512, commandQueueBytes: Int = 65_536, eventQueueCapacity: Int = 1024,
        maxStreams: Int = 8, streamBufferFrames: Int = 32_768, meterWindowFrames: Int = 2048,
        declickFrames: Int = 64, limiter: Bool = false, kernels: KernelSelection = .automatic,
        maxAudibleVoices: Int? = nil
    ) {
        self.audibleLimit = maxAudibleVoices
        self.sampleRate = sampleRate
        self.quantumFrames = quantumFrames
        self.maxVoices = maxVoices
        self.maxBuses = maxBuses
        self.maxSounds = maxSounds
        self.commandQueueBytes = commandQueueBytes
        self.eventQueueCapacity = eventQueueCapacity
        self.maxStreams = maxStreams
        self.streamBufferFrames = streamBufferFrames
        self.meterWindowFrames = meterWindowFrames
        self.declickFrames = declickFrames
        self.limiter = limiter
        self.kernels = kernels
    }

    /// Throws `invalidParameter` naming the first field out of range.
    package func validate() throws(SoundEngineError) {
        func check(_ ok: Bool, _ field: String, _ value: Int, _ rule: String) throws(SoundEngineError) {
            if !ok { throw .invalidParameter("MixerConfiguration.\(field) = \(value): \(rule)") }
        }
        try check((8000...384_000).contains(sampleRate), "sampleRate", sampleRate, "must be 8000…384000")
        try check(
            (64...8192).contains(quantumFrames) && quantumFrames & (quantumFrames - 1) == 0, "quantumFrames",
            quantumFrames, "must be a power of two, 64…8192")
        try check((1...65_536).contains(maxVoices), "maxVoices", maxVoices, "must be 1…65536")
        try check((1...1024).contains(maxBuses), "maxBuses", maxBuses, "must be 1…1024")
        try check((1...65_536).contains(maxSounds), "maxSounds", maxSounds, "must be 1…65536")
        try check(
            (16 * Mixer.commandSlotBytes...(64 << 20)).contains(commandQueueBytes), "commandQueueBytes",
            commandQueueBytes, "must hold 16 commands of \(Mixer.commandSlotBytes) bytes, at most 64 MiB")
        try check((16...(1 << 20)).contains(eventQueueCapacity), "eventQueueCapacity", eventQueueCapacity, "must be 16…1048576")
        try check((0...256).contains(maxStreams), "maxStreams", maxStreams, "must be 0…256")
        try check(
            (1024...(1 << 22)).contains(streamBufferFrames), "streamBufferFrames", streamBufferFrames,
            "must be 1024…4194304")
        try check(
            (64...(1 << 20)).contains(meterWindowFrames), "meterWindowFrames", meterWindowFrames, "must be 64…1048576")
        try check((0...4096).contains(declickFrames), "declickFrames", declickFrames, "must be 0…4096")
        try check(
            (1...maxVoices).contains(maxAudibleVoices), "maxAudibleVoices", maxAudibleVoices,
            "must be 1…maxVoices (\(maxVoices))")
        if !kernels.isSupported {
            throw .invalidParameter("MixerConfiguration.kernels = \(kernels): this CPU cannot run that kernel set")
        }
    }
}

/// Which set of mixing kernels a ``Mixer`` uses.
package enum KernelSelection: Sendable, Hashable, CaseIterable {
    /// The fastest set the CPU supports: AVX-512 on x86-64 that has it (F, VL,
    /// BW, DQ), else AVX2+FMA, else portable C.
    case automatic
    /// The portable C kernels on any CPU (to compare, or to rule the vector kernels out).
    case portable
    /// The AVX2+FMA kernels; only where ``isSupported``.
    case avx2
    /// The AVX-512 kernels; only where ``isSupported``.
    case avx512

    /// Whether this CPU can run the set (always for `automatic` and `portable`).
    package var isSupported: Bool { mk_kernels_supported(choice) != 0 }

    /// The effects kernels' level for this set (`fx_kernels.h`: 0 portable,
    /// 1 AVX2+FMA, 2 AVX-512): the same instruction set as the mix kernels,
    /// so a mixer forced to `portable` runs no vector effects either.
    var effectsLevel: Int32 {
        switch self {
        case .automatic: fx_best_level()
        case .portable: 0
        case .avx2: 1
        case .avx512: 2
        }
    }

    var choice: mk_kernel_choice {
        switch self {
        case .automatic: MK_KERNELS_AUTOMATIC
        case .portable: MK_KERNELS_PORTABLE
        case .avx2: MK_KERNELS_AVX2
        case .avx512: MK_KERNELS_AVX512
        }
    }
}
