/// One voice slot as the render thread sees it. Plain data in the
/// preallocated voice table; only the render thread reads or writes it
/// (the control side talks to it through commands).
struct RenderVoice: BitwiseCopyable {
    enum Phase: UInt8, BitwiseCopyable {
        /// The slot is free.
        case idle
        /// Started, waiting for its stream to be pre-filled.
        case waitingForStream
        /// Waiting for `startTime`.
        case scheduled
        /// Producing audio (possibly fading).
        case playing
        /// Silent, position held, until resumed.
        case paused

        // Concrete operators: the synthesized Equatable ones are generic and
        // not allowed on the render path.
        @_noLocks @inline(__always) static func == (a: Phase, b: Phase) -> Bool { a.rawValue == b.rawValue }
        @_noLocks @inline(__always) static func != (a: Phase, b: Phase) -> Bool { a.rawValue != b.rawValue }
    }

    /// What happens when the fade reaches its target.
    enum FadeEnd: UInt8, BitwiseCopyable {
        case nothing
        case stop
        case pause
        /// The voice limit left the voice out: it becomes virtual (``RenderVoice/isVirtual``).
        case virtualize

        @_noLocks @inline(__always) static func == (a: FadeEnd, b: FadeEnd) -> Bool { a.rawValue == b.rawValue }
        @_noLocks @inline(__always) static func != (a: FadeEnd, b: FadeEnd) -> Bool { a.rawValue != b.rawValue }
    }

    var phase: Phase = .idle
    var fadeEnd: FadeEnd = .nothing
    var looping = false
    var starving = false
    var inLoopBody = false
    /// Not mixed (the voice limit left it out); its position still advances.
    var isVirtual = false
    /// Made virtual rather than killed when the voice limit leaves it out.
    var resumeWhenInaudible = false
    /// With `resumeWhenInaudible`: virtual, it holds its place at the start,
    /// and plays from there when it is audible again.
    var restartWhenAudible = false
    /// Voice-limit priority, 0…100.
    var priority: UInt8 = 50
    var quality: UInt8 = 0
    var generation: UInt32 = 0
    var sound: UInt32 = 0
    var soundGeneration: UInt32 = 0
    var bus: Int32 = 0
    /// Stream slot, or -1 for an in-memory sound.
    var stream: Int32 = -1
    /// Index of this voice in the active list.
    var activeIndex: Int32 = 0
    /// Order of starting (voice-limit ties: the newest loses).
    var serial: UInt64 = 0

    /// The source: a copy of the sound's body (or the stream's geometry).
    var body = SoundBody()
    /// 32.32 read position, in the sound's frames (for a stream: ring frames).
    var position: UInt64 = 0
    /// For a stream: absolute source frame of ring frame 0 of the current lap.
    var streamBase = 0
    /// The source frame the voice's stream ring starts at (a seek's target).
    var streamOffset = 0
    var pitch: Double = 1
    /// The read step (32.32 frames of the body per engine frame) for
    /// `pitch`, the body's rate and the engine rate `stepRate`, worked out
    /// once (``RenderCore/readStep(_:)``): a Double division per voice per
    /// quantum was a tenth of the per-voice work. Whatever changes the pitch
    /// or the body sets `stepRate` to 0, so the next read works it out again.
    var step: UInt64 = 0
    /// The engine rate `step` was worked out for; 0 when it must be again.
    var stepRate: Double = 0
    /// Index of the next marker of `body` the read position has not crossed.
    var nextMarker: Int32 = 0

    /// Mixer frame of the first output frame (phase `scheduled`).
    var startTime: Int64 = 0
    /// Mixer frame at which a scheduled stop begins its fade; `Int64.max` = none.
    var stopTime: Int64 = .max
    var stopFadeFrames: Int32 = 0

    /// Volume/pan gains for both kinds of source; `left`/`right` ramp to the
    /// pair that matches the source's planes.
    var target = PanGains(monoLeft: 0, monoRight: 0, stereoLeft: 0, stereoRight: 0)
    var left = GainRamp(0)
    var right = GainRamp(0)
    /// Fade envelope (fade in/out, pause/resume), 0…1.
    var fade = GainRamp(1)
    /// Low-pass coefficient `p` (``LowPass``): 0 = transparent. While it is
    /// not settled at 0 the voice takes the filtered path.
    var lowPass = GainRamp(0)
    /// Where the shared low-pass last sent the voice (docs/mixer.md, "The
    /// shared low-pass"): a band (≥ 0) of its bus, or one of the `route…`
    /// values. A change of band or to and from the bus crossfades.
    var route: Int16 = RenderVoice.routeNone
    /// The output channel count its speaker gains (``VoiceExtras/speakers``)
    /// were computed for; 0: not placed, it plays on the front pair by its
    /// `left`/`right` gains. A placed voice whose layout is not the mix's
    /// (the output changed) plays on the front pair until it is placed again.
    var speakerLayout: UInt8 = 0
    /// Aux sends in use (0…``VoiceExtras/maxSends``): send `k` adds the
    /// voice's output (after its gains, fade and filter) × its gain ramp to
    /// its bus (``VoiceExtras/sends``).
    var sendCount: UInt8 = 0

    /// Not routed yet (a new voice): it starts where it belongs, no crossfade.
    static var routeNone: Int16 { @_noLocks @inline(__always) get { -1 } }
    /// Straight into its bus (no filter).
    static var routeDirect: Int16 { @_noLocks @inline(__always) get { -2 } }
    /// Filtered on its own: every shared filter was taken.
    static var routeOwn: Int16 { @_noLocks @inline(__always) get { -3 } }

    /// Whether the voice renders through the low-pass (scratch, filter, add)
    /// rather than straight into its bus.
    var isFiltered: Bool {
        @_noLocks @inline(__always) get { lowPass.value != 0 || lowPass.framesLeft > 0 }
    }

    /// An idle slot.
    @_noLocks init() {}
}
