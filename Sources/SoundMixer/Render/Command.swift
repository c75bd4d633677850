/// One control → render message. Trivial (no references), so it crosses
/// the command ring by copy; the render thread applies it at the start of
/// the next quantum. Voice commands carry the voice's generation: one that
/// no longer matches the slot (the voice ended) is ignored.
enum Command: BitwiseCopyable {
    /// Start a voice in a free slot.
    case start(VoiceStartCommand)
    /// Fade a voice out over `fadeFrames` (at least the de-click) and end
    /// it, beginning at mixer frame `atFrame` (or now, when `atFrame < 0`).
    case stop(slot: UInt32, generation: UInt32, fadeFrames: Int32, atFrame: Int64)
    /// New volume/pan gains, ramped over `rampFrames`.
    case setGains(slot: UInt32, generation: UInt32, gains: PanGains, rampFrames: Int32)
    /// New low-pass coefficient (0 = transparent, see ``LowPass``), ramped over `rampFrames`.
    case setLowPass(slot: UInt32, generation: UInt32, coefficient: Float, rampFrames: Int32)
    /// Aux send `index` of the voice to `bus`, its gain ramped to `gain` over
    /// `rampFrames` (0: at once). A send that changes bus starts from silence.
    case setSend(slot: UInt32, generation: UInt32, index: UInt8, bus: Int16, gain: Float, rampFrames: Int32)
    /// New pitch ratio, from the next quantum.
    case setPitch(slot: UInt32, generation: UInt32, pitch: Double)
    /// Fade to silence and hold the position.
    case pause(slot: UInt32, generation: UInt32, fadeFrames: Int32)
    /// Fade back in from where the voice paused.
    case resume(slot: UInt32, generation: UInt32, fadeFrames: Int32)
    /// Play on from source frame `frame`: the voice as it was fades out over
    /// the de-click (in a fade slot) while it fades in from there. A
    /// streamed voice reads from the new stream ring `stream`, which the
    /// streaming thread fills from `frame` (the old ring goes with the old voice).
    case seek(slot: UInt32, generation: UInt32, frame: Int64, stream: Int16)
    /// Place a voice over the speakers of a surround mix (``PlacementCommand``).
    case place(PlacementCommand)
    /// Move parameter `parameter` of the insert effect at `block` (an
    /// ``EffectBlock``'s memory, alive until a plan without it is taken,
    /// which comes after this command) to `value` over `rampFrames`.
    case setEffectParameter(block: UnsafeMutableRawPointer, parameter: UInt8, value: Float, rampFrames: Int32)
    /// Stop every voice with this fade.
    case stopAll(fadeFrames: Int32)
    /// Stop the sound's voices with the de-click fade, then release its memory
    /// to the control side.
    case unloadSound(slot: UInt32, generation: UInt32)
}

/// Left/right gains of a voice for each kind of source, computed on the
/// control side (the render thread does no trigonometry): `mono` applies to a
/// one-plane source panned with the equal-power law, `stereo` to a two-plane
/// source balanced. Streams learn their channel count only once open, so
/// both are sent.
struct PanGains: BitwiseCopyable, Equatable {
    var monoLeft: Float
    var monoRight: Float
    var stereoLeft: Float
    var stereoRight: Float

    @_noLocks init(monoLeft: Float, monoRight: Float, stereoLeft: Float, stereoRight: Float) {
        self.monoLeft = monoLeft
        self.monoRight = monoRight
        self.stereoLeft = stereoLeft
        self.stereoRight = stereoRight
    }
}

/// Payload of ``Command/start(_:)``. Fields ordered widest first so that
/// it packs into 63 bytes and a ``Command`` stays one 64-byte slot.
struct VoiceStartCommand: BitwiseCopyable {
    var pitch: Double
    var time: Int64
    var slot: UInt32
    var generation: UInt32
    var sound: UInt32
    var soundGeneration: UInt32
    var gains: PanGains
    var fadeInFrames: Int32
    /// Low-pass coefficient the voice starts with (0 = no filter).
    var lowPass: Float
    /// Bus index (< `maxBuses` ≤ 1024).
    var bus: Int16
    /// Stream slot for a streamed sound (< `maxStreams` ≤ 256), -1 for an in-memory one.
    var stream: Int16
    /// Bits 0–1: `VoiceStart` flattened (0 = next quantum, 1 = `time`
    /// frames into it, 2 = at mixer frame `time`); bit 2: loop; bit 3:
    /// virtual rather than killed when the voice limit leaves it out.
    var flags: UInt8
    /// Voice-limit priority, 0…100.
    var priority: UInt8
    var quality: UInt8

    // Computed, not stored: a static stored property is lazily initialised (not allowed on the render path).
    static var loopFlag: UInt8 { @_noLocks @inline(__always) get { 4 } }
    static var resumeFlag: UInt8 { @_noLocks @inline(__always) get { 8 } }
    /// With ``resumeFlag``: a voice made virtual starts again from its
    /// beginning when it is audible again (``VoiceLimitBehavior/restart``).
    static var restartFlag: UInt8 { @_noLocks @inline(__always) get { 16 } }
}

/// Payload of ``Command/place(_:)``: a voice's gain in each channel of a
/// surround mix of `layout` channels, and its stereo-equivalent gains (what
/// it plays with when the mix is not that layout, and what the voice limit
/// ranks it by). Fits one 64-byte slot.
struct PlacementCommand: BitwiseCopyable {
    var slot: UInt32
    var generation: UInt32
    var stereo: PanGains
    /// Per output channel (the first `layout`; the rest are 0).
    var gains: InlineArray<8, Float>
    var rampFrames: Int32
    /// The channel count the gains are for (3…8).
    var layout: UInt8
}
