import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the playback context's callbacks have to say. They run on the
/// playback mainloop thread, which is also the render thread, so they say it
/// with a code and a number, not with strings or events (docs/pulseaudio.md,
/// "Two contexts, two threads").
enum StreamNotice: UInt8, BitwiseCopyable {
    /// The server ran out of our audio (`pa_stream_set_underflow_callback`).
    case underflow
    /// The sink under our stream suspended (`value` 1) or resumed (0).
    case suspended
    /// module-role-cork (or a peer) asks us to pause (`PA_STREAM_EVENT_REQUEST_CORK`).
    case corkRequested
    /// …and to resume.
    case uncorkRequested
    /// Our playback stream died; `value` is `pa_context_errno`.
    case playbackFailed
    /// Our record stream died; `value` is `pa_context_errno`.
    case captureFailed
    /// The playback context failed after it was established; `value` is `pa_context_errno`.
    case connectionLost
}

/// A single-producer, single-consumer ring of ``StreamNotice``s from the
/// playback loop thread (the render thread) to the control loop thread, plus
/// a pipe that wakes the control loop. The producer never locks or
/// allocates: it stores into preallocated slots, publishes with a releasing
/// store, and writes one byte to a non-blocking pipe (one system call that
/// cannot block; a full pipe is already readable, so the byte may be lost). A full ring drops the notice and counts it; at 256 slots
/// and a control loop that drains in microseconds, that takes a burst of
/// server events no server produces. Without a pipe (`pipe()` failed, or
/// `wakePipe: false`) the control loop drains the ring every 10 ms instead
/// (``NoticeWakeup``).
///
/// Plain memory (no class reference, so no reference counting on the render
/// thread): the Connection allocates one and frees it after both loops stopped.
struct StreamNoticeRing: ~Copyable {
    struct Entry: BitwiseCopyable {
        var notice: StreamNotice
        var value: Int32
    }

    static let capacity = 256
    private let slots: UnsafeMutablePointer<Entry>
    /// Entries ever pushed (producer) and popped (consumer).
    private let pushed = Atomic<Int>(0)
    private let popped = Atomic<Int>(0)
    /// Notices dropped because the ring was full (relaxed: a counter).
    let dropped = Atomic<UInt64>(0)
    /// The pipe's read end, which the control loop watches, and its write
    /// end; -1 when there is no pipe (then ``NoticeWakeup`` drains the ring
    /// on a timer).
    let wakeFD: Int32
    private let signalFD: Int32

    /// Makes the ring and, with `wakePipe` (always, but in the test of the
    /// fallback), its pipe.
    init(wakePipe: Bool = true) {
        slots = .allocate(capacity: Self.capacity)
        slots.initialize(repeating: Entry(notice: .underflow, value: 0), count: Self.capacity)
        var fds: [Int32] = [-1, -1]
        if wakePipe, pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        wakeFD = fds[0]
        signalFD = fds[1]
    }

    /// Frees the slots and closes the pipe; nothing may use the ring after.
    func free() {
        slots.deallocate()
        if wakeFD >= 0 { close(wakeFD) }
        if signalFD >= 0 { close(signalFD) }
    }

    /// Producer (the playback loop thread): appends a notice and wakes the
    /// control loop. Never blocks, locks or allocates.
    @_noLocks @_noAllocation
    func push(_ notice: StreamNotice, _ value: Int32 = 0) {
        let p = pushed.load(ordering: .relaxed)  // relaxed: only this thread stores it
        // acquiring: pairs with the consumer's releasing store, so the slot is free.
        guard p - popped.load(ordering: .acquiring) < Self.capacity else {
            dropped.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
            return
        }
        slots[p & (Self.capacity - 1)] = Entry(notice: notice, value: value)
        // releasing: publishes the slot's contents to the consumer's acquiring load.
        pushed.store(p + 1, ordering: .releasing)
        // write(2) on a non-blocking pipe: no lock, no allocation, never waits
        // (a full pipe is readable already, so the byte may be dropped).
        // No pipe: the control loop's timer finds the notice.
        let fd = signalFD
        guard fd >= 0 else { return }
        _unsafePerformance {
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
    }

    /// Consumer (the control loop thread): empties the pipe and hands every
    /// notice pushed so far to `body`, in order.
    func drain(_ body: (StreamNotice, Int32) -> Void) {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while wakeFD >= 0, withUnsafeMutableBytes(of: &bytes, { read(wakeFD, $0.baseAddress, $0.count) }) > 0 {}
        var q = popped.load(ordering: .relaxed)  // relaxed: only this thread stores it
        // acquiring: pairs with the producer's releasing store of `pushed`.
        let end = pushed.load(ordering: .acquiring)
        while q < end {
            let entry = slots[q & (Self.capacity - 1)]
            q += 1
            // releasing: the slot was read before the producer may reuse it.
            popped.store(q, ordering: .releasing)
            body(entry.notice, entry.value)
        }
    }
}
