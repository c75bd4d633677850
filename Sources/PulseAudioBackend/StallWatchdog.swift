import CPulseAudio
import Foundation
import SoundCore

/// Notices a playback stream that stopped asking for audio (peer bugs 3 and
/// 5 in shared/reference/peer-backends.md: a pipewire-pulse stream whose
/// write callback stops coming, a disconnect reported only as a suspend):
/// every 100 ms on the control loop it looks at the frames the write
/// callback has rendered. While our stream is open, uncorked and on a device
/// that is not suspended, no progress for ``timeout`` is a stall, reported
/// once per stream as ``BackendEvent/streamFailed(_:)`` — the engine then
/// re-creates the stream as after a failure.
///
/// Confinement: the control loop thread (its timer) or a thread holding the
/// control lock (`stop`).
final class StallWatchdog {
    private unowned let connection: Connection
    private let context: PAContext
    private let mainloop: PAMainloop
    private var timer: PATimerBox?
    private var judge: StallJudge

    static let period: UInt64 = 100_000  // µs

    /// How long an open, uncorked stream may go without a write request.
    var timeout: Duration { judge.timeout }

    init(connection: Connection, context: PAContext, mainloop: PAMainloop) {
        self.connection = connection
        self.context = context
        self.mainloop = mainloop
        let configuration = connection.configuration
        judge = StallJudge(
            timeout: StallJudge.timeout(targetFrames: configuration.latency.targetFrames, sampleRate: configuration.format.sampleRate))
        let box = PATimerBox { [unowned self] in tick() }
        timer = box
        context.arm(box, after: Self.period)
    }

    /// The stream failed (its state callback said so): it is not judged again.
    func streamFailed() {
        // acquiring: pairs with openPlayback's releasing store.
        judge.streamFailed(generation: connection.status.pointee.streamGeneration.load(ordering: .acquiring))
    }

    /// Stops the timer. Control lock held.
    func stop() {
        if let timer { PAContext.cancelTimer(timer, mainloop: mainloop) }
        timer = nil
    }

    private func tick() {
        guard let timer else { return }
        defer { context.arm(timer, after: Self.period) }
        let status = connection.status
        // acquiring: pairs with openPlayback's releasing stores.
        let look = StallJudge.Look(
            generation: status.pointee.streamGeneration.load(ordering: .acquiring),
            frames: status.pointee.framesRendered.load(ordering: .relaxed),
            playing: status.pointee.streamOpen.load(ordering: .acquiring)
                && !status.pointee.corked.load(ordering: .acquiring) && !connection.deviceSuspended)
        guard let stalled = judge.look(look, at: .now) else { return }
        connection.events(.streamFailed("our playback stream stalled: no write request for \(stalled) while playing"))
    }
}

/// The watchdog's judgement, apart from its timer and the stream: fed what
/// the stream did at each look, it says when that is a stall. Pure, for its
/// tests.
struct StallJudge {
    /// What the watchdog sees of our stream at one look.
    struct Look {
        /// Which stream (a new one starts a new judgement).
        var generation: UInt64
        /// Frames the write callback has rendered so far.
        var frames: UInt64
        /// Open, uncorked and on a device that is not suspended: the server should be asking.
        var playing: Bool
    }

    /// How long an open, uncorked stream may go without rendering.
    let timeout: Duration
    /// How long it may go without rendering in its first ``startup`` of
    /// playing (a stream just created or uncorked). A device can take
    /// seconds to ask after the top-up at the start: PulseAudio 16's null
    /// sink with no reader asks after 1.6–2 s, a Bluetooth sink resuming
    /// takes about as long. Judged by ``timeout`` there, every start on
    /// such a device was a "stall", and a media-services reset for the game.
    static let startupTimeout: Duration = .seconds(3)
    /// How long the start-up allowance lasts, from the start of playing.
    static let startup: Duration = .milliseconds(2500)
    /// Looks that saw progress after which the device is asking steadily and
    /// the allowance is over, even inside ``startup``: the top-up at the
    /// start can span two looks; a third means the device has begun asking.
    /// A server that hangs a second after the game began to play is a stall
    /// judged by ``timeout``, not a slow start.
    static let steadyLooks = 3
    /// The stream being judged, the frames it had last time, since when,
    /// and when this stretch of playing began.
    private var generation: UInt64?
    private var frames: UInt64 = 0
    private var since: ContinuousClock.Instant?
    private var playingSince: ContinuousClock.Instant?
    /// Looks since ``playingSince`` that saw the frames move.
    private var progressLooks = 0
    /// Reported (or failed) already: nothing more until the next stream.
    private var done = false

    init(timeout: Duration) { self.timeout = timeout }

    /// 16 buffer lengths, at least half a second (a busy machine can hold a
    /// server back for a while without anything being wrong).
    static func timeout(targetFrames: Int, sampleRate: Int) -> Duration {
        let buffer = Duration.microseconds(Int64(targetFrames) * 1_000_000 / Int64(max(1, sampleRate)))
        return max(.milliseconds(500), buffer * 16)
    }

    /// Stream `generation` failed by itself: it is not judged again (even
    /// when it failed before the first look at it).
    mutating func streamFailed(generation: UInt64) {
        if generation != self.generation {
            self.generation = generation
            since = nil
        }
        done = true
    }

    /// One look at `now`: how long the stream has gone without rendering
    /// while playing, when that is a stall to report (once per stream);
    /// `nil` otherwise. Progress, a pause or a new stream start the wait
    /// again; a wait that began in the first ``startup`` of playing, before
    /// the device asked steadily (``steadyLooks``), is held to
    /// ``startupTimeout``.
    mutating func look(_ look: Look, at now: ContinuousClock.Instant) -> Duration? {
        if look.generation != generation {
            generation = look.generation
            done = false
            since = nil
            playingSince = nil
        }
        if !look.playing {
            playingSince = nil
        } else if playingSince == nil {
            playingSince = now
            progressLooks = 0
        }
        guard look.playing, look.frames == frames, let since, let start = playingSince else {
            if look.playing, look.frames != frames { progressLooks += 1 }
            frames = look.frames
            since = look.playing ? now : nil
            return nil
        }
        let slowStart = since - start < Self.startup && progressLooks < Self.steadyLooks
        let limit = slowStart ? max(timeout, Self.startupTimeout) : timeout
        guard !done, now - since >= limit else { return nil }
        done = true
        return now - since
    }
}
