import SoundCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The streaming thread: opens the sources of streamed voices, decodes ahead
/// into their preallocated rings, notices when the render thread released a
/// ring, and closes the source. Never touched by the render thread, which
/// sees only the rings (``StreamRing``).
///
/// The thread starts with the first streamed voice and ends in ``stop()``.
/// It wakes every 5 ms while any stream plays (and when signalled), and
/// sleeps without timeout otherwise.
final class Streamer: @unchecked Sendable {
    // @unchecked: `core` points to the mixer's render core, which outlives the
    // thread (the mixer stops the thread before destroying the core); the rest
    // of the mutable state is behind `state` or owned by the thread.

    private struct State {
        var jobs: [StreamJob] = []
        var events: [MixerEvent] = []
        var started = false
        var stopping = false
        var thread: pthread_t?
    }

    private let state = ControlLock(State())
    private let wakeup = Wakeup()
    private let core: UnsafeMutablePointer<RenderCore>
    /// Frames read per source call.
    private let chunkFrames = 1024

    init(core: UnsafeMutablePointer<RenderCore>) {
        self.core = core
    }

    /// Whether ``stop()`` was called: streamed voices can no longer start.
    var isStopped: Bool { state.withLock { $0.stopping } }

    /// Hands `job` to the thread, starting it if needed (under the lock, so
    /// that a concurrent `stop()` always finds the thread to join).
    func submit(_ job: StreamJob) {
        state.withLock { s in
            s.jobs.append(job)
            guard !s.started && !s.stopping else { return }
            s.started = true
            s.thread = EngineThread.start("SoundEngine-str") { self.run() }
        }
        wakeup.signal()
    }

    /// Events the thread produced (failed sources) since the last call.
    func takeEvents() -> [MixerEvent] {
        state.withLock { s in
            defer { s.events.removeAll() }
            return s.events
        }
    }

    /// Stops and joins the thread; closes every source. Idempotent.
    func stop() {
        let thread = state.withLock { s -> pthread_t? in
            s.stopping = true
            defer { s.thread = nil }
            return s.thread
        }
        wakeup.signal()
        if let thread { pthread_join(thread, nil) }
    }

    // MARK: - The thread

    private final class Active {
        let slot: Int
        let voice: VoiceID
        let loop: Bool
        var source: (any AudioFrameSource)?
        var downmix = Downmix(channels: 1)
        var scratch: [Float] = []
        var primed = false
        var ended = false

        init(_ job: StreamJob) {
            slot = job.slot
            voice = job.voice
            loop = job.loop
        }
    }

    private func run() {
        var active: [Active] = []
        while true {
            let (jobs, stopping) = state.withLock { s in
                defer { s.jobs.removeAll() }
                return (s.jobs, s.stopping)
            }
            if stopping { return }
            for job in jobs { active.append(open(job)) }
            active.removeAll { serve($0) }
            wakeup.wait(milliseconds: active.isEmpty ? nil : 5)
        }
    }

    private func open(_ job: StreamJob) -> Active {
        let stream = Active(job)
        let ring = core.pointee.streams[job.slot]
        do throws(SoundEngineError) {
            let source = try job.opener()
            let format = source.format
            guard format.channelCount >= 1, (1000...768_000).contains(format.sampleRate) else {
                throw .invalidFile(
                    "stream has \(format.channelCount) channels at \(format.sampleRate) Hz; needs ≥ 1 at 1000…768000 Hz")
            }
            if job.startFrame > 0 { try source.seek(toFrame: job.startFrame) }
            stream.source = source
            stream.downmix = Downmix(channels: format.channelCount)
            stream.scratch = [Float](repeating: 0, count: chunkFrames * format.channelCount)
            ring.shared.pointee.planes = stream.downmix.planes
            ring.shared.pointee.sampleRate = format.sampleRate
            // What comes before frame 0 is silence, as in an in-memory sound
            // loaded without a loop: the interpolator's first taps read the
            // guard before the ring, which may hold a previous voice's frames.
            // (The render thread reads nothing before the slot is ready.)
            for j in 1...StreamRing.guardFrames {
                ring.plane0[-j] = 0
                ring.plane1[-j] = 0
            }
        } catch {
            fail(stream, error)
        }
        return stream
    }

    private func fail(_ stream: Active, _ error: SoundEngineError) {
        let ring = core.pointee.streams[stream.slot]
        stream.source = nil
        state.withLock { $0.events.append(.streamFailed(stream.voice, error)) }
        if stream.primed {
            // releasing: pairs with the render thread's acquiring load; it ends the voice here.
            ring.shared.pointee.endFrame.store(
                ring.shared.pointee.written.load(ordering: .relaxed), ordering: .releasing)
            stream.ended = true
        } else {
            // releasing/acquiring: pairs with the render thread's acquiring load
            // (it ends the voice); fails if the render thread released the slot first.
            _ = ring.shared.pointee.state.compareExchange(
                expected: StreamState.claimed.rawValue, desired: StreamState.failed.rawValue,
                ordering: .acquiringAndReleasing)
        }
    }

    /// Tops up one stream; `true` when its slot was released and is free again.
    private func serve(_ stream: Active) -> Bool {
        let ring = core.pointee.streams[stream.slot]
        let shared = ring.shared
        // acquiring: pairs with the render thread's releasing store of
        // `released`; its reads of the ring happened before we reset it.
        if shared.pointee.state.load(ordering: .acquiring) == StreamState.released.rawValue {
            stream.source = nil
            // relaxed (three): nobody else reads the slot until the releasing store below.
            shared.pointee.written.store(0, ordering: .relaxed)
            shared.pointee.consumed.store(0, ordering: .relaxed)
            shared.pointee.endFrame.store(.max, ordering: .relaxed)
            // releasing: pairs with the control side's acquiring CAS that claims the slot.
            shared.pointee.state.store(StreamState.free.rawValue, ordering: .releasing)
            return true
        }
        guard let source = stream.source, !stream.ended else { return false }
        do throws(SoundEngineError) {
            try fill(stream, source, ring)
        } catch {
            fail(stream, error)
            return false
        }
        prime(stream, ring)
        return false
    }

    /// Hands the stream to the render thread once half its ring (or all of a
    /// short source) is decoded.
    private func prime(_ stream: Active, _ ring: StreamRing) {
        guard !stream.primed, stream.source != nil || stream.ended else { return }
        // relaxed: only this thread writes `written`.
        guard stream.ended || ring.shared.pointee.written.load(ordering: .relaxed) >= ring.capacity / 2 else { return }
        stream.primed = true
        // releasing: publishes the format and pre-filled frames to the render
        // thread's acquiring load; fails if the voice was stopped meanwhile.
        _ = ring.shared.pointee.state.compareExchange(
            expected: StreamState.claimed.rawValue, desired: StreamState.ready.rawValue,
            ordering: .acquiringAndReleasing)
    }

    /// Decodes until the ring is full or the source ended.
    private func fill(_ stream: Active, _ source: any AudioFrameSource, _ ring: StreamRing) throws(SoundEngineError) {
        let shared = ring.shared
        let capacity = ring.capacity
        var written = shared.pointee.written.load(ordering: .relaxed)  // relaxed: only this thread writes it
        var rewound = false
        while true {
            // acquiring: pairs with the render thread's releasing store of
            // `consumed`; it no longer reads the frames we overwrite.
            let consumed = shared.pointee.consumed.load(ordering: .acquiring)
            var room = consumed + capacity - written
            // The first lap's last frames are mirrored into the guard before
            // frame 0, which the consumer reads as the silence before the
            // start until it has moved past it: hold them back until then.
            if consumed < StreamRing.guardFrames { room = min(room, capacity - StreamRing.guardFrames - written) }
            let wanted = min(chunkFrames, room)
            if wanted < min(chunkFrames, StreamRing.guardFrames * 8) { return }
            let got = try stream.scratch.withUnsafeMutableBufferPointer { buffer throws(SoundEngineError) in
                try source.read(into: buffer.baseAddress!, frames: wanted)
            }
            stream.scratch.withUnsafeBufferPointer { buffer in
                let x = buffer.baseAddress!
                for i in 0..<got {
                    let index = (written + i) % capacity
                    stream.downmix.fold(
                        x, frame: i, into: { ring.write($0, plane: ring.plane0, at: index) },
                        { ring.write($0, plane: ring.plane1, at: index) })
                }
            }
            if got > 0 { rewound = false }
            written += got
            // releasing: pairs with the render thread's acquiring load; publishes the frames above.
            shared.pointee.written.store(written, ordering: .releasing)
            prime(stream, ring)
            if got < wanted {
                if stream.loop && !rewound {
                    try source.seek(toFrame: 0)
                    rewound = true  // a source that yields nothing after a rewind ends instead of spinning
                    continue
                }
                try finish(stream, ring, at: written)
                return
            }
        }
    }

    /// Writes silence after the last frame so the resampler's taps read zeros, then publishes the end.
    private func finish(_ stream: Active, _ ring: StreamRing, at end: Int) throws(SoundEngineError) {
        let shared = ring.shared
        let g = StreamRing.guardFrames
        // acquiring: as in fill(); wait (on later wake-ups) until the silence fits.
        guard shared.pointee.consumed.load(ordering: .acquiring) + ring.capacity - end >= g else { return }
        for i in 0..<g {
            let index = (end + i) % ring.capacity
            ring.write(0, plane: ring.plane0, at: index)
            ring.write(0, plane: ring.plane1, at: index)
        }
        // releasing (both): pair with the render thread's acquiring loads.
        shared.pointee.written.store(end + g, ordering: .releasing)
        shared.pointee.endFrame.store(end, ordering: .releasing)
        stream.ended = true
        prime(stream, ring)
    }
}
