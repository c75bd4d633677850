import CMixKernels
import Synchronization

/// The lifecycle of one stream slot, stored in ``StreamRing/state``. Each
/// transition is made by exactly one side:
///
///     free ──control claims (CAS)──► claimed ──streaming thread (CAS)──► ready / failed
///       ▲                               │                                  │
///       └── streaming thread resets ── released ◄── render thread (exchange) ┘
enum StreamState: UInt32 {
    /// Nobody uses the slot; the control side may claim it.
    case free = 0
    /// Claimed for a voice; the streaming thread is opening and pre-filling it.
    case claimed = 1
    /// Pre-filled; `channels` and `sampleRate` are published.
    case ready = 2
    /// The source could not be opened or read; the voice ends.
    case failed = 3
    /// The render thread is done with it; the streaming thread closes the source.
    case released = 4
}

/// The counters of one stream ring shared by the streaming thread (producer)
/// and the render thread (consumer). Frame counts are absolute since the
/// slot was claimed.
struct StreamShared: ~Copyable {
    /// A ``StreamState`` raw value.
    let state = Atomic<UInt32>(StreamState.free.rawValue)
    /// Frames the producer has written (and published).
    let written = Atomic<Int>(0)
    /// Frames the consumer no longer needs; the producer may overwrite them.
    let consumed = Atomic<Int>(0)
    /// Total frames of a source that has ended (silence written after it), else `Int.max`.
    let endFrame = Atomic<Int>(Int.max)
    /// Source format, written by the producer before it stores `ready`.
    var planes = 0
    var sampleRate = 0

    /// The state as the render thread needs it. acquiring: pairs with the
    /// streaming thread's releasing CAS to `ready` (publishing the format and
    /// the pre-filled frames) or to `failed`.
    @_noLocks
    func renderState() -> (ready: Bool, failed: Bool) {
        let state = self.state.load(ordering: .acquiring)
        return (state == StreamState.ready.rawValue, state == StreamState.failed.rawValue)
    }

    /// Gives the slot back to the streaming thread (render thread). releasing:
    /// pairs with the streaming thread's acquiring load in `serve`; our reads
    /// of the ring happen before it resets the ring.
    @_noLocks
    func release() {
        state.store(StreamState.released.rawValue, ordering: .releasing)
    }
}

/// A handle to one slot's ring: `capacity` frames per plane, two planes, each
/// with `MK_GUARD_FRAMES` mirrored frames on both sides so the resampler
/// reads across the wrap without testing for it (frame `i` of the ring lives
/// at `plane[i]`; `plane[-g]` mirrors `plane[capacity - g]` and
/// `plane[capacity + g]` mirrors `plane[g]`).
struct StreamRing: @unchecked Sendable {
    // @unchecked: the producer writes only frames at or past `written`, not yet
    // covered by it; the consumer reads only frames below `written - MK_GUARD_FRAMES`
    // (or below `endFrame` + guard once ended) and at or past `consumed`.

    let shared: UnsafeMutablePointer<StreamShared>
    /// Frame 0 of each plane.
    let plane0: UnsafeMutablePointer<Float>
    let plane1: UnsafeMutablePointer<Float>
    let capacity: Int
    /// ``guardFrames``, stored for the render thread.
    let margin = 32

    /// `MK_GUARD_FRAMES` (a literal here: the render path cannot read a C macro).
    static var guardFrames: Int { 32 }

    init(capacity: Int) {
        precondition(Int(MK_GUARD_FRAMES) == Self.guardFrames, "StreamRing.guardFrames must equal MK_GUARD_FRAMES")
        self.capacity = capacity
        shared = .allocate(capacity: 1)
        shared.initialize(to: StreamShared())
        let g = Self.guardFrames
        let stride = capacity + 2 * g
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: 2 * stride)
        storage.initialize(repeating: 0, count: 2 * stride)
        plane0 = storage + g
        plane1 = storage + stride + g
    }

    func deallocate() {
        shared.deinitialize(count: 1)
        shared.deallocate()
        (plane0 - Self.guardFrames).deallocate()
    }

    /// Writes frame `index` (ring position) of `plane`, and its mirror in a guard.
    /// Producer only.
    @inline(__always)
    func write(_ value: Float, plane: UnsafeMutablePointer<Float>, at index: Int) {
        plane[index] = value
        let g = Self.guardFrames
        if index < g { plane[capacity + index] = value }
        if index >= capacity - g { plane[index - capacity] = value }
    }
}
