import CPulseAudio
import Foundation
import SoundCore

/// A short-lived control connection of its own (one threaded mainloop, one
/// context) for repairs made outside a running engine: the guardian, and a
/// journal left on another server than the engine's.
enum RepairConnection {
    /// Connects to `address` (`nil`: libpulse's default), runs `body` with the
    /// loop lock held on a request runner and the server's description, and
    /// disconnects. Everything within `timeout`.
    static func run<T>(
        address: String?, applicationName: String, timeout: Duration,
        _ body: (RequestRunner, PAServerInfo, ContinuousClock.Instant) throws(SoundEngineError) -> T
    ) throws(SoundEngineError) -> T {
        let deadline = ContinuousClock.now + timeout
        guard let loop = PAMainloop.make(name: "SoundEngine-fix") else {
            throw .insufficientMemory("libpulse could not create a threaded mainloop")
        }
        defer { loop.free() }
        guard loop.start() else { throw .fail("libpulse could not start its mainloop thread") }
        defer { loop.stop() }
        return try loop.withLock { () throws(SoundEngineError) -> T in
            let proplist = PAProplist.make([
                PAStreamProperty.applicationName: applicationName,
                PAStreamProperty.forceDisableSHM: "yes",
            ])
            defer { proplist.free() }
            guard let ctx = PAContext.make(mainloop: loop, name: applicationName, properties: proplist) else {
                throw .insufficientMemory("libpulse could not create a context")
            }
            let runner = RequestRunner(context: ctx, mainloop: loop) { deadline, done in
                loop.waitLocked(timers: ctx, deadline: deadline, done)
            }
            defer {
                runner.stop()
                ctx.setStateCallback(nil, nil)
                ctx.disconnect()
                ctx.unref()
            }
            ctx.setStateCallback(signalLoopCallback, UnsafeMutableRawPointer(loop.raw))
            let place = Connection.describeAddress(address)
            guard ctx.connect(server: address) else {
                throw .deviceNotReady("cannot connect to PulseAudio at \(place): \(ctx.lastError)")
            }
            _ = loop.waitLocked(timers: ctx, deadline: deadline) { ctx.isReady || !ctx.isGood }
            guard ctx.isReady else {
                throw .deviceNotReady("cannot connect to PulseAudio at \(place): \(ctx.isGood ? "no answer" : ctx.lastError)")
            }
            guard let info = try runner.list("describe itself", deadline: deadline, { ctx.getServerInfo($0) })?.first
            else { throw .deviceNotReady("PulseAudio at \(place) did not describe itself") }
            return try body(runner, info, deadline)
        }
    }
}
