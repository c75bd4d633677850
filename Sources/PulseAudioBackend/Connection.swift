import CPulseAudio
import Foundation
import SoundBackend
import SoundCore
import SoundSession
import Synchronization

// MARK: - Connection (the control world, on the mainloop)

/// One connection's worth of libpulse objects and the callbacks' state.
final class Connection {
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
    /// `model` and `noticeWatch`. Lock order: the playback lock, then this one.
    var controlLoop: PAMainloop?
    var controlContext: PAContext?
    var model: ServerModel?
    var noticeWatch: OpaquePointer?
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
        captureRing: UnsafeMutablePointer<CaptureRing>, onLost: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.render = render
        self.events = events
        self.captureRing = captureRing
        self.onLost = onLost
        notices = .allocate(capacity: 1)
        notices.initialize(to: StreamNoticeRing())
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
            if notices.pointee.wakeFD >= 0 {
                noticeWatch = control.watchReadable(notices.pointee.wakeFD, noticeCallback, userdata)
            }
            try startModel(control, ctx, ownClient: ownClient, deadline: deadline)
        }
        return try loop.withLock { () throws(SoundEngineError) -> GrantedStream in
            try connectStream(loop, deadline: deadline)
        }
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
                if let watch = noticeWatch { control.freeWatch(watch) }
                noticeWatch = nil
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
    func reportLost() {
        // acquiring/releasing: the first caller wins; later ones see it and stay quiet.
        guard !lost.exchange(true, ordering: .acquiringAndReleasing) else { return }
        events(.system(.connectionLost))
        onLost()
    }
}
