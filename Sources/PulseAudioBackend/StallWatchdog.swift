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
    /// How long an open, uncorked stream may go without a write request: 16
    /// buffer lengths, at least half a second (a busy machine can hold a
    /// server back for a while without anything being wrong).
    let timeout: Duration
    private unowned let connection: Connection
    private let context: PAContext
    private let mainloop: PAMainloop
    private var timer: PATimerBox?
    /// The stream being judged, the frames it had last time, and since when.
    private var generation: UInt64 = 0
    private var frames: UInt64 = 0
    private var since = ContinuousClock.now
    /// Reported (or failed) already: nothing more until the next stream.
    private var done = false

    static let period: UInt64 = 100_000  // µs

    init(connection: Connection, context: PAContext, mainloop: PAMainloop) {
        self.connection = connection
        self.context = context
        self.mainloop = mainloop
        let configuration = connection.configuration
        let buffer = Duration.microseconds(
            Int64(configuration.latency.targetFrames) * 1_000_000 / Int64(max(1, configuration.format.sampleRate)))
        timeout = max(.milliseconds(500), buffer * 16)
        let box = PATimerBox { [unowned self] in tick() }
        timer = box
        context.arm(box, after: Self.period)
    }

    /// The stream failed (its state callback said so): it is not judged again.
    func streamFailed() { done = true }

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
        let current = status.pointee.streamGeneration.load(ordering: .acquiring)
        let rendered = status.pointee.framesRendered.load(ordering: .relaxed)
        let now = ContinuousClock.now
        if current != generation {
            generation = current
            done = false
        }
        let playing = status.pointee.streamOpen.load(ordering: .acquiring)
            && !status.pointee.corked.load(ordering: .acquiring) && !connection.deviceSuspended
        if !playing || rendered != frames {
            frames = rendered
            since = now
            return
        }
        guard !done, now - since >= timeout else { return }
        done = true
        connection.events(.streamFailed(
            "our playback stream stalled: no write request for \(now - since) while playing"))
    }
}
