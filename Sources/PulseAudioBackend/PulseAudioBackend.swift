package import SoundBackend
package import SoundCore
package import SoundSession
import CPulseAudio
import Dispatch
import Foundation
import Synchronization

/// The PulseAudio backend: one `pa_context` on a `pa_threaded_mainloop`, one
/// float32 (or s16) playback stream whose write callback calls the
/// ``RenderEntry`` directly on the mainloop thread.
///
/// Works with a PulseAudio daemon and with pipewire-pulse. How each piece is
/// set up, and why the buffer sizes are what they are: docs/pulseaudio.md.
///
/// Threading: the ``AudioBackend`` methods are called from control threads;
/// they take the mainloop lock for every libpulse call. The render entry and
/// the event handler run on the mainloop thread (`SoundEngine-pulse`).
package final class PulseAudioBackend: AudioBackend, @unchecked Sendable {
    // @unchecked: `link` is only changed under its Mutex; the Connection's own
    // mutable fields are only touched with its mainloop lock held (libpulse
    // runs every callback under that lock); `captureRing` is plain memory
    // with one producer and one consumer (see CaptureRing).
    private struct Link {
        var connection: Connection?
        /// What `open` was given, kept for reconnects (stream properties
        /// follow `setStreamProperties`).
        var configuration: BackendConfiguration?
        var render: RenderEntry?
        var events: BackendEventHandler?
        var closing = false
        var reconnector: Reconnector?
        var reconnects: UInt64 = 0
    }

    private let link = ControlLock(Link())
    private let closedStatistics = ControlLock(BackendStatistics())
    /// Captured input, from the record stream's read callback to `readCapture`.
    private let captureRing: UnsafeMutablePointer<CaptureRing>
    /// Whether connections wake their control loop through a pipe (else a 10 ms timer; see NoticeWakeup).
    private let noticePipe: Bool

    /// Creates an unconnected backend; ``open(_:render:events:)`` connects.
    public convenience init() { self.init(noticePipe: true) }

    /// `noticePipe: false` gives connections no notice pipe, as when `pipe()`
    /// fails, so the timer fallback runs (its test uses it).
    init(noticePipe: Bool) {
        self.noticePipe = noticePipe
        captureRing = .allocate(capacity: 1)
        captureRing.initialize(to: CaptureRing(minimumCapacity: 1 << 17))
    }

    deinit {
        close()
        captureRing.pointee.free()
        captureRing.deinitialize(count: 1)
        captureRing.deallocate()
    }

    public func open(
        _ configuration: BackendConfiguration,
        render: RenderEntry,
        events: @escaping BackendEventHandler
    ) throws(SoundEngineError) -> GrantedStream {
        try link.withLock { link throws(SoundEngineError) in
            guard link.connection == nil, link.configuration == nil else { throw .alreadyInitialized }
            let reconnector = Reconnector(backend: self)
            let connection = makeConnection(configuration, render: render, events: events, reconnector: reconnector)
            do throws(SoundEngineError) {
                let granted = try connection.connect()
                link = Link(
                    connection: connection, configuration: configuration, render: render, events: events,
                    reconnector: reconnector, reconnects: link.reconnects)
                return granted
            } catch {
                connection.teardown()
                reconnector.stop()
                throw error
            }
        }
    }

    /// A connection whose loss wakes `reconnector`. The loss is noticed on the
    /// mainloop thread with the mainloop lock held, so waking must not take
    /// `link` (control threads take `link`, then the mainloop lock).
    private func makeConnection(
        _ configuration: BackendConfiguration, render: RenderEntry, events: @escaping BackendEventHandler,
        reconnector: Reconnector
    ) -> Connection {
        Connection(
            configuration: configuration, render: render, events: events, captureRing: captureRing,
            noticePipe: noticePipe, onLost: { [weak reconnector] in reconnector?.wake() })
    }

    public func setPaused(_ paused: Bool) throws(SoundEngineError) {
        try link.withLock { link throws(SoundEngineError) in
            guard let connection = link.connection else { throw .deviceNotReady("the PulseAudio stream is not open") }
            try connection.setCorked(paused)
        }
    }

    public func perform(_ action: SessionAction) throws(SoundEngineError) {
        try link.withLock { link throws(SoundEngineError) in
            guard let connection = link.connection else {
                throw .mediaServicesFailed("the PulseAudio connection is not open (server away or closed)")
            }
            try connection.perform(action)
            // A reconnect re-creates the streams with the latest properties.
            if case .setStreamProperties = action { link.configuration = connection.configuration }
        }
    }

    public func readCapture(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let channels = link.withLock({ $0.configuration?.captureChannels }) else { return 0 }
        return captureRing.pointee.read(into: buffer, channels: channels) / channels
    }

    public func close() {
        let (connection, reconnector) = link.withLock { link -> (Connection?, Reconnector?) in
            defer { link = Link(reconnects: link.reconnects) }
            link.closing = true
            return (link.connection, link.reconnector)
        }
        // The reconnect thread takes `link` itself: join it unlocked.
        reconnector?.stop()
        if let connection {
            let final = connection.statistics
            connection.teardown()
            closedStatistics.withLock { $0 = final }
        }
    }

    public var statistics: BackendStatistics {
        let (live, reconnects) = link.withLock { ($0.connection?.statistics, $0.reconnects) }
        var stats = live ?? closedStatistics.withLock { $0 }
        stats.reconnects = reconnects
        return stats
    }

    public var outputLatency: Duration? {
        link.withLock { $0.connection?.latency }
    }

    public func waitUntilPlayed(extraFrames: Int, timeout: Duration) {
        // Under `link`, so close and reconnects wait; the wait is bounded by `timeout`.
        link.withLock { $0.connection?.waitUntilPlayed(extraFrames: extraFrames, timeout: timeout) }
    }

    /// Whether our stream is currently corked on the server, or `nil` when not open.
    public var isCorked: Bool? {
        link.withLock { $0.connection?.isCorked }
    }

    /// Our stream's index on the server (the sink-input index `pactl` shows), or `nil` when not open.
    public var streamIndex: UInt32? {
        link.withLock { $0.connection?.streamIndex }
    }

    /// Our capture stream's index on the server (the source-output index), or `nil` when none is open.
    public var captureIndex: UInt32? {
        link.withLock { $0.connection?.captureIndex }
    }

    // MARK: Reconnecting

    /// Reconnect thread: tears the dead connection down, then tries again
    /// with back-off (50 ms doubling to 250 ms) until a connection is made
    /// or the backend closes. Returns when done.
    fileprivate func reconnect(_ reconnector: Reconnector) {
        let dead = link.withLock { link -> Connection? in
            defer { link.connection = nil }
            return link.connection?.isLost == true ? link.connection : nil
        }
        guard let dead else { return }  // nothing lost (a spurious wake)
        let final = dead.statistics
        dead.teardown()
        closedStatistics.withLock { $0 = final }
        var backoff = Duration.milliseconds(50)
        while true {
            let outcome = link.withLock { link -> Result<(GrantedStream, BackendEventHandler), SoundEngineError>? in
                guard !link.closing, var configuration = link.configuration, let render = link.render,
                    let events = link.events
                else { return nil }
                configuration.connectTimeout = configuration.reconnectTimeout
                let connection = makeConnection(configuration, render: render, events: events, reconnector: reconnector)
                do throws(SoundEngineError) {
                    let granted = try connection.connect()
                    link.connection = connection
                    link.reconnects += 1
                    return .success((granted, events))
                } catch {
                    connection.teardown()
                    return .failure(error)
                }
            }
            switch outcome {
            case nil:
                return  // closed
            case .success(let (granted, events))?:
                events(.reconnected(granted))
                return
            case .failure?:
                guard reconnector.sleep(backoff) else { return }
                backoff = min(backoff * 2, .milliseconds(250))
            }
        }
    }
}

/// The backend's reconnect thread (`SoundEngine-reconnect`, one per `open`):
/// sleeps until a connection is lost, then reconnects. ``stop()`` wakes and joins it; a
/// sleep between attempts ends at once.
private final class Reconnector: @unchecked Sendable {
    // @unchecked: `thread` is written once in init; the rest is atomics and a semaphore.
    private let semaphore = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private var thread = pthread_t()

    init(backend: PulseAudioBackend) {
        let context = Unmanaged.passRetained(Box(backend: backend, reconnector: self)).toOpaque()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            CurrentThread.setName("SoundEngine-reconnect")
            box.reconnector?.run(box)
            return nil
        }, context)
        precondition(result == 0, "Reconnector: pthread_create failed (\(result))")
    }

    /// What the thread holds: the backend weakly (it owns us), ourselves weakly.
    private final class Box {
        weak var backend: PulseAudioBackend?
        weak var reconnector: Reconnector?
        init(backend: PulseAudioBackend, reconnector: Reconnector) {
            self.backend = backend
            self.reconnector = reconnector
        }
    }

    func wake() { semaphore.signal() }

    /// Sleeps `duration` unless stopped meanwhile; returns false when stopped.
    func sleep(_ duration: Duration) -> Bool {
        let (s, atto) = duration.components
        _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(s) * 1_000_000_000 + Int(atto / 1_000_000_000)))
        return !stopping.load(ordering: .acquiring)
    }

    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        semaphore.signal()
        pthread_join(thread, nil)
    }

    private func run(_ box: Box) {
        while !stopping.load(ordering: .acquiring) {
            semaphore.wait()
            if stopping.load(ordering: .acquiring) { return }
            box.backend?.reconnect(self)
        }
    }
}

// MARK: - Render state (the real-time world)

/// What the write callback needs, in plain memory: no class references, so
/// the callback does no reference counting. Allocated once per connection and
/// freed after the stream is gone.
struct RenderState: ~Copyable {
    let entry: RenderEntry
    let bytesPerFrame: Int
    /// Incremented by the write callback only; read by `statistics` (relaxed: a counter, no data published).
    let renderCalls = Atomic<UInt64>(0)
    /// Same pairing as `renderCalls`.
    let framesRendered = Atomic<UInt64>(0)
    /// Set while the stream is corked (and before its first uncork): the
    /// write callback then writes nothing, so the engine's clock is the only
    /// renderer and the flushed buffer stays empty until the uncork's
    /// pre-fill renders fresh audio. Written with the mainloop lock held.
    let paused = Atomic<Bool>(true)
    /// `pa_stream_get_latency` as the last write callback saw it (µs; `.max`: unknown).
    let latencyMicros = Atomic<UInt64>(.max)

    init(entry: RenderEntry, bytesPerFrame: Int) {
        self.entry = entry
        self.bytesPerFrame = bytesPerFrame
    }
}

/// The PulseAudio write callback: fills every byte the server asks for by
/// calling the render entry on buffers from `pa_stream_begin_write`.
/// The render path: no locks, no allocation, no reference counting.
@_noLocks @_noAllocation
func pulseWriteCallback(_ stream: OpaquePointer?, _ requested: Int, _ userdata: UnsafeMutableRawPointer?) {
    guard let stream, let userdata else { return }
    let state = userdata.assumingMemoryBound(to: RenderState.self)
    // Corked: the server asks to fill the flushed buffer; it is filled on uncork.
    if state.pointee.paused.load(ordering: .relaxed) { return }
    let s = PAStream(raw: stream)
    let bytesPerFrame = state.pointee.bytesPerFrame
    var remaining = requested
    var calls: UInt64 = 0
    var frames: UInt64 = 0
    while remaining >= bytesPerFrame {
        var data: UnsafeMutableRawPointer? = nil
        var size = remaining
        // A zero-length or failed buffer means "not now": stop, the server asks again (FreeRDP#13334).
        guard s.beginWrite(&data, &size), let buffer = data, size >= bytesPerFrame else { break }
        let count = size / bytesPerFrame
        state.pointee.entry(buffer, frames: count)
        guard s.write(buffer, count * bytesPerFrame) else { break }
        remaining -= count * bytesPerFrame
        calls &+= 1
        frames &+= UInt64(count)
    }
    state.pointee.renderCalls.wrappingAdd(calls, ordering: .relaxed)
    state.pointee.framesRendered.wrappingAdd(frames, ordering: .relaxed)
    state.pointee.latencyMicros.store(s.renderLatencyMicroseconds(), ordering: .relaxed)
}

/// What the read callback needs, in plain memory (no class references).
struct CaptureState {
    let ring: UnsafeMutablePointer<CaptureRing>
    let channels: Int
}

/// The PulseAudio read callback: moves every captured fragment into the
/// capture ring. On the mainloop thread, which also renders: no locks, no
/// allocation, no reference counting.
@_noLocks @_noAllocation
func pulseReadCallback(_ stream: OpaquePointer?, _ available: Int, _ userdata: UnsafeMutableRawPointer?) {
    guard let stream, let userdata else { return }
    let state = userdata.assumingMemoryBound(to: CaptureState.self)
    let s = PAStream(raw: stream)
    let channels = state.pointee.channels
    while true {
        var data: UnsafeRawPointer? = nil
        var size = 0
        guard s.peek(&data, &size), size > 0 else { break }
        // No data with a size is a hole in the capture: silence.
        let samples = data?.assumingMemoryBound(to: Float.self)
        state.pointee.ring.pointee.write(samples, count: size / 4, channels: channels)
        s.drop()
    }
}

// MARK: - Connection (the control world, on the mainloop)

/// One connection's worth of libpulse objects and the callbacks' state.
private final class Connection {
    /// What the streams are made with; `streamProperties` change with
    /// `setStreamProperties` (mainloop lock).
    var configuration: BackendConfiguration
    let render: RenderEntry
    let events: BackendEventHandler
    let addressTried: String
    let captureRing: UnsafeMutablePointer<CaptureRing>
    /// Called on the control loop thread once, when an established connection fails.
    let onLost: @Sendable () -> Void
    /// The record stream (record and playAndRecord) and its callback's state.
    var capture: PAStream?
    var captureState: UnsafeMutablePointer<CaptureState>?
    /// Set when the established connection failed (mainloop lock, or atomically read).
    let lost = Atomic<Bool>(false)

    /// The playback side: its loop thread renders (the write callback), so
    /// nothing else of ours runs there but the stream's own short callbacks,
    /// which only push ``StreamNotice``s. Its lock guards `context`, `stream`,
    /// `capture` and the render state.
    var mainloop: PAMainloop?
    var context: PAContext?
    var stream: PAStream?
    var renderState: UnsafeMutablePointer<RenderState>?
    var serverInfo: PAServerInfo?
    /// The control side: a second context on its own loop thread
    /// (`SoundEngine-ctl`) that runs the server model (subscription,
    /// introspection, moves and mutes of streams by index) and turns the
    /// playback side's notices into events. Its lock guards `controlContext`,
    /// `model` and `noticeWakeup`. Lock order: the playback lock, then this one.
    var controlLoop: PAMainloop?
    var controlContext: PAContext?
    var model: ServerModel?
    var noticeWakeup: NoticeWakeup?
    /// Playback loop → control loop, lock-free (plain memory, freed in deinit).
    let notices: UnsafeMutablePointer<StreamNoticeRing>
    var snapshot = SystemSnapshot()
    /// Set once both contexts and the stream are READY; failures after this
    /// are reported as events. Read on both loop threads.
    let established = Atomic<Bool>(false)
    /// Set by teardown before disconnecting, so the state callbacks stay quiet.
    let closing = Atomic<Bool>(false)
    /// The SCHED_RR priority asked for, and what the loop thread got (0 = refused); mainloop lock.
    var requestedPriority: Int32 = 0
    var grantedPriority: Int32?
    /// Underflow callbacks (mainloop thread) count here; `statistics` reads it (relaxed: a counter).
    let underflows = Atomic<UInt64>(0)
    /// Snapshots for game threads (written with the mainloop lock held).
    let streamOpen = Atomic<Bool>(false)
    let corkedNow = Atomic<Bool>(true)
    let streamIndexNow = Atomic<UInt32>(paInvalidIndex)

    init(
        configuration: BackendConfiguration, render: RenderEntry, events: @escaping BackendEventHandler,
        captureRing: UnsafeMutablePointer<CaptureRing>, noticePipe: Bool, onLost: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.render = render
        self.events = events
        self.captureRing = captureRing
        self.onLost = onLost
        notices = .allocate(capacity: 1)
        notices.initialize(to: StreamNoticeRing(wakePipe: noticePipe))
        if let explicit = configuration.serverAddress {
            addressTried = explicit
        } else if let env = ProcessInfo.processInfo.environment["PULSE_SERVER"], !env.isEmpty {
            addressTried = "\(env) (from PULSE_SERVER)"
        } else {
            let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
            addressTried = "the default server (\(runtime)/pulse/native)"
        }
    }

    deinit {
        // Both loop threads were joined by teardown (or never started).
        notices.pointee.free()
        notices.deinitialize(count: 1)
        notices.deallocate()
    }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> Connection? {
        userdata.map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Connects both contexts and the stream. Called once, unlocked, from `open`.
    func connect() throws(SoundEngineError) -> GrantedStream {
        guard let loop = PAMainloop.make(name: "SoundEngine-pulse"),
            let control = PAMainloop.make(name: "SoundEngine-ctl")
        else {
            throw .insufficientMemory("libpulse could not create a threaded mainloop")
        }
        mainloop = loop
        controlLoop = control
        guard loop.start(), control.start() else { throw .fail("libpulse could not start its mainloop threads") }
        let deadline = ContinuousClock.now.advanced(by: configuration.connectTimeout)
        let ownClient = try loop.withLock { () throws(SoundEngineError) -> UInt32 in
            let ctx = try connectContext(loop, deadline: deadline, stateCallback: contextStateCallback)
            try queryServer(loop, deadline: deadline)
            return ctx.clientIndex
        }
        try control.withLock { () throws(SoundEngineError) in
            let ctx = try connectContext(control, deadline: deadline, stateCallback: controlContextStateCallback)
            noticeWakeup = NoticeWakeup(wakeFD: notices.pointee.wakeFD, loop: control, context: ctx) { [unowned self] in
                drainNotices()
            }
            try startModel(control, ctx, ownClient: ownClient, deadline: deadline)
        }
        return try loop.withLock { () throws(SoundEngineError) -> GrantedStream in
            try connectStream(loop, deadline: deadline)
        }
    }

    /// Makes a context on `loop` (stored as the loop's context, see
    /// ``context(of:)``) and waits until it is ready, trying again a
    /// few times (10, 20, 40, 80, 160 ms apart, within the deadline) when the
    /// connection is refused: a busy server's accept backlog overflows under
    /// a burst of connections (measured in CI: one `initialize` among many
    /// parallel clients refused), and a game should not fail to start for
    /// that. `loop`'s lock held.
    private func connectContext(
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
    private func context(of loop: PAMainloop) -> PAContext? {
        loop.raw == mainloop?.raw ? self.context : controlContext
    }

    /// Stores the context that lives on `loop`.
    private func setContext(_ ctx: PAContext?, of loop: PAMainloop) {
        if loop.raw == mainloop?.raw { context = ctx } else { controlContext = ctx }
    }

    /// Disconnects and releases the context on `loop` (a failed attempt's,
    /// or at teardown), its state callback first so it stays quiet. Lock held.
    private func discardContext(of loop: PAMainloop) {
        guard let ctx = context(of: loop) else { return }
        ctx.setStateCallback(nil, nil)
        ctx.disconnect()
        ctx.unref()
        setContext(nil, of: loop)
    }

    private func connectContextOnce(
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

    private func queryServer(_ loop: PAMainloop, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
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
    private func startModel(
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
    private func withModel<T>(_ body: (ServerModel) -> T) -> T? {
        guard let control = controlLoop else { return nil }
        return control.withLock { model.map(body) }
    }

    /// Performs a server-side session action (control thread, unlocked).
    /// Actions on other streams and on our routing take only the control
    /// lock: the render thread never waits for them.
    func perform(_ action: SessionAction) throws(SoundEngineError) {
        guard let loop = mainloop, let control = controlLoop else {
            throw .deviceNotReady("the PulseAudio stream is not open")
        }
        switch action {
        case .selectOutput, .selectInput, .muteOtherStreams, .unmuteOtherStreams, .duckOtherStreams,
            .unduckOtherStreams:
            try control.withLock { () throws(SoundEngineError) in
                guard let ctx = controlContext, ctx.isReady, let model else {
                    throw .mediaServicesFailed("the connection to PulseAudio at \(addressTried) is gone")
                }
                try model.perform(action, deadline: ContinuousClock.now.advanced(by: .seconds(2)))
            }
            return
        default:
            break
        }
        try loop.withLock { () throws(SoundEngineError) in
            guard let ctx = context, ctx.isReady else {
                throw .mediaServicesFailed("the connection to PulseAudio at \(addressTried) is gone")
            }
            switch action {
            case .selectOutput, .selectInput, .muteOtherStreams, .unmuteOtherStreams, .duckOtherStreams,
                .unduckOtherStreams:
                break  // performed above
            case .setStreamProperties(let properties):
                try replaceStreams(properties, loop)
            case .openCaptureStream:
                try openCapture(loop, deadline: ContinuousClock.now.advanced(by: configuration.connectTimeout))
            case .closeCaptureStream:
                closeCapture()
            case .pauseEngine, .resumeEngine, .fadeBackgroundMusicBuses:
                throw .invalidParameter("\(action) is the engine's to perform, not the backend's")
            }
        }
    }

    private func connectStream(_ loop: PAMainloop, deadline: ContinuousClock.Instant) throws(SoundEngineError) -> GrantedStream {
        try openPlayback(loop, deadline: deadline, device: nil)
        established.store(true, ordering: .releasing)
        if let priority = configuration.realtimePriority {
            requestedPriority = priority
            loop.once(raiseLoopThreadPriority, userdata)
            _ = waitLocked(loop, deadline: deadline) { grantedPriority != nil }
        }
        return try grant()
    }

    /// What the server granted for the current playback stream. Lock held.
    func grant() throws(SoundEngineError) -> GrantedStream {
        guard let s = stream, let granted = s.format, let buffer = s.bufferAttributes, let info = serverInfo else {
            throw .deviceNotReady("PulseAudio at \(addressTried) did not open our playback stream")
        }
        return GrantedStream(
            format: granted, buffer: buffer, serverName: info.serverName, serverVersion: info.serverVersion,
            deviceName: s.deviceName, realtimePriority: grantedPriority.flatMap { $0 > 0 ? $0 : nil },
            snapshot: snapshot, echoCancellationAvailable: withModel { $0.echoCancellationAvailable } ?? false)
    }

    /// Creates our playback stream, corked, on `device` (`nil`: where the
    /// server puts it), and waits until it is ready. Lock held.
    private func openPlayback(
        _ loop: PAMainloop, deadline: ContinuousClock.Instant, device: String?
    ) throws(SoundEngineError) {
        guard let ctx = context else { throw .fail("internal: no context") }
        let format = configuration.format
        var props = configuration.streamProperties
        props["media.name"] = configuration.streamName
        props["application.name"] = configuration.applicationName
        let proplist = PAProplist.make(props)
        defer { proplist.free() }
        guard let s = PAStream.make(context: ctx, name: configuration.streamName, format: format, properties: proplist) else {
            throw .invalidParameter("PulseAudio refused a \(format) playback stream: \(ctx.lastError)")
        }
        stream = s
        if renderState == nil {
            let state = UnsafeMutablePointer<RenderState>.allocate(capacity: 1)
            state.initialize(to: RenderState(entry: render, bytesPerFrame: format.bytesPerFrame))
            renderState = state
        }
        // A new stream starts corked (START_CORKED): nothing is rendered into it before the uncork.
        renderState?.pointee.paused.store(true, ordering: .relaxed)
        s.setStateCallback(streamStateCallback, userdata)
        s.setWriteCallback(pulseWriteCallback, UnsafeMutableRawPointer(renderState))
        s.setUnderflowCallback(streamUnderflowCallback, userdata)
        s.setSuspendedCallback(streamSuspendedCallback, userdata)
        s.setEventCallback(streamEventCallback, userdata)
        guard s.connectPlayback(latency: configuration.latency, format: format, device: device) else {
            throw .deviceNotReady("PulseAudio at \(addressTried) refused our playback stream: \(ctx.lastError)")
        }
        _ = waitLocked(loop, deadline: deadline) { !s.isCreating || !ctx.isGood }
        guard s.isReady else {
            throw .deviceNotReady("PulseAudio at \(addressTried) did not open our playback stream: \(ctx.lastError)")
        }
        _ = withModel { $0.ownPlaybackIndex = s.index }
        corkedNow.store(true, ordering: .releasing)
        streamIndexNow.store(s.index, ordering: .releasing)
        streamOpen.store(true, ordering: .releasing)
    }

    /// Disconnects and releases the playback stream (callbacks first, so
    /// none fires after). Lock held.
    private func closePlayback() {
        guard let s = stream else { return }
        streamOpen.store(false, ordering: .releasing)
        streamIndexNow.store(paInvalidIndex, ordering: .releasing)
        s.clearCallbacks()
        s.disconnect()
        s.unref()
        stream = nil
    }

    /// Re-creates the playback (and an open capture) stream with new
    /// properties, corked, on the output selected last. Lock held.
    private func replaceStreams(_ properties: StreamProperties, _ loop: PAMainloop) throws(SoundEngineError) {
        var props = configuration.streamProperties
        props.removeValue(forKey: "media.role")
        props.removeValue(forKey: "filter.want")
        props.merge(properties.proplist) { _, new in new }
        configuration.streamProperties = props
        let deadline = ContinuousClock.now.advanced(by: configuration.connectTimeout)
        let hadCapture = capture != nil
        closeCapture()
        closePlayback()
        do throws(SoundEngineError) {
            try openPlayback(loop, deadline: deadline, device: withModel { $0.selectedOutput?.device } ?? nil)
        } catch {
            // The selected device may have gone meanwhile: let the server choose.
            closePlayback()
            try openPlayback(loop, deadline: deadline, device: nil)
        }
        if hadCapture { try openCapture(loop, deadline: deadline) }
    }

    /// Opens the record stream on the input selected last (the server's
    /// default when none), with our stream properties. Lock held.
    private func openCapture(_ loop: PAMainloop, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        guard capture == nil else { return }
        guard let ctx = context else { throw .fail("internal: no context") }
        let format = StreamFormat(
            sampleRate: configuration.format.sampleRate, channelCount: configuration.captureChannels,
            sampleFormat: .float32)
        var props = configuration.streamProperties
        props["media.name"] = "\(configuration.applicationName) input"
        props["application.name"] = configuration.applicationName
        let proplist = PAProplist.make(props)
        defer { proplist.free() }
        guard let s = PAStream.make(context: ctx, name: "input", format: format, properties: proplist) else {
            throw .invalidParameter("PulseAudio refused a \(format) record stream: \(ctx.lastError)")
        }
        capture = s
        let state = UnsafeMutablePointer<CaptureState>.allocate(capacity: 1)
        state.initialize(to: CaptureState(ring: captureRing, channels: format.channelCount))
        captureState = state
        captureRing.pointee.discard()
        s.setStateCallback(streamStateCallback, userdata)
        s.setReadCallback(pulseReadCallback, UnsafeMutableRawPointer(state))
        // About 10 ms per fragment: input reaches the game promptly.
        let device = withModel { $0.selectedInput?.device } ?? nil
        guard s.connectRecord(device: device, fragmentFrames: format.sampleRate / 100, format: format) else {
            closeCapture()
            throw .deviceNotReady("PulseAudio at \(addressTried) refused our record stream: \(ctx.lastError)")
        }
        _ = waitLocked(loop, deadline: deadline) { !s.isCreating || !ctx.isGood }
        guard s.isReady else {
            closeCapture()
            throw .deviceNotReady("PulseAudio at \(addressTried) did not open our record stream: \(ctx.lastError)")
        }
        _ = withModel { $0.ownCaptureIndex = s.index }
    }

    /// Closes the record stream. Lock held: no read callback is running, and
    /// none runs after `clearCallbacks`, so its state can be freed at once.
    private func closeCapture() {
        if let s = capture {
            s.clearCallbacks()
            s.disconnect()
            s.unref()
            capture = nil
        }
        _ = withModel { $0.ownCaptureIndex = nil }
        if let state = captureState {
            state.deinitialize(count: 1)
            state.deallocate()
            captureState = nil
        }
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

    func setCorked(_ corked: Bool) throws(SoundEngineError) {
        guard let loop = mainloop else { throw .deviceNotReady("the PulseAudio stream is not open") }
        try loop.withLock { () throws(SoundEngineError) in
            guard let ctx = context, ctx.isReady, let s = stream, s.isReady else {
                throw .mediaServicesFailed("the connection to PulseAudio at \(addressTried) is gone")
            }
            var timing: PAOperation? = nil
            defer { timing?.unref() }
            if !corked, let state = renderState {
                // Fill what the server will take before uncorking: a stream
                // that starts empty waits for its prebuffer, and the server
                // may not ask for it for a second or more (every peer pre-fills).
                // Under the mainloop lock, so never concurrently with the write callback.
                state.pointee.paused.store(false, ordering: .relaxed)
                writeLeadIn(s, frames: configuration.format.sampleRate / 100)
                pulseWriteCallback(s.raw, s.writableSize, UnsafeMutableRawPointer(state))
                // The write callback waits until libpulse knows the write
                // index again. The flush at the last cork made it unknown, and
                // while it is unknown every pa_stream_write asks the server
                // for timing, which libpulse allocates for (an operation, a
                // reply record, a timer) on the render thread. A request sent
                // after these writes makes the index known; until its reply
                // the buffer holds the lead-in and the pre-fill.
                state.pointee.paused.store(true, ordering: .relaxed)
                timing = s.updateTimingInfo(operationDoneCallback, UnsafeMutableRawPointer(loop.raw))
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
                // Released, and topped up with what the server asked for meanwhile.
                state.pointee.paused.store(false, ordering: .relaxed)
                if ctx.isReady && s.isReady { pulseWriteCallback(s.raw, s.writableSize, UnsafeMutableRawPointer(state)) }
            }
            guard confirmed, ctx.isReady else {
                throw .deviceNotReady("PulseAudio at \(addressTried) did not confirm the \(corked ? "cork" : "uncork")")
            }
            corkedNow.store(corked, ordering: .releasing)
        }
    }

    /// Writes `frames` of silence ahead of the audio an uncork starts with.
    /// PulseAudio can drop the first few milliseconds of a stream that starts
    /// playing on a running sink (measured: up to ~200 frames on a null sink's
    /// monitor); the fade-in must not be what is dropped. Lock held.
    private func writeLeadIn(_ s: PAStream, frames: Int) {
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
    func waitUntilPlayed(extraFrames: Int, timeout: Duration) {
        guard let loop = mainloop else { return }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let target: UInt64? = loop.withLock {
            guard let ctx = context, ctx.isReady, let s = stream, s.isReady, !s.isCorked else { return nil }
            if let op = s.updateTimingInfo(operationDoneCallback, UnsafeMutableRawPointer(loop.raw)) {
                defer { op.unref() }
                _ = waitLocked(loop, deadline: deadline) { !op.isRunning || !ctx.isGood }
            }
            let extra = UInt64(extraFrames) * 1_000_000 / UInt64(configuration.format.sampleRate)
            if let written = s.writtenMicroseconds { return written + extra }
            // The write index is unknown: what is heard now plus the latency is the same point.
            guard let played = s.playedMicroseconds, let latency = s.latencyMicroseconds else { return nil }
            return played + latency + extra
        }
        guard let target else { return }
        while ContinuousClock.now < deadline {
            let played: UInt64? = loop.withLock {
                guard context?.isReady == true, let s = stream, s.isReady, !s.isCorked else { return nil }
                return s.playedMicroseconds
            }
            guard let played, played < target else { return }
            let wait = min(target - played, 2_000)
            var ts = timespec(tv_sec: 0, tv_nsec: Int(wait) * 1_000)
            _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nil)
        }
    }

    /// The latency the write callback saw last: read without the mainloop
    /// lock, so a game thread asking never holds up the render thread.
    var latency: Duration? {
        guard let state = renderState else { return nil }
        let micros = state.pointee.latencyMicros.load(ordering: .relaxed)
        return micros == .max ? nil : .microseconds(micros)
    }

    /// Cork state and stream index as the control path last set them (atomics, no mainloop lock).
    var isCorked: Bool? { streamOpen.load(ordering: .acquiring) ? corkedNow.load(ordering: .acquiring) : nil }

    var streamIndex: UInt32? {
        let index = streamIndexNow.load(ordering: .acquiring)
        return index == paInvalidIndex ? nil : index
    }

    var captureIndex: UInt32? {
        guard let loop = mainloop else { return nil }
        return loop.withLock { capture?.index }
    }

    /// Whether the established connection failed.
    var isLost: Bool { lost.load(ordering: .acquiring) }

    var statistics: BackendStatistics {
        BackendStatistics(
            renderCalls: renderState?.pointee.renderCalls.load(ordering: .relaxed) ?? 0,
            framesRendered: renderState?.pointee.framesRendered.load(ordering: .relaxed) ?? 0,
            underflows: underflows.load(ordering: .relaxed))
    }

    /// Releases everything this connection created, in reverse order. Idempotent.
    /// Called unlocked, never from either loop thread.
    func teardown() {
        closing.store(true, ordering: .releasing)
        if let loop = mainloop {
            loop.withLock {
                closeCapture()
                closePlayback()
                discardContext(of: loop)
            }
        }
        if let control = controlLoop {
            control.withLock {
                model?.stop()
                model = nil
                noticeWakeup?.free()
                noticeWakeup = nil
                discardContext(of: control)
            }
            control.stop()
            control.free()
            controlLoop = nil
        }
        guard let loop = mainloop else { return }
        loop.stop()
        loop.free()
        mainloop = nil
        // The loop thread is joined: no callback can still be reading the render state.
        if let state = renderState {
            state.deinitialize(count: 1)
            state.deallocate()
            renderState = nil
        }
    }

    // MARK: Callback bodies (playback loop thread = render thread, lock held): notices only

    /// Whether callbacks should still report: established and not closing.
    private var reporting: Bool {
        // acquiring (both): pair with the releasing stores in connectStream and teardown.
        established.load(ordering: .acquiring) && !closing.load(ordering: .acquiring)
    }

    func contextStateChanged() {
        mainloop?.signal()
        guard reporting, let ctx = context, !ctx.isGood else { return }
        notices.pointee.push(.connectionLost, ctx.errorNumber)
    }

    func streamStateChanged() {
        mainloop?.signal()
        guard reporting, let ctx = context, ctx.isReady else { return }
        if let s = stream, s.isDead { notices.pointee.push(.playbackFailed, ctx.errorNumber) }
        if let s = capture, s.isDead { notices.pointee.push(.captureFailed, ctx.errorNumber) }
    }

    // MARK: Callback bodies (control loop thread, control lock held)

    func controlContextStateChanged() {
        controlLoop?.signal()
        guard reporting, let ctx = controlContext, !ctx.isGood else { return }
        reportLost()
    }

    /// Turns the playback side's notices into events, in the order they came.
    func drainNotices() {
        notices.pointee.drain { notice, value in
            guard !closing.load(ordering: .acquiring) else { return }  // acquiring: pairs with teardown's store
            switch notice {
            case .underflow: events(.underflow)
            case .suspended: events(.deviceSuspended(value != 0))
            case .corkRequested: events(.system(.corkRequested))
            case .uncorkRequested: events(.system(.uncorkRequested))
            case .playbackFailed: events(.streamFailed("PulseAudio ended our playback stream: \(PAContext.describe(value))"))
            case .captureFailed: events(.streamFailed("PulseAudio ended our record stream: \(PAContext.describe(value))"))
            case .connectionLost: reportLost()
            }
        }
    }

    /// Reports the loss of the connection once, whichever context noticed first.
    private func reportLost() {
        // acquiring/releasing: the first caller wins; later ones see it and stay quiet.
        guard !lost.exchange(true, ordering: .acquiringAndReleasing) else { return }
        events(.system(.connectionLost))
        onLost()
    }
}

// MARK: - C callbacks

private func contextStateCallback(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Connection.from(userdata)?.contextStateChanged()
}

private func serverInfoCallback(_ context: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?, _ userdata: UnsafeMutableRawPointer?) {
    guard let connection = Connection.from(userdata) else { return }
    if let info { connection.serverInfo = PAServerInfo(info) }
    connection.mainloop?.signal()
}

private func streamStateCallback(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Connection.from(userdata)?.streamStateChanged()
}

private func streamUnderflowCallback(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let connection = Connection.from(userdata) else { return }
    connection.underflows.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
    connection.notices.pointee.push(.underflow)
}

private func streamSuspendedCallback(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let connection = Connection.from(userdata), let stream else { return }
    connection.notices.pointee.push(.suspended, PAStream(raw: stream).isSuspended ? 1 : 0)
}

private func streamEventCallback(
    _ stream: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ properties: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?
) {
    guard let connection = Connection.from(userdata), let name else { return }
    // Compared in place (no String is built on the render thread).
    if PAStreamEvent.isRequestCork(name) {
        connection.notices.pointee.push(.corkRequested)
    } else if PAStreamEvent.isRequestUncork(name) {
        connection.notices.pointee.push(.uncorkRequested)
    }
}

private func controlContextStateCallback(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Connection.from(userdata)?.controlContextStateChanged()
}

/// Runs once on the mainloop thread: asks for SCHED_RR at the requested
/// priority. Refusal (EPERM without privilege or rtkit) leaves the thread as
/// it was; the result is reported in `GrantedStream.realtimePriority`.
private func raiseLoopThreadPriority(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ userdata: UnsafeMutableRawPointer?) {
    guard let connection = Connection.from(userdata) else { return }
    var param = sched_param()
    param.sched_priority = connection.requestedPriority
    let ok = pthread_setschedparam(pthread_self(), SCHED_RR, &param) == 0
    connection.grantedPriority = ok ? connection.requestedPriority : 0
    connection.mainloop?.signal()
}

/// Wakes waiters when a timer fires; userdata is the mainloop.
private func wakeCallback(
    _ api: UnsafeMutablePointer<pa_mainloop_api>?, _ event: OpaquePointer?, _ tv: UnsafePointer<timeval>?,
    _ userdata: UnsafeMutableRawPointer?
) {
    guard let userdata else { return }
    PAMainloop(raw: OpaquePointer(userdata)).signal()
}

/// Wakes waiters when an operation completes; userdata is the mainloop.
private func operationDoneCallback(_ stream: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    PAMainloop(raw: OpaquePointer(userdata)).signal()
}
