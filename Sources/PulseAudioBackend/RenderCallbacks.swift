import CPulseAudio
import SoundCore
import Synchronization

// MARK: - Render state (the real-time world)

/// What the write callback needs, in plain memory: no class references, so
/// the callback does no reference counting. Allocated once per connection and
/// freed after the stream is gone.
struct RenderState: ~Copyable {
    let entry: RenderEntry
    let bytesPerFrame: Int
    /// The backend's counters and latency (its lifetime outlives this state's).
    let status: UnsafeMutablePointer<BackendStatus>
    /// Set while the stream is corked (and before its first uncork): the
    /// write callback then writes nothing, so the engine's clock is the only
    /// renderer and the flushed buffer stays empty until the uncork's
    /// pre-fill renders fresh audio. Written with the mainloop lock held.
    let paused = Atomic<Bool>(true)

    init(entry: RenderEntry, bytesPerFrame: Int, status: UnsafeMutablePointer<BackendStatus>) {
        self.entry = entry
        self.bytesPerFrame = bytesPerFrame
        self.status = status
    }
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
