import Foundation
import SoundCore
import SoundMixer
import SoundSession
import Synchronization

/// The live profiler's link (docs/profiling.md): a listening Unix-domain
/// socket and one thread (`SoundEngine-prf`, not real-time) that accepts
/// tools, samples the engine at each connection's rate (at most 30 Hz),
/// forwards every notification and answers commands.
///
/// Never in the game's way: every socket is non-blocking, each connection's
/// output is a fixed-size buffer (``outputCapacity``) where a message that
/// does not fit is dropped and counted, and the engine calls it only to
/// queue a notification (``notify(_:)``: a short lock, a pipe write). Nothing
/// here runs on, or waits for, the render thread.
final class ProfilerLink: @unchecked Sendable {
    // @unchecked: `connections`, `lastTiming` and `interruptionReason` are
    // touched only by the link's thread (started in init, joined by stop);
    // `thread` is written once in init before anyone can call stop; the
    // inbox is behind its Mutex; the rest is immutable.

    /// The socket's path (removed by ``stop()``).
    let path: String
    /// Whether tools may edit (``ProfilerSettings/allowsEdits``).
    let edits: Bool
    /// Bytes buffered per connection before messages are dropped.
    static let outputCapacity = 256 * 1024
    /// The sample rate of a new connection, and the highest a tool may ask for.
    static let defaultRate = 30
    /// Notifications waiting for the thread, at most (beyond: dropped, counted).
    static let inboxCapacity = 1024
    /// SoundEngine's version as `hello` reports it (sound_engine.h's SE_VERSION_*).
    static let engineVersion = "1.2.0"

    private struct Inbox {
        var events: [SessionEvent] = []
        var dropped: UInt64 = 0
        var stopping = false
    }
    private let inbox = Mutex(Inbox())
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let engine: WeakBox<SoundEngineInstance>
    private let started: ContinuousClock.Instant
    private let log: any SoundLogger
    private var thread: pthread_t?
    private var connections: [ProfilerConnection] = []
    private var lastTiming: Mixer.RenderTiming?
    private var interruptionReason: InterruptionReason?
    /// Notifications the inbox dropped, already added to every connection's count.
    private var inboxDropsCounted: UInt64 = 0

    /// Opens the socket and starts the thread; `nil` (and the logger says
    /// why) when the folder or the socket cannot be had: the game plays on
    /// without a link.
    static func start(
        _ settings: ProfilerSettings, engine: SoundEngineInstance, started: ContinuousClock.Instant,
        environment: [String: String], log: any SoundLogger
    ) -> ProfilerLink? {
        let (folder, path) = ProfilerSystem.socketPath(environment: environment)
        if let problem = ProfilerSystem.prepareFolder(folder) {
            log.log(.warning, "profiler link off: \(problem)")
            return nil
        }
        ProfilerSystem.removeStaleSockets(in: folder)
        if FileManager.default.fileExists(atPath: path) {
            log.log(.warning, "profiler link off: \(path) exists (another engine of this process has the link)")
            return nil
        }
        let listener: Int32
        switch ProfilerSystem.listen(at: path) {
        case .success(let fd): listener = fd
        case .failure(let error):
            log.log(.warning, "profiler link off: \(error)")
            return nil
        }
        guard let (wakeRead, wakeWrite) = ProfilerSystem.wakePipe() else {
            ProfilerSystem.close(listener)
            ProfilerSystem.unlink(path)
            log.log(.warning, "profiler link off: no pipe")
            return nil
        }
        let link = ProfilerLink(
            path: path, edits: settings.allowsEdits, listener: listener, wake: (wakeRead, wakeWrite), engine: engine,
            started: started, log: log)
        log.log(.info, "profiler link at \(path)\(settings.allowsEdits ? ", edits allowed" : "")")
        return link
    }

    private init(
        path: String, edits: Bool, listener: Int32, wake: (Int32, Int32), engine: SoundEngineInstance,
        started: ContinuousClock.Instant, log: any SoundLogger
    ) {
        self.path = path
        self.edits = edits
        self.listener = listener
        (wakeRead, wakeWrite) = wake
        let box = WeakBox<SoundEngineInstance>()
        box.value = engine
        self.engine = box
        self.started = started
        self.log = log
        thread = EngineThread.start("SoundEngine-prf", batch: true) { self.run() }
    }

    /// Queues a notification for every connection (the event thread, as it
    /// delivers one to the game). A short lock and a pipe write; never blocks.
    func notify(_ event: SessionEvent) {
        inbox.withLock { inbox in
            // Under the lock: once stop() has set `stopping`, the pipe may be closed.
            guard !inbox.stopping else { return }
            if inbox.events.count < Self.inboxCapacity { inbox.events.append(event) } else { inbox.dropped += 1 }
            ProfilerSystem.wake(wakeWrite)
        }
    }

    /// Closes every connection and the socket, removes the socket file and
    /// joins the thread. Idempotent.
    func stop() {
        let already = inbox.withLock { inbox in
            defer { inbox.stopping = true }
            return inbox.stopping
        }
        guard !already, let thread else { return }
        ProfilerSystem.wake(wakeWrite)  // no notify writes any more: it sees `stopping`
        pthread_join(thread, nil)
        ProfilerSystem.close(wakeRead)
        ProfilerSystem.close(wakeWrite)
    }

    // MARK: - The link's thread

    private var now: Double { TimeArgument.seconds(ContinuousClock.now - started) }

    private func run() {
        ProfilerSystem.lowerCallingThreadPriority()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            sampleDue()
            var watches = [
                ProfilerSystem.Watch(fd: wakeRead, readable: true, writable: false),
                ProfilerSystem.Watch(fd: listener, readable: true, writable: false),
            ]
            watches += connections.map { ProfilerSystem.Watch(fd: $0.fd, readable: true, writable: !$0.output.isEmpty) }
            ProfilerSystem.poll(&watches, timeoutMilliseconds: timeout())
            if watches[0].canRead {
                ProfilerSystem.drain(wakeRead)
                if takeInbox() { break }
            }
            if watches[1].canRead { acceptWaiting() }
            for (i, watch) in watches.dropFirst(2).enumerated() where watch.canRead {
                readCommands(connections[i], into: &buffer)
            }
            for connection in connections { connection.flush() }
            connections.removeAll { connection in
                if connection.isOpen { return false }
                connection.close()
                return true
            }
        }
        for connection in connections { connection.close() }
        connections = []
        ProfilerSystem.close(listener)
        ProfilerSystem.unlink(path)
    }

    /// Milliseconds until the next sample is due (a second when none is connected).
    private func timeout() -> Int32 {
        let next = connections.map(\.nextSample).min()
        guard let next else { return 1000 }
        let wait = TimeArgument.seconds(next - .now)
        return Int32(max(0, min(1000, (wait * 1000).rounded(.up))))
    }

    /// Sends the notifications waiting; `true` when the link is stopping.
    private func takeInbox() -> Bool {
        let (events, dropped, stopping) = inbox.withLock { inbox in
            defer { inbox.events.removeAll(keepingCapacity: true) }
            return (inbox.events, inbox.dropped, inbox.stopping)
        }
        if stopping { return true }
        if dropped > inboxDropsCounted {
            for connection in connections { connection.output.countDropped(dropped - inboxDropsCounted) }
            inboxDropsCounted = dropped
        }
        guard !events.isEmpty, let engine = engine.value else { return false }
        let t = now
        for event in events {
            if case .interruption(let i) = event { interruptionReason = i.type == .began ? i.reason ?? .default : nil }
            let line = SoundEngineInstance.profilerNotification(event, t: t)
            for connection in connections { connection.send(line) }
        }
        // A notification usually comes with a new session picture: send it now,
        // not at the next sample.
        let session = engine.profilerSession(t: t, interruptionReason: interruptionReason)
        for connection in connections { connection.sendIfChanged(session: session) }
        return false
    }

    private func acceptWaiting() {
        while let fd = ProfilerSystem.accept(listener) {
            guard ProfilerSystem.peerUID(fd) == ProfilerSystem.uid else {
                log.log(.warning, "profiler link: refused a connection from another user")
                ProfilerSystem.close(fd)
                continue
            }
            guard let engine = engine.value else {
                ProfilerSystem.close(fd)
                continue
            }
            let connection = ProfilerConnection(fd: fd, capacity: Self.outputCapacity, rate: Self.defaultRate)
            let t = now
            connection.send(engine.profilerHello(t: t, rate: connection.rate, edits: edits))
            connection.sendIfChanged(session: engine.profilerSession(t: t, interruptionReason: interruptionReason))
            connection.send(engine.profilerVoices(t: t))
            connection.send(engine.profilerBuses(t: t))
            connection.sendIfChanged(syncs: engine.profilerSyncs(t: t))
            let timing = engine.mixer.takeRenderTiming()
            connection.send(performance: engine.profilerPerformance(t: t, timing: timing, previous: lastTiming))
            lastTiming = timing
            connection.nextSample = .now + .seconds(1.0 / Double(connection.rate))
            connections.append(connection)
        }
    }

    /// One sample for every connection whose time has come: the messages are
    /// made once and sent to each.
    private func sampleDue() {
        let clock = ContinuousClock.now
        let due = connections.filter { $0.nextSample <= clock }
        guard !due.isEmpty, let engine = engine.value else { return }
        let t = now
        let voices = engine.profilerVoices(t: t)
        let buses = engine.profilerBuses(t: t)
        let session = engine.profilerSession(t: t, interruptionReason: interruptionReason)
        let syncs = engine.profilerSyncs(t: t)
        let timing = engine.mixer.takeRenderTiming()
        let performance = engine.profilerPerformance(t: t, timing: timing, previous: lastTiming)
        lastTiming = timing
        for connection in due {
            connection.sendIfChanged(session: session)
            connection.sendIfChanged(syncs: syncs)
            connection.send(voices)
            connection.send(buses)
            connection.send(performance: performance)
            let period = Duration.seconds(1.0 / Double(connection.rate))
            let next = connection.nextSample + period
            connection.nextSample = next > clock ? next : clock + period  // fell behind: no burst
        }
    }

    /// Reads what a connection sent and answers each complete line.
    private func readCommands(_ connection: ProfilerConnection, into buffer: inout [UInt8]) {
        while connection.isOpen {
            let transfer = buffer.withUnsafeMutableBytes { ProfilerSystem.read(connection.fd, into: $0) }
            guard case .bytes(let n) = transfer else {
                if transfer == .closed { connection.isOpen = false }
                return
            }
            switch connection.reader.take(buffer.prefix(n)) {
            case .oversized:
                connection.isOpen = false
                return
            case .lines(let lines):
                for line in lines {
                    let t = now
                    let answer = ProfilerCommand.answer(line, link: self, connection: connection, engine: engine.value)
                    connection.send(answer.line(t: t))
                }
            }
        }
    }
}
