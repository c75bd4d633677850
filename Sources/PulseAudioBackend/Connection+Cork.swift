import CPulseAudio
import Foundation
import SoundBackend
import SoundCore
import SoundSession
import Synchronization

/// Pausing and resuming our stream without a click: cork and flush,
/// uncork after a pre-fill, and waiting until what was written is heard
/// (docs/decisions/0006).
extension Connection {
    func setCorked(_ corked: Bool) throws(SoundEngineError) {
        guard let loop = mainloop else { throw .deviceNotReady("the PulseAudio stream is not open") }
        try loop.withLock { () throws(SoundEngineError) in
            guard let ctx = context, ctx.isReady, let s = stream, s.isReady else {
                throw .mediaServicesFailed("the connection to PulseAudio at \(addressTried) is gone")
            }
            var timing: PAOperation? = nil
            defer { timing?.unref() }
            if !corked, let state = renderState {
                // Fill what the server will take before uncorking: a stream
                // that starts empty waits for its prebuffer, and the server
                // may not ask for it for a second or more (every peer pre-fills).
                // Under the mainloop lock, so never concurrently with the write callback.
                state.pointee.paused.store(false, ordering: .relaxed)
                writeLeadIn(s, frames: configuration.format.sampleRate / 100)
                pulseWriteCallback(s.raw, s.writableSize, UnsafeMutableRawPointer(state))
                // The write callback waits until libpulse knows the write
                // index again. The flush at the last cork made it unknown, and
                // while it is unknown every pa_stream_write asks the server
                // for timing, which libpulse allocates for (an operation, a
                // reply record, a timer) on the render thread. A request sent
                // after these writes makes the index known; until its reply
                // the buffer holds the lead-in and the pre-fill.
                state.pointee.paused.store(true, ordering: .relaxed)
                timing = s.updateTimingInfo(operationDoneCallback, UnsafeMutableRawPointer(loop.raw))
            }
            if corked { renderState?.pointee.paused.store(true, ordering: .relaxed) }
            guard let op = s.cork(corked, operationDoneCallback, UnsafeMutableRawPointer(loop.raw)) else {
                throw .fail("PulseAudio refused to \(corked ? "cork" : "uncork") our stream: \(ctx.lastError)")
            }
            defer { op.unref() }
            // Corked, what is still buffered is dropped: it is the silence
            // after the engine's fade (or audio the game asked to cut), and
            // must not play when the stream starts again.
            let flush = corked ? s.flush(operationDoneCallback, UnsafeMutableRawPointer(loop.raw)) : nil
            defer { flush?.unref() }
            let deadline = ContinuousClock.now.advanced(by: .seconds(2))
            let confirmed = waitLocked(loop, deadline: deadline) {
                (!op.isRunning && !(flush?.isRunning ?? false) && !(timing?.isRunning ?? false)) || !ctx.isGood
            }
            if !corked, let state = renderState {
                // Released, and topped up with what the server asked for meanwhile.
                state.pointee.paused.store(false, ordering: .relaxed)
                if ctx.isReady && s.isReady { pulseWriteCallback(s.raw, s.writableSize, UnsafeMutableRawPointer(state)) }
            }
            guard confirmed, ctx.isReady else {
                throw .deviceNotReady("PulseAudio at \(addressTried) did not confirm the \(corked ? "cork" : "uncork")")
            }
            status.pointee.corked.store(corked, ordering: .releasing)  // releasing: pairs with the getters
        }
    }

    /// Writes `frames` of silence ahead of the audio an uncork starts with.
    /// PulseAudio can drop the first few milliseconds of a stream that starts
    /// playing on a running sink (measured: up to ~200 frames on a null sink's
    /// monitor); the fade-in must not be what is dropped. Lock held.
    func writeLeadIn(_ s: PAStream, frames: Int) {
        var remaining = frames * configuration.format.bytesPerFrame
        while remaining > 0 {
            var data: UnsafeMutableRawPointer? = nil
            var size = remaining
            guard s.beginWrite(&data, &size), let buffer = data, size > 0 else { return }
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            guard s.write(buffer, size) else { return }
            remaining -= size
        }
    }

    /// Waits (unlocked between polls) until everything written so far, plus
    /// `extraFrames` the render entry may still hold, has been heard:
    /// `pa_stream_get_time` reaching the write index of a fresh timing update.
    /// Returns at once when the stream is corked, gone or has no timing.
    func waitUntilPlayed(extraFrames: Int, timeout: Duration) {
        guard let loop = mainloop else { return }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let target: UInt64? = loop.withLock {
            guard let ctx = context, ctx.isReady, let s = stream, s.isReady, !s.isCorked else { return nil }
            if let op = s.updateTimingInfo(operationDoneCallback, UnsafeMutableRawPointer(loop.raw)) {
                defer { op.unref() }
                _ = waitLocked(loop, deadline: deadline) { !op.isRunning || !ctx.isGood }
            }
            let extra = UInt64(extraFrames) * 1_000_000 / UInt64(configuration.format.sampleRate)
            if let written = s.writtenMicroseconds { return written + extra }
            // The write index is unknown: what is heard now plus the latency is the same point.
            guard let played = s.playedMicroseconds, let latency = s.latencyMicroseconds else { return nil }
            return played + latency + extra
        }
        guard let target else { return }
        while ContinuousClock.now < deadline {
            let played: UInt64? = loop.withLock {
                guard context?.isReady == true, let s = stream, s.isReady, !s.isCorked else { return nil }
                return s.playedMicroseconds
            }
            guard let played, played < target else { return }
            let wait = min(target - played, 2_000)
            var ts = timespec(tv_sec: 0, tv_nsec: Int(wait) * 1_000)
            _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nil)
        }
    }
}
