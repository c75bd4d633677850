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

extension SoundBody {
    /// The frame a voice's read position may not reach in one kernel call
    /// (32.32 position `frame << 32`): the sound's end for a one-shot; for a
    /// looping voice its loop's end, or, while it still reads the sound
    /// before moving to the loop copy (`inLoopBody` false, an inner loop),
    /// the frame where it moves: 8 frames into the loop, where its
    /// interpolation taps are all inside it.
    @_noLocks @inline(__always)
    func readLimit(looping: Bool, inLoopBody: Bool) -> Int {
        guard looping else { return frames }
        return loopPlane0 != nil && !inLoopBody ? loopStart + 8 : loopEnd
    }

    /// Where a voice reading frame `k` reads: the loop copy's planes once it
    /// has moved there (`inLoopBody`), else the sound's. `plane0` must be set.
    @_noLocks @inline(__always)
    func planes(at k: Int, inLoopBody: Bool) -> (UnsafePointer<Float>, UnsafePointer<Float>?) {
        if inLoopBody, let loop0 = loopPlane0 {
            guard let loop1 = loopPlane1 else { return (loop0 + (k - loopStart), nil) }
            return (loop0 + (k - loopStart), loop1 + (k - loopStart))
        }
        guard let plane1 else { return (plane0.unsafelyUnwrapped + k, nil) }
        return (plane0.unsafelyUnwrapped + k, plane1 + k)
    }
}
