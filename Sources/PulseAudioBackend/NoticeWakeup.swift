import CPulseAudio

/// How the control loop learns that the playback side pushed
/// ``StreamNotice``s (docs/pulseaudio.md, "Two contexts, two threads"): a
/// watch on the ``StreamNoticeRing``'s pipe, or, when the ring has no pipe
/// (`pipe()` failed: out of descriptors), a timer that drains the ring every
/// ``pollInterval`` and is re-armed each time. Either way `drain` runs on the
/// control loop thread with its lock held, so cork requests, underflows and
/// stream failures are delivered with or without the pipe.
///
/// Confinement: made and freed with the control loop's lock held
/// (`Connection.connect` and `teardown`); after ``free()`` neither the watch
/// nor the timer can call it again.
final class NoticeWakeup {
    /// How often the timer drains the ring when there is no pipe (µs): the
    /// same 10 ms the event thread polls at.
    static let pollInterval: UInt64 = 10_000

    private let loop: PAMainloop
    private let context: PAContext
    private let drain: () -> Void
    /// The pipe's io event, or (no pipe) the re-armed timer.
    private var watch: OpaquePointer?
    private var timer: PATimerBox?

    /// Watches `wakeFD` (the ring's pipe) on `loop`, or, when it is -1 or
    /// cannot be watched, arms the timer on `context` (the control context).
    /// Control lock held.
    init(wakeFD: Int32, loop: PAMainloop, context: PAContext, drain: @escaping () -> Void) {
        self.loop = loop
        self.context = context
        self.drain = drain
        if wakeFD >= 0 {
            watch = loop.watchReadable(wakeFD, noticeReadableCallback, Unmanaged.passUnretained(self).toOpaque())
        }
        if watch == nil {
            let box = PATimerBox { [unowned self] in tick() }
            timer = box
            context.arm(box, after: Self.pollInterval)
        }
    }

    /// The timer fired (control loop thread): drain, and look again in 10 ms.
    private func tick() {
        drain()
        if let timer { context.arm(timer, after: Self.pollInterval) }
    }

    /// Frees the watch or the timer; nothing calls `drain` after this. Control lock held.
    func free() {
        if let watch { loop.freeWatch(watch) }
        watch = nil
        if let timer { PAContext.cancelTimer(timer, mainloop: loop) }
        timer = nil
    }

    /// The pipe is readable (control loop thread).
    fileprivate func pipeReadable() { drain() }
}

/// The notice pipe is readable: drain the ring (control loop thread).
private func noticeReadableCallback(
    _ api: UnsafeMutablePointer<pa_mainloop_api>?, _ event: OpaquePointer?, _ fd: Int32, _ flags: pa_io_event_flags_t,
    _ userdata: UnsafeMutableRawPointer?
) {
    guard let userdata else { return }
    Unmanaged<NoticeWakeup>.fromOpaque(userdata).takeUnretainedValue().pipeReadable()
}
