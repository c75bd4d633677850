import Glibc
import SoundCore
import Synchronization

// A stream that stops asking for audio while the server goes on (peer bugs 3
// and 5, shared/reference/peer-backends.md): made with the same interposed
// `pa_stream_set_write_callback` as the write-callback counter
// (WriteCallbackCounter.swift). The write callbacks that a test's thread
// installs inside `StallSwitch.installing` are wrapped; while the switch is
// on, the wrapper drops libpulse's write requests instead of passing them to
// the backend: the backend renders nothing more, and the server, which
// gets nothing for what it asked, asks no more. Only that stream stalls:
// the server and every other client go on.

/// The backend's callback and userdata, and the switch that stalls them.
private struct StallableCallback {
    var callback: StreamRequestCallback
    var userdata: UnsafeMutableRawPointer?
    var owner: Unmanaged<StallSwitch>
}

/// Runs on the mainloop thread in place of the backend's write callback.
let stallableWriteCallback: StreamRequestCallback = { stream, requested, context in
    let wrapped = context!.assumingMemoryBound(to: StallableCallback.self)
    let owner = wrapped.pointee.owner.takeUnretainedValue()
    guard !owner.stalled.load(ordering: .acquiring) else {
        owner.dropped.add(1, ordering: .relaxed)
        return
    }
    wrapped.pointee.callback(stream, requested, wrapped.pointee.userdata)
}

/// Which threads asked for stallable streams.
private let stallRequests = ControlLock<[UInt: StallSwitch]>([:])

/// Stalls the playback streams opened inside ``installing(_:)``.
final class StallSwitch: @unchecked Sendable {
    // @unchecked: `stalled` and `dropped` are atomics; `wrappers` is only
    // touched with `stallRequests` locked (while installing) or in deinit.
    /// On: write requests are dropped.
    let stalled = Atomic<Bool>(false)
    /// Requests dropped so far.
    let dropped = Atomic<Int>(0)
    private var wrappers: [UnsafeMutablePointer<StallableCallback>] = []

    /// Runs `body` (which opens the backend's stream) with the write
    /// callbacks it installs on this thread made stallable.
    func installing<R>(_ body: () throws -> R) rethrows -> R {
        let me = UInt(pthread_self())
        stallRequests.withLock { $0[me] = self }
        defer { _ = stallRequests.withLock { $0.removeValue(forKey: me) } }
        return try body()
    }

    /// How many write callbacks were made stallable.
    var wrapped: Int { stallRequests.withLock { _ in wrappers.count } }

    /// The switch the thread `me` installs under, if any (the interposer).
    static func installing(on me: UInt) -> StallSwitch? { stallRequests.withLock { $0[me] } }

    /// A wrapper of `callback` for libpulse, owned by this switch.
    func wrap(_ callback: StreamRequestCallback, _ userdata: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
        let wrapper = UnsafeMutablePointer<StallableCallback>.allocate(capacity: 1)
        wrapper.initialize(to: StallableCallback(callback: callback, userdata: userdata, owner: .passUnretained(self)))
        stallRequests.withLock { _ in wrappers.append(wrapper) }
        return UnsafeMutableRawPointer(wrapper)
    }

    /// Frees the wrappers: only once the backend is closed (libpulse calls
    /// them until its stream is gone), so the switch must outlive it.
    deinit {
        for wrapper in wrappers {
            wrapper.deinitialize(count: 1)
            wrapper.deallocate()
        }
    }
}
