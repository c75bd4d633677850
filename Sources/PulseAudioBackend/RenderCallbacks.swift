import CPulseAudio
import SoundCore
import Synchronization

// MARK: - Render state (the real-time world)

/// What the write callback needs, in plain memory: no class references, so
/// the callback does no reference counting. Allocated once per connection and
/// freed after the stream is gone.
struct RenderState: ~Copyable {
    let entry: RenderEntry
    /// The current stream's frame size; set when a stream is created, with
    /// the mainloop lock held (no callback runs then).
    var bytesPerFrame: Int
    /// The backend's counters and latency (its lifetime outlives this state's).
    let status: UnsafeMutablePointer<BackendStatus>
    /// Set while the stream is corked (and before its first uncork): the
    /// write callback then writes nothing, so the engine's clock is the only
    /// renderer and the flushed buffer stays empty until the uncork's
    /// pre-fill renders fresh audio. Written with the mainloop lock held.
    let paused = Atomic<Bool>(true)
    /// The playback mainloop (`pa_threaded_mainloop`), signalled when an
    /// uncork's timing reply has released the write callback.
    let mainloop: OpaquePointer

    init(entry: RenderEntry, bytesPerFrame: Int, status: UnsafeMutablePointer<BackendStatus>, mainloop: OpaquePointer) {
        self.entry = entry
        self.bytesPerFrame = bytesPerFrame
        self.status = status
        self.mainloop = mainloop
    }
}

/// The uncork's timing reply (`pa_stream_update_timing_info`), on the
/// mainloop thread with its lock held: libpulse knows the write index again,
/// so the write callback is released here and tops the buffer up at once —
/// not when the thread that asked for the uncork next gets a CPU. On a busy
/// machine that thread can wait longer than the pre-fill lasts, and the
/// stream ran dry for a server cycle shortly after every wake-up (issue 15:
/// a 5 ms gap of silence mid-waveform, a jump of up to the tone's amplitude).
/// Then the waiting thread is woken. The render path's rules hold.
@_noLocks @_noAllocation
func uncorkTimingCallback(_ stream: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    let state = userdata.assumingMemoryBound(to: RenderState.self)
    if let stream {
        state.pointee.paused.store(false, ordering: .relaxed)
        // pa_stream_writable_size reads the stream's counters: no lock, no allocation.
        let writable = _unsafePerformance { PAStream(raw: stream).writableSize }
        if writable > 0 { pulseWriteCallback(stream, writable, userdata) }
    }
    _unsafePerformance { PAMainloop(raw: state.pointee.mainloop).signal() }
}

/// The PulseAudio write callback: fills every byte the server asks for by
/// calling the render entry on buffers from `pa_stream_begin_write`.
/// The render path: no locks, no allocation, no reference counting.
@_noLocks @_noAllocation
func pulseWriteCallback(_ stream: OpaquePointer?, _ requested: Int, _ userdata: UnsafeMutableRawPointer?) {
    guard let stream, let userdata else { return }
    let state = userdata.assumingMemoryBound(to: RenderState.self)
    // Corked: the server asks to fill the flushed buffer; it is filled on uncork.
    if state.pointee.paused.load(ordering: .relaxed) { return }
    let s = PAStream(raw: stream)
    let bytesPerFrame = state.pointee.bytesPerFrame
    var remaining = requested
    var calls: UInt64 = 0
    var frames: UInt64 = 0
    while remaining >= bytesPerFrame {
        var data: UnsafeMutableRawPointer? = nil
        var size = remaining
        // A zero-length or failed buffer means "not now": stop, the server asks again (FreeRDP#13334).
        guard s.beginWrite(&data, &size), let buffer = data, size >= bytesPerFrame else { break }
        let count = size / bytesPerFrame
        state.pointee.entry(buffer, frames: count)
        guard s.write(buffer, count * bytesPerFrame) else { break }
        remaining -= count * bytesPerFrame
        calls &+= 1
        frames &+= UInt64(count)
    }
    let status = state.pointee.status
    status.pointee.renderCalls.wrappingAdd(calls, ordering: .relaxed)
    status.pointee.framesRendered.wrappingAdd(frames, ordering: .relaxed)
    status.pointee.latencyMicros.store(s.renderLatencyMicroseconds(), ordering: .relaxed)
}

/// What the read callback needs, in plain memory (no class references).
struct CaptureState {
    let ring: UnsafeMutablePointer<CaptureRing>
    let channels: Int
}

/// The PulseAudio read callback: moves every captured fragment into the
/// capture ring. On the mainloop thread, which also renders: no locks, no
/// allocation, no reference counting.
@_noLocks @_noAllocation
func pulseReadCallback(_ stream: OpaquePointer?, _ available: Int, _ userdata: UnsafeMutableRawPointer?) {
    guard let stream, let userdata else { return }
    let state = userdata.assumingMemoryBound(to: CaptureState.self)
    let s = PAStream(raw: stream)
    let channels = state.pointee.channels
    while true {
        var data: UnsafeRawPointer? = nil
        var size = 0
        guard s.peek(&data, &size), size > 0 else { break }
        // No data with a size is a hole in the capture: silence.
        let samples = data?.assumingMemoryBound(to: Float.self)
        state.pointee.ring.pointee.write(samples, count: size / 4, channels: channels)
        s.drop()
    }
}
