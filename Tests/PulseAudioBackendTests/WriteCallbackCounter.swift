import SoundCore
import CAllocationCounter
import Glibc
import Synchronization

// Counting heap calls around the backend's whole write callback, with no hook
// in Sources: this test binary defines `pa_stream_set_write_callback` itself.
// The backend's call to it binds to this definition when the test binary is
// linked (a definition in the executable wins over libpulse's), and this one
// forwards to libpulse's, found with dlsym(RTLD_NEXT). Unless a test asked
// for it on the calling thread, it forwards the callback unchanged, so every
// other test in the binary runs exactly as before. When asked, it installs
// `countedWriteCallback` instead, which arms the malloc counter, calls the
// backend's callback (`pulseWriteCallback`: its begin_write, the render
// entry, its pa_stream_write, its counters) and disarms the counter: what
// libpulse's mainloop calls is counted as a whole.

/// libpulse's `pa_stream_request_cb_t`.
typealias StreamRequestCallback = @convention(c) (OpaquePointer?, Int, UnsafeMutableRawPointer?) -> Void

/// The backend's callback and userdata, and the slot to count into.
private struct CountedCallback {
    var callback: StreamRequestCallback
    var userdata: UnsafeMutableRawPointer?
    var slot: Int32
}

/// Runs on the mainloop thread in place of the backend's write callback.
private let countedWriteCallback: StreamRequestCallback = { stream, requested, context in
    let counted = context!.assumingMemoryBound(to: CountedCallback.self)
    se_alloc_counter_arm(counted.pointee.slot)
    counted.pointee.callback(stream, requested, counted.pointee.userdata)
    se_alloc_counter_disarm()
}

/// libpulse's own `pa_stream_set_write_callback`.
private let libpulseSetWriteCallback: @convention(c) (OpaquePointer?, StreamRequestCallback?, UnsafeMutableRawPointer?) -> Void = {
    // RTLD_NEXT is ((void *) -1): the next object after this executable, libpulse.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "pa_stream_set_write_callback") else {
        fatalError("pa_stream_set_write_callback not found after the test binary: is libpulse linked?")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (OpaquePointer?, StreamRequestCallback?, UnsafeMutableRawPointer?) -> Void).self)
}()

/// A wrapper installed in libpulse: plain memory, read only by the mainloop
/// thread once installed, freed by `WriteCallbackCounter.finish`.
private struct Installed: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CountedCallback>
}

/// Which threads asked for counting (by `pthread_self`), with their slot and
/// the wrappers installed for them.
private let requests = ControlLock<[UInt: (slot: Int32, installed: [Installed])]>([:])

@_cdecl("pa_stream_set_write_callback")
func interposedSetWriteCallback(
    _ stream: OpaquePointer?, _ callback: StreamRequestCallback?, _ userdata: UnsafeMutableRawPointer?
) {
    let me = UInt(pthread_self())
    let slot = requests.withLock { $0[me]?.slot }
    if let callback, let slot {
        let wrapper = UnsafeMutablePointer<CountedCallback>.allocate(capacity: 1)
        wrapper.initialize(to: CountedCallback(callback: callback, userdata: userdata, slot: slot))
        requests.withLock { $0[me]?.installed.append(Installed(pointer: wrapper)) }
        libpulseSetWriteCallback(stream, countedWriteCallback, UnsafeMutableRawPointer(wrapper))
    } else if let callback, let stall = StallSwitch.installing(on: me) {
        libpulseSetWriteCallback(stream, stallableWriteCallback, stall.wrap(callback, userdata))
    } else {
        libpulseSetWriteCallback(stream, callback, userdata)
    }
}

/// Counts the heap calls of every call libpulse makes to the write callbacks
/// installed by `installing`, into an allocation-counter slot.
///
/// Only libpulse's calls are counted: the backend's own pre-fill before an
/// uncork calls `pulseWriteCallback` directly, on the control thread. That
/// pre-fill makes the first pa_stream_write after a start or a flush, the one
/// that allocates (libpulse asks for a timing update, PA_STREAM_AUTO_TIMING_UPDATE).
final class WriteCallbackCounter {
    let slot: Int32
    /// The wrappers `installing` put in, until `finish` frees them.
    private var installed: [Installed] = []

    init(slot: Int32) { self.slot = slot }

    /// Runs `body` (which opens the backend) with the write callbacks it
    /// installs on this thread counted.
    func installing<R>(_ body: () throws -> R) rethrows -> R {
        let me = UInt(pthread_self())
        requests.withLock { $0[me] = (slot, []) }
        defer { installed += requests.withLock { $0.removeValue(forKey: me)?.installed ?? [] } }
        return try body()
    }

    /// How many write callbacks were replaced by counting ones.
    var replacedCallbacks: Int { installed.count }

    /// Frees the wrappers. Only once the backend is closed: libpulse calls
    /// them until the stream is gone. (Never called: they leak, harmlessly.)
    func finish() {
        for wrapper in installed {
            wrapper.pointer.deinitialize(count: 1)
            wrapper.pointer.deallocate()
        }
        installed = []
    }
}
