import CPulseAudio
import Foundation
import SoundBackend
import SoundCore
import SoundSession
import Synchronization

/// Contexts: connecting both, describing the server, starting the server
/// model, and the bounded wait every control call uses.
extension Connection {
    /// Makes a context on `loop` (stored as the loop's context, see
    /// ``context(of:)``) and waits until it is ready, trying again a
    /// few times (10, 20, 40, 80, 160 ms apart, within the deadline) when the
    /// connection is refused: a busy server's accept backlog overflows under
    /// a burst of connections (measured in CI: one `initialize` among many
    /// parallel clients refused), and a game should not fail to start for
    /// that. `loop`'s lock held.
    func connectContext(
        _ loop: PAMainloop, deadline: ContinuousClock.Instant, stateCallback: PAContext.NotifyCallback
    ) throws(SoundEngineError) -> PAContext {
        var backoff = Duration.milliseconds(10)
        while true {
            do throws(SoundEngineError) {
                return try connectContextOnce(loop, deadline: deadline, stateCallback: stateCallback)
            } catch {
                let refused = context(of: loop)?.wasRefused ?? false
                guard refused, backoff <= .milliseconds(160), ContinuousClock.now.advanced(by: backoff) < deadline
                else { throw error }
                discardContext(of: loop)
                // Nothing else uses the loop while connecting: sleep unlocked.
                loop.unlock()
                var ts = timespec(tv_sec: 0, tv_nsec: Int(backoff.components.attoseconds / 1_000_000_000))
                _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nil)
                loop.lock()
                backoff *= 2
            }
        }
    }

    /// The context that lives on `loop`: the playback one on the playback
    /// loop, the control one on the control loop.
    func context(of loop: PAMainloop) -> PAContext? {
        loop.raw == mainloop?.raw ? self.context : controlContext
    }

    /// Stores the context that lives on `loop`.
    func setContext(_ ctx: PAContext?, of loop: PAMainloop) {
        if loop.raw == mainloop?.raw { context = ctx } else { controlContext = ctx }
    }

    /// Disconnects and releases the context on `loop` (a failed attempt's,
    /// or at teardown), its state callback first so it stays quiet. Lock held.
    func discardContext(of loop: PAMainloop) {
        guard let ctx = context(of: loop) else { return }
        ctx.setStateCallback(nil, nil)
        ctx.disconnect()
        ctx.unref()
        setContext(nil, of: loop)
    }

    func connectContextOnce(
        _ loop: PAMainloop, deadline: ContinuousClock.Instant, stateCallback: PAContext.NotifyCallback
    ) throws(SoundEngineError) -> PAContext {
        var props = ["application.name": configuration.applicationName,
                     "application.process.binary": ProcessInfo.processInfo.processName]
        if let id = configuration.applicationID { props["application.id"] = id }
        // Our audio reaches the server through the socket, not shared memory.
        // PulseAudio 16 aborts (memblock.c, memblock_replace_import) when the
        // main thread frees a disconnecting client's imported blocks while its
        // I/O thread drops the last of them: a game that terminates or swaps
        // its stream often would take every application's sound down with
        // the server. Copying 384 kB/s through the socket costs nothing a
        // game notices. docs/pulseaudio.md, "No shared memory".
        props[PA_PROP_CONTEXT_FORCE_DISABLE_SHM] = "yes"
        let proplist = PAProplist.make(props)
        defer { proplist.free() }
        guard let ctx = PAContext.make(mainloop: loop, name: configuration.applicationName, properties: proplist) else {
            throw .insufficientMemory("libpulse could not create a context")
        }
        // Stored before the wait, so waitLocked's timers and teardown find it.
        setContext(ctx, of: loop)
        ctx.setStateCallback(stateCallback, userdata)
        guard ctx.connect(server: configuration.serverAddress) else {
            throw .deviceNotReady("cannot connect to PulseAudio at \(addressTried): \(ctx.lastError)")
        }
        let ready = waitLocked(loop, deadline: deadline) { ctx.isReady || !ctx.isGood }
        guard ctx.isReady else {
            let why = ready ? ctx.lastError : "no answer within \(configuration.connectTimeout)"
            throw .deviceNotReady("cannot connect to PulseAudio at \(addressTried): \(why)")
        }
        return ctx
    }

    func queryServer(_ loop: PAMainloop, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        guard let ctx = context, let op = ctx.getServerInfo(serverInfoCallback, userdata) else {
            throw .deviceNotReady("PulseAudio at \(addressTried) refused the server-info request")
        }
        defer { op.unref() }
        _ = waitLocked(loop, deadline: deadline) { !op.isRunning || !ctx.isGood }
        guard serverInfo != nil else {
            throw .deviceNotReady("PulseAudio at \(addressTried) did not describe itself: \(ctx.lastError)")
        }
    }

    /// Starts the server model on the control context; `ownClient` is the
    /// playback context's client, whose streams are ours. Control lock held.
    func startModel(
        _ control: PAMainloop, _ ctx: PAContext, ownClient: UInt32, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) {
        let model = ServerModel(
            context: ctx, mainloop: control,
            wait: { [unowned self] deadline, done in waitLocked(control, deadline: deadline, done) },
            emit: { [events] event in events(.system(event)) })
        self.model = model
        snapshot = try model.start(ownClient: ownClient, deadline: deadline)
    }

    /// Runs `body` on the server model with the control lock held; `nil`
    /// when there is none. Never from the control loop thread.
    func withModel<T>(_ body: (ServerModel) -> T) -> T? {
        guard let control = controlLoop else { return nil }
        return control.withLock { model.map(body) }
    }

    /// Waits, with the mainloop lock held, until `done()` or the deadline.
    /// A one-shot timer wakes the wait at the deadline, so this never hangs.
    /// Returns whether `done()` became true.
    func waitLocked(_ loop: PAMainloop, deadline: ContinuousClock.Instant, _ done: () -> Bool) -> Bool {
        if done() { return true }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero, let ctx = context(of: loop) else { return false }
        // A one-shot timer wakes the wait at the deadline. It may fire a
        // little early (libpulse's clock and ours round differently): then it
        // is armed again for what is left, so the wait is always bounded.
        func micros(_ d: Duration) -> UInt64 {
            UInt64(max(0, d.components.seconds)) * 1_000_000 + UInt64(max(0, d.components.attoseconds) / 1_000_000_000_000) + 1
        }
        var timer = ctx.timer(after: micros(remaining), wakeCallback, UnsafeMutableRawPointer(loop.raw))
        defer { if let timer { PAContext.freeTimer(timer, mainloop: loop) } }
        while !done() {
            let now = ContinuousClock.now
            if now >= deadline { return false }
            if timer == nil { return false }  // no timer: never wait unbounded
            loop.wait()
            if !done(), ContinuousClock.now < deadline, let spent = timer {
                PAContext.freeTimer(spent, mainloop: loop)
                timer = ctx.timer(after: micros(ContinuousClock.now.duration(to: deadline)), wakeCallback, UnsafeMutableRawPointer(loop.raw))
            }
        }
        return true
    }
}
