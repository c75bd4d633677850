import CPulseAudio
import Foundation
import SoundBackend
import SoundCore
import SoundSession
import Synchronization

/// One connection's worth of libpulse objects and the callbacks' state: the
/// playback context (its loop thread renders) and the control context (the
/// server model, the notices, the stall watchdog).
///
/// Threads: `connect` and `teardown` run unlocked on a control thread; the
/// facets take the loop locks they need (lock order: the playback lock, then
/// the control lock). Callbacks run on the loop threads with their lock held.
final class Connection {
    /// What the streams are made with; `streamProperties` change with
    /// `setStreamProperties` (playback lock).
    var configuration: BackendConfiguration
    let render: RenderEntry
    let events: BackendEventHandler
    let addressTried: String
    let captureRing: UnsafeMutablePointer<CaptureRing>
    /// The backend's counters and published state (outlives the connection).
    let status: UnsafeMutablePointer<BackendStatus>
    /// What the engine changed on other applications' streams (outlives the connection).
    let holds: HoldBook
    /// Called on a loop thread once, when an established connection fails.
    let onLost: @Sendable () -> Void
    /// The record stream (record and playAndRecord) and its callback's state.
    var capture: PAStream?
    var captureState: UnsafeMutablePointer<CaptureState>?
    /// Set when the established connection failed or was abandoned.
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
    /// introspection, moves and mutes of streams by index), turns the
    /// playback side's notices into events and watches for a stalled stream.
    /// Its lock guards `controlContext`, `model`, `noticeWakeup`, `watchdog`
    /// and `deviceSuspended`.
    var controlLoop: PAMainloop?
    var controlContext: PAContext?
    var model: ServerModel?
    var noticeWakeup: NoticeWakeup?
    var watchdog: StallWatchdog?
    /// Whether the device under our stream is suspended (a suspended device
    /// requests nothing: not a stall). Control loop.
    var deviceSuspended = false
    /// Playback loop → control loop, lock-free (plain memory, freed in deinit).
    let notices: UnsafeMutablePointer<StreamNoticeRing>
    var snapshot = SystemSnapshot()
    /// Set once both contexts are READY; failures after this are reported
    /// as events. Read on both loop threads.
    let established = Atomic<Bool>(false)
    /// Set by teardown before disconnecting, so the state callbacks stay quiet.
    let closing = Atomic<Bool>(false)
    /// The SCHED_RR priority asked for, and what the loop thread got (0 = refused); playback lock.
    var requestedPriority: Int32 = 0
    var grantedPriority: Int32?

    init(
        configuration: BackendConfiguration, render: RenderEntry, events: @escaping BackendEventHandler,
        captureRing: UnsafeMutablePointer<CaptureRing>, status: UnsafeMutablePointer<BackendStatus>,
        holds: HoldBook, noticePipe: Bool = true, onLost: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.render = render
        self.events = events
        self.captureRing = captureRing
        self.status = status
        self.holds = holds
        self.onLost = onLost
        notices = .allocate(capacity: 1)
        notices.initialize(to: StreamNoticeRing(wakePipe: noticePipe))
        addressTried = Self.describeAddress(configuration.serverAddress)
    }

    deinit {
        // Both loop threads were joined by teardown (or never started).
        notices.pointee.free()
        notices.deinitialize(count: 1)
        notices.deallocate()
    }

    /// The server address in words, for errors: what was configured, else
    /// `PULSE_SERVER`, else the per-user socket.
    static func describeAddress(_ configured: String?) -> String {
        if let configured { return configured }
        if let env = ProcessInfo.processInfo.environment["PULSE_SERVER"], !env.isEmpty {
            return "\(env) (from PULSE_SERVER)"
        }
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
        return "the default server (\(runtime)/pulse/native)"
    }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> Connection? {
        userdata.map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Connects both contexts, describes the server and starts the server
    /// model. No stream yet: ``setStreamProperties(_:)`` creates it. Called
    /// once, unlocked, from `open` or the reconnect thread.
    func connect() throws(SoundEngineError) -> ServerDescription {
        guard let loop = PAMainloop.make(name: "SoundEngine-pulse"),
            let control = PAMainloop.make(name: "SoundEngine-ctl")
        else {
            throw .insufficientMemory("libpulse could not create a threaded mainloop")
        }
        mainloop = loop
        controlLoop = control
        guard loop.start(), control.start() else { throw .fail("libpulse could not start its mainloop threads") }
        let deadline = ContinuousClock.now.advanced(by: configuration.connectTimeout)
        let (ownClient, info) = try loop.withLock { () throws(SoundEngineError) -> (UInt32, PAServerInfo) in
            let ctx = try connectContext(loop, deadline: deadline, stateCallback: contextStateCallback)
            let info = try queryServer(loop, deadline: deadline)
            raiseLoopPriority(loop, deadline: deadline)
            return (ctx.clientIndex, info)
        }
        serverInfo = info
        let echo = try control.withLock { () throws(SoundEngineError) -> Bool in
            let ctx = try connectContext(control, deadline: deadline, stateCallback: controlContextStateCallback)
            noticeWakeup = NoticeWakeup(wakeFD: notices.pointee.wakeFD, loop: control, context: ctx) { [unowned self] in
                drainNotices()
            }
            let model = try startModel(control, ctx, ownClient: ownClient, server: info, deadline: deadline)
            watchdog = StallWatchdog(connection: self, context: ctx, mainloop: control)
            return model.echoCancellationAvailable
        }
        established.store(true, ordering: .releasing)
        return ServerDescription(
            serverName: info.serverName, serverVersion: info.serverVersion, snapshot: snapshot,
            echoCancellationAvailable: echo)
    }

    /// This instance of the server, for the journal.
    var serverIdentity: ServerIdentity? {
        guard let info = serverInfo else { return nil }
        let address = mainloop?.withLock { context?.serverAddress } ?? nil
        return ServerIdentity(
            address: address ?? configuration.serverAddress, cookie: info.cookie, name: info.serverName,
            isPipeWire: info.isPipeWire)
    }

    /// Asks for SCHED_RR at the configured priority on the playback loop
    /// thread (a one-shot callback there), and waits for the answer. Lock held.
    private func raiseLoopPriority(_ loop: PAMainloop, deadline: ContinuousClock.Instant) {
        guard let priority = configuration.realtimePriority else { return }
        requestedPriority = priority
        loop.once(raiseLoopThreadPriority, userdata)
        _ = waitLocked(loop, deadline: deadline) { grantedPriority != nil }
    }

    /// Runs `body` on the server model with the control lock held; `nil`
    /// when there is none. Never from the control loop thread.
    func withModel<T>(_ body: (ServerModel) -> T) -> T? {
        guard let control = controlLoop else { return nil }
        return control.withLock { model.map(body) }
    }

    /// Performs a server-side action of the session (control thread,
    /// unlocked): the stream actions take the playback lock, the others only
    /// the control lock, so the render thread never waits for them.
    func perform(_ action: ServerAction) throws(SoundEngineError) {
        switch action {
        case .setStreamProperties(let properties):
            try withPlayback { loop throws(SoundEngineError) in try setStreamProperties(properties, loop) }
        case .openCaptureStream:
            try withPlayback { loop throws(SoundEngineError) in
                try openCapture(loop, deadline: ContinuousClock.now.advanced(by: configuration.connectTimeout))
            }
        case .closeCaptureStream:
            try withPlayback { _ in closeCapture() }
        case .selectOutput(let id):
            try withControlModel { model, deadline throws(SoundEngineError) in try model.select(id, output: true, deadline: deadline) }
        case .selectInput(let id):
            try withControlModel { model, deadline throws(SoundEngineError) in try model.select(id, output: false, deadline: deadline) }
        case .muteOtherStreams(let ids):
            try withControlModel { model, deadline throws(SoundEngineError) in try model.mute(ids, deadline: deadline) }
        case .unmuteOtherStreams(let ids):
            try withControlModel { model, deadline throws(SoundEngineError) in try model.unmute(ids, deadline: deadline) }
        case .duckOtherStreams(let ids, let factor):
            try withControlModel { model, deadline throws(SoundEngineError) in try model.duck(ids, factor: factor, deadline: deadline) }
        case .unduckOtherStreams(let ids):
            try withControlModel { model, deadline throws(SoundEngineError) in try model.unduck(ids, deadline: deadline) }
        case .reclaimOwnStream:
            try withControlModel { model, deadline throws(SoundEngineError) in try model.reclaimOwnStream(deadline: deadline) }
        case .releaseCorkMute:
            try withControlModel { model, deadline throws(SoundEngineError) in try model.releaseCorkMute(deadline: deadline) }
        }
    }

    /// Runs `body` on the server model with the control lock held and a
    /// 2 s deadline: the render thread never waits for it.
    private func withControlModel(
        _ body: (ServerModel, ContinuousClock.Instant) throws(SoundEngineError) -> Void
    ) throws(SoundEngineError) {
        guard let control = controlLoop else { throw .deviceNotReady("the PulseAudio connection is not open") }
        try control.withLock { () throws(SoundEngineError) in
            guard let ctx = controlContext, ctx.isReady, let model else {
                throw .mediaServicesFailed("the connection to PulseAudio at \(addressTried) is gone")
            }
            try body(model, ContinuousClock.now.advanced(by: .seconds(2)))
        }
    }

    /// Runs `body` with the playback lock held on a ready context.
    func withPlayback<T>(_ body: (PAMainloop) throws(SoundEngineError) -> T) throws(SoundEngineError) -> T {
        guard let loop = mainloop else { throw .deviceNotReady("the PulseAudio connection is not open") }
        return try loop.withLock { () throws(SoundEngineError) -> T in
            guard let ctx = context, ctx.isReady else {
                throw .mediaServicesFailed("the connection to PulseAudio at \(addressTried) is gone")
            }
            return try body(loop)
        }
    }

    /// Whether the established connection failed (or was abandoned).
    var isLost: Bool { lost.load(ordering: .acquiring) }

    /// Gives the connection up as lost, as if the server had gone: reported
    /// once as ``SystemEvent/connectionLost``; the reconnect thread takes it
    /// down and connects again. Any control thread.
    func abandon() { reportLost() }

    /// Gives back what the journal still holds and repairs every restore
    /// entry we touched, on this connection's control context (at close,
    /// before the teardown). Unlocked, on a control thread.
    func repairHolds() {
        guard !isLost, let control = controlLoop, let info = serverInfo else { return }
        control.withLock {
            guard let model, controlContext?.isReady == true else { return }
            holds.repair(using: model.requests, on: info, deadline: ContinuousClock.now + .seconds(1), at: .close)
        }
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
                watchdog?.stop()
                watchdog = nil
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
    var reporting: Bool {
        // acquiring (both): pair with the releasing stores in connect and teardown.
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
            case .suspended:
                deviceSuspended = value != 0
                events(.deviceSuspended(value != 0))
            case .corkRequested:
                model?.corkRequestArrived()
                events(.system(.corkRequested))
            case .uncorkRequested: events(.system(.uncorkRequested))
            case .playbackFailed:
                watchdog?.streamFailed()
                events(.streamFailed("PulseAudio ended our playback stream: \(PAContext.describe(value))"))
            case .captureFailed: events(.streamFailed("PulseAudio ended our record stream: \(PAContext.describe(value))"))
            case .connectionLost: reportLost()
            }
        }
    }

    /// Reports the loss of the connection once, whichever context noticed first.
    func reportLost() {
        // acquiring/releasing: the first caller wins; later ones see it and stay quiet.
        guard !lost.exchange(true, ordering: .acquiringAndReleasing) else { return }
        events(.system(.connectionLost))
        onLost()
    }
}
