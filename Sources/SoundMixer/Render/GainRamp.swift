/// A gain that moves linearly to a target over a number of frames, then
/// stays. Voices (volume/pan and fades), buses and the master each keep one.
struct GainRamp: BitwiseCopyable {
    /// Gain at the next frame.
    private(set) var value: Float
    /// Added per frame while ramping.
    private(set) var step: Float = 0
    /// Frames until `value` reaches `target`; 0 = settled.
    private(set) var framesLeft = 0
    private(set) var target: Float

    @_noLocks
    init(_ value: Float) {
        self.value = value
        self.target = value
    }

    /// Ramps from the current value to `target` over `frames` (at once when `frames <= 0`).
    @_noLocks @inline(__always)
    mutating func start(to target: Float, over frames: Int) {
        self.target = target
        if frames <= 0 || target == value {
            value = target
            step = 0
            framesLeft = 0
        } else {
            step = (target - value) / Float(frames)
            framesLeft = frames
        }
    }

    /// The value `frames` frames from now (`frames` ≤ `framesLeft` while ramping).
    @_noLocks @inline(__always)
    func value(after frames: Int) -> Float {
        framesLeft == 0 ? value : (frames >= framesLeft ? target : value + step * Float(frames))
    }

    /// Moves `frames` frames forward.
    @_noLocks @inline(__always)
    mutating func advance(_ frames: Int) {
        guard framesLeft > 0 else { return }
        if frames >= framesLeft {
            value = target
            step = 0
            framesLeft = 0
        } else {
            value += step * Float(frames)
            framesLeft -= frames
        }
    }
}
