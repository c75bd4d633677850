import Synchronization

/// What a game thread may ask about the output at any time, kept in atomics
/// for the backend's whole life (across connections and stream re-creations),
/// so no getter ever takes a lock that a server round trip holds.
///
/// Plain memory (no class reference): the write callback, on the render
/// thread, updates the counters and the latency without reference counting.
/// The backend allocates it in `init` and frees it in `deinit`, after every
/// loop thread that could touch it has been joined.
struct BackendStatus: ~Copyable {
    /// Render entry calls and frames since `open` (write callback only; relaxed: counters).
    let renderCalls = Atomic<UInt64>(0)
    let framesRendered = Atomic<UInt64>(0)
    /// Underflows the server reported (relaxed: a counter).
    let underflows = Atomic<UInt64>(0)
    /// Connections made again after a loss (relaxed: a counter).
    let reconnects = Atomic<UInt64>(0)
    /// `pa_stream_get_latency` as the last write callback saw it (µs; `.max`:
    /// unknown). Relaxed: a published number.
    let latencyMicros = Atomic<UInt64>(.max)
    /// Whether a playback stream is open, corked, and its index. Written with
    /// the playback loop's lock held (releasing), read anywhere (acquiring).
    let streamOpen = Atomic<Bool>(false)
    let corked = Atomic<Bool>(true)
    let streamIndex = Atomic<UInt32>(paInvalidIndex)
    /// Counts playback streams opened: the stall watchdog judges one stream at a time.
    let streamGeneration = Atomic<UInt64>(0)
}
