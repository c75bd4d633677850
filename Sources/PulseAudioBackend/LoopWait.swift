import CPulseAudio

extension PAMainloop {
    /// Waits, with the loop's lock held, until `done()` or the deadline; a
    /// one-shot timer on `ctx` wakes the wait at the deadline, so this never
    /// hangs (`pa_threaded_mainloop_wait` has no timeout). Returns whether
    /// `done()` became true. Every control wait of the backend is this one.
    func waitLocked(timers ctx: PAContext, deadline: ContinuousClock.Instant, _ done: () -> Bool) -> Bool {
        if done() { return true }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        // A one-shot timer wakes the wait at the deadline. It may fire a
        // little early (libpulse's clock and ours round differently): then it
        // is armed again for what is left, so the wait is always bounded.
        func micros(_ d: Duration) -> UInt64 {
            UInt64(max(0, d.components.seconds)) * 1_000_000 + UInt64(max(0, d.components.attoseconds) / 1_000_000_000_000) + 1
        }
        var timer = ctx.timer(after: micros(remaining), wakeCallback, UnsafeMutableRawPointer(raw))
        defer { if let timer { PAContext.freeTimer(timer, mainloop: self) } }
        while !done() {
            let now = ContinuousClock.now
            if now >= deadline { return false }
            if timer == nil { return false }  // no timer: never wait unbounded
            wait()
            if !done(), ContinuousClock.now < deadline, let spent = timer {
                PAContext.freeTimer(spent, mainloop: self)
                timer = ctx.timer(after: micros(ContinuousClock.now.duration(to: deadline)), wakeCallback, UnsafeMutableRawPointer(raw))
            }
        }
        return true
    }
}

/// Wakes waiters when a timer fires; userdata is the mainloop.
func wakeCallback(
    _ api: UnsafeMutablePointer<pa_mainloop_api>?, _ event: OpaquePointer?, _ tv: UnsafePointer<timeval>?,
    _ userdata: UnsafeMutableRawPointer?
) {
    guard let userdata else { return }
    PAMainloop(raw: OpaquePointer(userdata)).signal()
}

/// Wakes waiters when a context's state changes; userdata is the mainloop.
func signalLoopCallback(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    PAMainloop(raw: OpaquePointer(userdata)).signal()
}
