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
            defer {
                // Unanswered (a timeout): its reply must never release the
                // write callback later, into a stream corked again by then.
                if let timing, timing.isRunning { timing.cancel() }
                timing?.unref()
            }
            if !corked, let state = renderState {
                // Fill what the server will take before uncorking: a stream
                // that starts empty waits for its prebuffer, and the server
                // may not ask for it for a second or more (every peer pre-fills).
                // Under the mainloop lock, so never concurrently with the write callback.
                state.pointee.paused.store(false, ordering: .relaxed)
                writeLeadIn(s, frames: configuration.format.sampleRate / 100)
                // A whole target buffer, whatever the server has asked for
                // so far: right after the flush it may have asked for little,
                // and the stream must not run dry before the timing reply
                // below releases the write callback (on a busy server that
                // reply can take longer than a few milliseconds).
                let target = configuration.latency.targetFrames * configuration.format.bytesPerFrame
                pulseWriteCallback(s.raw, max(s.writableSize, target), UnsafeMutableRawPointer(state))
                // The write callback waits until libpulse knows the write
                // index again. The flush at the last cork made it unknown, and
                // while it is unknown every pa_stream_write asks the server
                // for timing, which libpulse allocates for (an operation, a
                // reply record, a timer) on the render thread. A request sent
                // after these writes makes the index known; until its reply
                // the buffer holds the lead-in and the pre-fill, and the reply
                // itself releases the write callback on the mainloop thread
                // (uncorkTimingCallback).
                state.pointee.paused.store(true, ordering: .relaxed)
                timing = s.updateTimingInfo(uncorkTimingCallback, UnsafeMutableRawPointer(state))
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
                // Released by the timing reply already; topped up with what
                // the server asked for since (usually nothing).
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
    ///
    /// Between timing updates `pa_stream_get_time` is interpolated on our
    /// clock, which runs ahead of a server that is late (a busy machine),
    /// and never goes back: so the target reached by interpolation is
    /// confirmed by a fresh update's own read index before this returns
    /// (issue 15: under load, the cork after a fade sometimes came while
    /// the fade was still playing, and cut it).
    func waitUntilPlayed(extraFrames: Int, timeout: Duration) {
        guard let loop = mainloop else { return }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        /// A fresh timing update; false when the stream is corked or gone. Lock held.
        func update(_ s: PAStream, _ ctx: PAContext) -> Bool {
            guard let op = s.updateTimingInfo(operationDoneCallback, UnsafeMutableRawPointer(loop.raw)) else { return false }
            defer { op.unref() }
            return waitLocked(loop, deadline: deadline) { !op.isRunning || !ctx.isGood } && ctx.isReady && s.isReady
        }
        let target: UInt64? = loop.withLock {
            guard let ctx = context, ctx.isReady, let s = stream, s.isReady, !s.isCorked else { return nil }
            _ = update(s, ctx)
            let extra = UInt64(extraFrames) * 1_000_000 / UInt64(configuration.format.sampleRate)
            if let written = s.writtenMicroseconds { return written + extra }
            // The write index is unknown: what is heard now plus the latency is the same point.
            guard let played = s.playedMicroseconds, let latency = s.latencyMicroseconds else { return nil }
            return played + latency + extra
        }
        guard let target else { return }
        while ContinuousClock.now < deadline {
            let played: UInt64? = loop.withLock {
                guard let ctx = context, ctx.isReady, let s = stream, s.isReady, !s.isCorked else { return nil }
                guard let estimate = s.playedMicroseconds, estimate >= target else { return s.playedMicroseconds }
                // Reached by interpolation: ask the server.
                guard update(s, ctx) else { return nil }
                return s.heardAtLastUpdateMicroseconds
            }
            guard let played, played < target else { return }
            let wait = min(target - played, 2_000)
            var ts = timespec(tv_sec: 0, tv_nsec: Int(wait) * 1_000)
            _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nil)
        }
    }
}
