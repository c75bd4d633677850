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
        let proplist = PAProplist.make(configuration.contextProplist)
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

    /// The server's name, version and instance cookie. Lock held.
    func queryServer(_ loop: PAMainloop, deadline: ContinuousClock.Instant) throws(SoundEngineError) -> PAServerInfo {
        guard let ctx = context else { throw .fail("internal: no context") }
        var info: PAServerInfo?
        var ended = false
        let request = PAListRequest<PAServerInfo>(onItem: { info = $0 }, onEnd: { _ in
            ended = true
            loop.signal()
        })
        guard let op = ctx.getServerInfo(request) else {
            throw .deviceNotReady("PulseAudio at \(addressTried) refused the server-info request")
        }
        defer { op.unref() }
        _ = waitLocked(loop, deadline: deadline) { ended || !ctx.isGood }
        if !ended { op.cancel() }
        guard let info else {
            throw .deviceNotReady("PulseAudio at \(addressTried) did not describe itself: \(ctx.lastError)")
        }
        return info
    }

    /// Repairs what the journals hold, then starts the server model on the
    /// control context; `ownClient` is the playback context's client, whose
    /// streams are ours. Control lock held.
    func startModel(
        _ control: PAMainloop, _ ctx: PAContext, ownClient: UInt32, server: PAServerInfo, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) -> ServerModel {
        let runner = RequestRunner(context: ctx, mainloop: control) { [unowned self] deadline, done in
            waitLocked(control, deadline: deadline, done)
        }
        // What this engine held before the connection was lost, and what
        // crashed engines left behind, is given back before the model looks
        // at the server: the snapshot must show the streams as their owners
        // left them, or our old mute would pass for the user's.
        holds.repair(using: runner, on: server, deadline: deadline, at: .connect)
        let model = ServerModel(
            requests: runner, server: server, holds: holds, ownRestoreKey: configuration.ownRestoreKey,
            emit: { [events] event in events(.system(event)) })
        self.model = model
        snapshot = try model.start(ownClient: ownClient, deadline: deadline)
        return model
    }

    /// Waits, with the mainloop lock held, until `done()` or the deadline
    /// (``PAMainloop/waitLocked(timers:deadline:_:)`` with the loop's context).
    func waitLocked(_ loop: PAMainloop, deadline: ContinuousClock.Instant, _ done: () -> Bool) -> Bool {
        guard let ctx = context(of: loop) else { return done() }
        return loop.waitLocked(timers: ctx, deadline: deadline, done)
    }
}
