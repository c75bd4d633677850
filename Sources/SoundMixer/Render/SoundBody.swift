/// Where a loaded sound's samples are and how to read them: the render
/// thread's view of a sound slot.
///
/// Written by the control side into the shared sound table while no voice
/// can reference the slot, and published to the render thread by the
/// releasing push of the first command that names it. Read-only afterwards
/// until the render thread releases the slot.
///
/// Each plane is `frames` samples with `MK_GUARD_FRAMES` readable samples on
/// both sides. A sound whose loop region is the whole sound has guards that
/// wrap (the samples after the end are the first ones, those before the start
/// the last ones); any other sound has silent guards. A sound with an inner
/// loop region also has `loopPlanes`: the loop's frames again, with wrapping
/// guards; `loopPlane[k]` is frame `loopStart + k`.
struct SoundBody: BitwiseCopyable {
    var plane0: UnsafePointer<Float>?
    var plane1: UnsafePointer<Float>?
    var loopPlane0: UnsafePointer<Float>?
    var loopPlane1: UnsafePointer<Float>?
    /// Frames in the sound.
    var frames: Int = 0
    /// Loop region; `loopEnd == 0` when the sound cannot loop.
    var loopStart: Int = 0
    var loopEnd: Int = 0
    /// Planes: 1 (mono) or 2 (stereo; sources with more channels are mixed down when loaded).
    var planes: Int = 0
    var sampleRate: Double = 0
    /// Marker frames, ascending (`markerCount` of them), or nil.
    var markers: UnsafePointer<Int32>?
    var markerCount: Int = 0
    /// A streamed sound's length in source frames (0: unknown), which maps
    /// the ring's running frame count to a frame of the source for markers.
    var sourceFrames: Int = 0

    /// No sound.
    @_noLocks init() {}

    static var empty: SoundBody { SoundBody() }
}
