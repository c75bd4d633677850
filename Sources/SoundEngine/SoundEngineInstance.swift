import Foundation
public import SoundBackend
public import SoundCore
import SoundMixer
public import SoundSession
import PulseAudioBackend
import Synchronization

/// One running sound engine: a mixer, an output stream on a sound server, the
/// live audio session (``audioSession``), an event thread and the engine's
/// own clock.
///
/// Games normally use the process-wide ``SoundEngine`` façade, which owns one
/// of these. Tests and tools may create their own, for example on the offline
/// backend. Every method may be called from any thread, concurrently; none
/// runs on or blocks the render thread.
///
/// How it works (docs/architecture.md, "The live session"): every server fact
/// the backend reports, every session call of the game and every app-lifecycle
/// call goes through one serial control path into the ``AudioSessionPolicy``;
/// what the policy returns is performed in order — streams corked, moved or
/// re-created, other apps' streams muted or ducked, buses faded — and its
/// notifications are delivered on the event thread.
///
/// Threads while an instance lives: the backend's (`SoundEngine-pulse`,
/// which also renders), the event thread (`SoundEngine-evt`, callbacks), the
/// engine clock (`SoundEngine-clock`, which keeps the mixer going while the
/// stream is corked), the mixer's streaming thread once a streamed sound
/// plays, and the backend's reconnect thread after a server loss.
public final class SoundEngineInstance: Sendable {
    /// The settings the engine was initialized with.
    public let settings: InitSettings
    /// The platform settings the engine was initialized with. The current
    /// session is ``audioSession``.
    public let platformSettings: PlatformInitSettings

    let mixer: Mixer
    let backend: any AudioBackend
    let dispatcher: EventDispatcher
    let clock: EngineClock
    /// Banks, game objects and events (Content/).
    let content: ContentEngine
    /// Game callbacks for voices and bus meters, looked up by the event thread.
    let callbacks = ControlLock(PlaybackCallbacks())
    /// The serial control path: held by every operation that consults the
    /// policy or changes the streams; never by the render thread, never while
    /// a game callback runs.
    let control: ControlLock<Control>
    /// What the getters read; updated at the end of every control operation.
    let published: ControlLock<SessionSnapshot>
    /// Held for the whole of ``terminate()``; true once it has run.
    private let teardown = ControlLock(false)
    /// Whether the stream is corked because nothing played for
    /// ``PlatformInitSettings/idleCorkTimeout`` (SoundEngineInstance+Idle).
    let idleCorked = Atomic(false)
    /// Since when no voice has been playing, while running and uncorked (the
    /// event thread's idle bookkeeping).
    let idleSince = ControlLock<ContinuousClock.Instant?>(nil)
    let log: any SoundLogger
    /// Also told every event, after the instance's own subscribers.
    let forward: (@Sendable (SessionEvent) -> Void)?

    /// The game's view of the audio session, like `AVAudioSession.sharedInstance()`.
    public let audioSession: AudioSession

    /// The control path's state.
    struct Control {
        var policy: AudioSessionPolicy
        var granted: GrantedStream
        var state: EngineState = .paused(.notConnected)
        /// The properties our streams were created with.
        var streamProperties: StreamProperties
        var terminated = false
        /// Set while terminate deactivates: the states passed on the way to
        /// `stopped` are not reported.
        var terminating = false
        /// Whether the next pause fades out first (`suspend(fadeOut:)`).
        /// Frames the next pause fades over (0: cut at once); `suspend` sets
        /// it for its own pause, everything else fades over one quantum.
        var nextPauseFade: Int? = nil
        var gameMutedBackgroundMusic = false
        var sessionMutedBackgroundMusic = false
        /// Actions a server fact started whose waiting part (fade heard, then
        /// cork, move or swap) runs after its notifications were delivered;
        /// every control operation finishes them first.
        var pending: [SessionAction] = []
        /// Set by a deferred pause: the state says paused, the stream still
        /// has to be corked once the fade has been heard.
        var corkOwed = false
        /// Notifications of the server fact being applied, delivered by the
        /// event thread as soon as the control path is released (not queued
        /// behind facts that arrived meanwhile).
        var toDeliver: [SessionEvent] = []
    }

    /// Creates and starts an engine: validates both settings blocks, builds
    /// the mixer, connects to the server, opens the stream, activates the
    /// session (as Wwise does at init) and starts rendering.
    ///
    /// - Throws: `invalidParameter`/`incompatibleCategory` naming a bad
    ///   setting; `deviceNotReady` naming the server address tried when no
    ///   server answers within `platform.connectTimeout`. Nothing is left
    ///   running after a throw.
    public convenience init(
        _ settings: InitSettings = InitSettings(), _ platform: PlatformInitSettings = PlatformInitSettings()
    ) throws(SoundEngineError) {
        try self.init(settings, platform, backend: nil, forward: nil)
    }

    /// Creates and starts an engine that renders only when `backend` is told
    /// to (``OfflineBackend/render(frames:)``): no server, a deterministic
    /// clock, for a game's unit tests of its audio logic and offline bounces.
    public convenience init(
        _ settings: InitSettings, _ platform: PlatformInitSettings, offline backend: OfflineBackend
    ) throws(SoundEngineError) {
        try self.init(settings, platform, backend: backend, forward: nil)
    }

    /// Creates and starts an engine on `backend` (the package's own tests and
    /// benchmarks pass an `OfflineBackend` to render without a server; `nil`
    /// is the `PulseAudioBackend`).
    package convenience init(
        _ settings: InitSettings, _ platform: PlatformInitSettings, backend: (any AudioBackend)?
    ) throws(SoundEngineError) {
        try self.init(settings, platform, backend: backend, forward: nil)
    }

    /// The designated init; `forward` also receives every event delivered
    /// (the façade's process-wide ``SoundEngine/events()`` stream).
    init(
        _ settings: InitSettings, _ platform: PlatformInitSettings, backend: (any AudioBackend)?,
        forward: (@Sendable (SessionEvent) -> Void)?
    ) throws(SoundEngineError) {
        self.forward = forward
        try settings.validate()
        try platform.validate()
        self.settings = settings
        self.platformSettings = platform
        self.log = settings.logger
        var policy = try AudioSessionPolicy(configuration: platform.audioSession)
        let mixer = try Mixer(
            MixerConfiguration(
                sampleRate: platform.sampleRate, quantumFrames: settings.samplesPerFrame,
                maxVoices: settings.maxVoices, maxBuses: settings.maxBuses, maxSounds: settings.maxSounds,
                commandQueueBytes: max(settings.commandQueueSize, 16 * Mixer.commandSlotBytes),
                maxStreams: settings.maxStreams, limiter: settings.masterLimiter))
        self.mixer = mixer
        let backend = backend ?? PulseAudioBackend()
        self.backend = backend
        audioSession = AudioSession()

        // The dispatcher needs the instance to handle backend events, and the
        // instance needs the dispatcher: a box breaks the cycle for init only.
        let owner = WeakBox<SoundEngineInstance>()
        let dispatcher = EventDispatcher(
            handle: { item in owner.value?.handle(item) },
            poll: { owner.value?.poll() },
            finish: { owner.value?.completeRemainingVoices() })
        self.dispatcher = dispatcher
        content = ContentEngine(mixer: mixer, owner: owner, log: settings.logger)

        let format = StreamFormat(
            sampleRate: platform.sampleRate, channelCount: platform.channelCount, sampleFormat: platform.sampleFormat)
        try mixer.setOutputFormat(format)
        clock = EngineClock(mixer: mixer, quantumFrames: settings.samplesPerFrame, sampleRate: platform.sampleRate)
        let properties = platform.audioSession.streamProperties
        let granted: GrantedStream
        do {
            granted = try Self.openStream(
                backend, mixer: mixer, platform: platform, properties: properties, dispatcher: dispatcher)
        } catch {
            clock.shutdown()
            throw error
        }
        // Wwise activates the session at init; the policy applies it once connected.
        _ = try? policy.handle(.request(.setActive(true, options: [])))
        control = ControlLock(Control(policy: policy, granted: granted, streamProperties: properties))
        published = ControlLock(SessionSnapshot(policy: policy, granted: granted, state: .paused(.notConnected)))
        audioSession.owner.value = self
        owner.value = self
        dispatcher.start()
        log.log(.info, "connected to \(granted.serverName) \(granted.serverVersion), stream \(granted.format) on \(granted.deviceName), buffer \(granted.buffer)")
        control.withLock { c in
            apply(.connected(granted.snapshot), &c)
            publish(c)
        }
    }

    deinit {
        terminate()
        clock.shutdown()
    }

    /// Opens the output stream with the session's stream properties. If the
    /// server grants another format, the mixer converts to it.
    private static func openStream(
        _ backend: any AudioBackend, mixer: Mixer, platform: PlatformInitSettings, properties: StreamProperties,
        dispatcher: EventDispatcher
    ) throws(SoundEngineError) -> GrantedStream {
        let requested = mixer.outputFormat
        var proplist = properties.proplist
        proplist["media.software"] = "SoundEngine"
        var configuration = BackendConfiguration(
            serverAddress: platform.serverAddress, applicationName: platform.applicationName,
            applicationID: platform.applicationID, streamName: "\(platform.applicationName) output",
            format: requested, latency: platform.latency.scaled(toSampleRate: platform.sampleRate),
            streamProperties: proplist, connectTimeout: platform.connectTimeout,
            realtimePriority: platform.realtimePriority)
        configuration.captureChannels = platform.inputChannelCount
        let events: BackendEventHandler = { event in dispatcher.post(.backend(event)) }
        let granted = try backend.open(configuration, render: mixer.renderEntry, events: events)
        guard granted.format == requested else {
            // PulseAudio grants what a stream without FIX_* flags asks for; if
            // a server ever does not, reopen so the mixer never renders one
            // format into a buffer of another.
            backend.close()
            try mixer.setOutputFormat(granted.format)
            return try backend.open(configuration, render: mixer.renderEntry, events: events)
        }
        return granted
    }

    // MARK: - Lifecycle

    /// Deactivates the session (other apps' streams are unmuted and their
    /// volumes restored), fades out, closes the streams and the connection,
    /// stops the mixer's, the clock's and the event threads. Voices stop;
    /// sounds are released with the instance. Idempotent. Delivers a final
    /// `engineState(stopped)` event.
    public func terminate() {
        // Serial: a second caller waits until the first has finished, so when
        // any terminate returns nothing of ours exists on the server and no
        // thread of ours runs — except a callback on the event thread, which
        // the finishing terminate joins and so cannot wait for it.
        if dispatcher.isEventThread {
            _ = teardown.withLockIfAvailable { done in
                if !done { tearDown() }
                done = true
            }
        } else {
            teardown.withLock { done in
                if !done { tearDown() }
                done = true
            }
        }
    }

    /// The body of ``terminate()``; runs once, under `teardown`.
    private func tearDown() {
        let first = control.withLock { c -> Bool in
            guard !c.terminated else { return false }
            // Give back what the session took from other apps before leaving.
            c.terminating = true
            finishTransitions(&c)
            leaveIdle(&c)
            if c.policy.isActive, c.policy.isConnected {
                try? run(.request(.setActive(false, options: c.policy.configuration.setActiveOptions)), &c)
            }
            if c.state == .running { fadeOut() }
            c.terminated = true
            return true
        }
        guard first else { return }
        clock.stop()
        backend.close()
        clock.shutdown()
        mixer.shutdown()
        control.withLock { c in
            c.state = .stopped
            publish(c)
        }
        dispatcher.post(.session(.engineState(.stopped)))
        dispatcher.stop()
        log.log(.info, "terminated")
    }

    /// Whether ``terminate()`` has run.
    public var isTerminated: Bool { published.withLock { $0.state == .stopped } }

    /// Whether the engine renders now, and why not if it does not.
    public var status: EngineState { published.withLock { $0.state } }

    /// What the server granted: format, buffer sizes, server and device names.
    public var grantedStream: GrantedStream { published.withLock { $0.granted } }

    /// How long a frame rendered now takes to reach the speaker, as the
    /// server reports it (our buffer plus the device's); `nil` when unknown.
    public var outputLatency: Duration? { backend.outputLatency }

    /// Puts the engine in background mode, like Wwise `Suspend`: the output
    /// stream is corked (the sink may suspend).
    ///
    /// - Parameters:
    ///   - renderAnyway: keep mixing on the engine's own clock with the output
    ///     discarded: voices advance, fades finish, end-of-sound callbacks
    ///     run. Without it voices hold their place (the game's calls are
    ///     still taken; stopped voices end when rendering resumes).
    ///   - fadeOut: how long the output ramps to silence before the stream
    ///     stops, so the stop does not click; `nil` (the default) is one
    ///     quantum (`InitSettings.samplesPerFrame`), `.zero` cuts at once
    ///     (Wwise `Suspend(…, false)`).
    /// - Throws: `notInitialized` after terminate; `invalidParameter` for a
    ///   negative fade or one over 10 s.
    public func suspend(
        renderAnyway: Bool = false, fadeOut: Duration? = nil
    ) throws(SoundEngineError) {
        if let fadeOut, fadeOut < .zero || fadeOut > .seconds(10) {
            throw .invalidParameter("suspend fadeOut \(fadeOut) must be 0…10 s")
        }
        try withControl { c throws(SoundEngineError) in
            c.nextPauseFade = fadeOut.map { mixer.frames($0) }
            defer { c.nextPauseFade = nil }
            try run(.lifecycle(.gameSuspended(renderAnyway: renderAnyway)), &c)
        }
    }

    /// Leaves background mode, like Wwise `WakeupFromSuspend`: the stream
    /// resumes and the output fades back in over one quantum — unless
    /// something else holds the engine paused (an interruption, the session
    /// inactive, the app in the background), which ``status`` then names.
    public func wakeupFromSuspend() throws(SoundEngineError) {
        try withControl { c throws(SoundEngineError) in try run(.lifecycle(.gameWokeUp), &c) }
    }

    /// Tells the engine the app went to the background or came back (Linux
    /// has no app delegate: the game decides, e.g. on window focus or
    /// minimise). Applies the category's background rule (ambient and
    /// soloAmbient stop in the background, playback keeps playing unless
    /// ``SessionBehavior/suspendInBackground``), and seed 002's rule on the
    /// way back: during a call the game takes the audio back and mixes with
    /// the call; leaving again gives it back. Coming back also re-checks an
    /// interruption whose end never arrived.
    public func setApplicationState(_ state: ApplicationState) throws(SoundEngineError) {
        try withControl { c throws(SoundEngineError) in
            try run(.lifecycle(state == .background ? .appEnteredBackground : .appEnteredForeground), &c)
        }
    }

    /// Whether the app is in the foreground, as last told.
    public var applicationState: ApplicationState {
        published.withLock { $0.inForeground ? .foreground : .background }
    }

    // MARK: - Audio session

    /// The session configuration in force (``AudioSession/configuration``).
    public var audioSessionConfiguration: SessionConfiguration { published.withLock { $0.configuration } }

    /// Changes category, options and mode at run time, like Wwise
    /// `iOS::ChangeAudioSessionProperties`. When the stream role or the
    /// echo-cancellation wish changes, the output fades out over one quantum,
    /// the stream is re-created with the new `media.role`, and it fades back
    /// in. Voices keep playing across it. Routes and other apps follow the
    /// new category.
    ///
    /// - Throws: the validation error of `configuration` (nothing changes);
    ///   `mediaServicesFailed` while the server is away.
    public func changeAudioSessionProperties(_ configuration: SessionConfiguration) throws(SoundEngineError) {
        try withControl { c throws(SoundEngineError) in try run(.request(.setConfiguration(configuration)), &c) }
    }

    /// Makes a session request (``AudioSession`` calls this).
    func request(_ request: SessionRequest) throws(SoundEngineError) {
        try withControl { c throws(SoundEngineError) in try run(.request(request), &c) }
    }

    // MARK: - Background music

    /// Mutes (`true`) or unmutes the buses flagged "mute for background music",
    /// like Wwise `MuteBackgroundMusic`; the change fades over one quantum and
    /// ``InitSettings/backgroundMusicCallback`` is told. The session also mutes
    /// them while other apps' audio plays in a mixable category; they sound
    /// again only when neither holds them.
    public func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) {
        try withControl { c throws(SoundEngineError) in
            guard c.gameMutedBackgroundMusic != mute else { return }
            c.gameMutedBackgroundMusic = mute
            try applyBackgroundMusicMute(c)
            dispatcher.post(.session(.backgroundMusicMuted(mute)))
        }
    }

    /// Whether the background-music buses are muted (by the game or by the session).
    public var isBackgroundMusicMuted: Bool { mixer.isBackgroundMusicMuted }

    private func applyBackgroundMusicMute(_ c: Control) throws(SoundEngineError) {
        let muted = c.gameMutedBackgroundMusic || c.sessionMutedBackgroundMusic
        guard mixer.isBackgroundMusicMuted != muted else { return }
        try mixer.setBackgroundMusicMuted(muted, fadeFrames: settings.samplesPerFrame)
    }

    // MARK: - Input

    /// Reads captured input (record and playAndRecord categories):
    /// interleaved float32 frames of ``PlatformInitSettings/inputChannelCount``
    /// channels at the engine's rate, from the routed input. Returns the frames
    /// read; 0 when none are waiting. Never blocks, never runs on the render
    /// thread. Unused when ``AudioCallbacks/inputCallback`` is set (the event
    /// thread then delivers the input there).
    public func readInput(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard platformSettings.audioCallbacks.inputCallback == nil else { return 0 }
        return backend.readCapture(into: buffer)
    }

    // MARK: - Events

    /// A stream of every ``SessionEvent`` from now until terminate, starting
    /// with the engine's current state.
    public func events() -> AsyncStream<SessionEvent> { dispatcher.subscribe() }

    // MARK: - The control path

    func checkAlive() throws(SoundEngineError) {
        if published.withLock({ $0.state == .stopped }) { throw .notInitialized }
    }

    /// Runs `body` on the serial control path, then publishes the new state.
    func withControl<T: Sendable>(_ body: (inout Control) throws(SoundEngineError) -> T) throws(SoundEngineError) -> T {
        try control.withLock { c throws(SoundEngineError) -> T in
            guard !c.terminated else { throw .notInitialized }
            finishTransitions(&c)
            let result = try body(&c)
            publish(c)
            return result
        }
    }

    /// Feeds the policy and performs what it returns, in order. Control path.
    func run(_ input: SessionInput, _ c: inout Control) throws(SoundEngineError) {
        let outputs = try c.policy.handle(input)
        perform(outputs, &c)
    }

    /// Same, for a server fact (never refused).
    func apply(_ event: SystemEvent, _ c: inout Control) {
        perform(c.policy.handle(event), &c)
    }

    private func perform(_ outputs: [SessionOutput], _ c: inout Control, deferWaits: Bool = false) {
        for output in outputs {
            switch output {
            case .notification(let event):
                if deferWaits { c.toDeliver.append(event) } else { dispatcher.post(.session(event)) }
            case .action(let action):
                if deferWaits && waits(action, c) {
                    start(action, &c)
                    c.pending.append(action)
                } else if deferWaits && !c.pending.isEmpty {
                    c.pending.append(action)  // keeps its place behind the deferred one
                } else {
                    perform(action, &c)
                }
            }
        }
    }

    /// A server fact, on the event thread: the actions that would wait for a
    /// fade to be heard (≈ 30 ms) only start — the fade begins, the state
    /// changes — and finish after the game was told, so an interruption or a
    /// route change reaches the game without that delay (sessionbench).
    func applyFact(_ event: SystemEvent, _ c: inout Control) {
        perform(c.policy.handle(event), &c, deferWaits: true)
    }

    /// Whether performing `action` now would wait for a fade to be heard.
    private func waits(_ action: SessionAction, _ c: Control) -> Bool {
        guard c.state == .running, !idleCorked.load(ordering: .acquiring) else { return false }
        switch action {
        case .pauseEngine(let reason): return pauseFade(c) > 0 && reason != .mediaServicesLost
        case .selectOutput(let id): return id != nil
        case .setStreamProperties(let properties): return properties != c.streamProperties
        default: return false
        }
    }

    /// The immediate part of a deferred action: the fade starts; a pause
    /// also changes the state now (the cork is owed).
    private func start(_ action: SessionAction, _ c: inout Control) {
        guard c.state == .running else { return }
        var fade = settings.samplesPerFrame
        if case .pauseEngine = action { fade = pauseFade(c) }
        mixer.setMasterGain(0, rampFrames: fade)
        if case .pauseEngine(let reason) = action {
            c.corkOwed = true
            setState(.paused(reason), &c)
        }
    }

    /// Performs the deferred actions, in order. Every control operation calls
    /// this first, so nothing overtakes them.
    func finishTransitions(_ c: inout Control) {
        guard !c.pending.isEmpty else { return }
        let actions = c.pending
        c.pending = []
        for action in actions { perform(action, &c) }
    }

    private func perform(_ action: SessionAction, _ c: inout Control) {
        switch action {
        case .pauseEngine(let reason):
            pause(reason, &c)
        case .resumeEngine:
            resume(&c)
        case .fadeBackgroundMusicBuses(let muted):
            c.sessionMutedBackgroundMusic = muted
            do { try applyBackgroundMusicMute(c) } catch { log.log(.error, "background-music fade: \(error)") }
        case .setStreamProperties(let properties):
            replaceStreams(properties, &c)
        case .selectOutput(let id?) where c.state == .running && !idleCorked.load(ordering: .acquiring):
            // A move of a playing stream: fade out, move once the fade was
            // heard, fade in on the new device. (An idle-corked one just moves.)
            fadeOut()
            do { try backend.perform(.selectOutput(id)) } catch { log.log(.error, "\(action): \(error)") }
            mixer.setMasterGain(1, rampFrames: settings.samplesPerFrame)
        default:
            do {
                try backend.perform(action)
            } catch {
                log.log(c.policy.isConnected ? .error : .debug, "\(action): \(error)")
            }
        }
    }

    /// Corks the stream (after a fade) and starts the engine clock: advancing
    /// for interruptions, a lost server and `renderAnyway`, holding otherwise.
    private func pause(_ reason: PauseReason, _ c: inout Control) {
        leaveIdle(&c)
        if c.state == .running || c.corkOwed {
            c.corkOwed = false
            // A lost server renders nothing, so a fade would never be
            // rendered: waiting for it would only hold the event thread (and
            // the lost notification) and the control path for fadeOut's
            // whole 250 ms render deadline.
            let fade = pauseFade(c)
            if fade > 0 && reason != .mediaServicesLost {
                fadeOut(frames: fade)
            } else {
                mixer.setMasterGain(0, rampFrames: 0)
            }
            do {
                try backend.setPaused(true)
            } catch {
                log.log(.debug, "cork: \(error)")
            }
        }
        clock.start(Self.advancesVoices(reason) ? .advance : .hold)
        setState(.paused(reason), &c)
    }

    /// Whether voices keep advancing while paused for `reason`.
    static func advancesVoices(_ reason: PauseReason) -> Bool {
        switch reason {
        case .interrupted, .mediaServicesLost: true
        case .suspendedByGame(let renderAnyway): renderAnyway
        case .notConnected, .sessionInactive, .appInBackground: false
        }
    }

    /// Stops the clock, uncorks (the backend pre-fills the buffer first) and
    /// fades in.
    private func resume(_ c: inout Control) {
        clock.stop()
        mixer.setMasterGain(1, rampFrames: settings.samplesPerFrame)
        do {
            try backend.setPaused(false)
            setState(.running, &c)
        } catch {
            log.log(.error, "could not resume the stream: \(error)")
            mixer.setMasterGain(0, rampFrames: 0)
            clock.start(.advance)
            setState(.paused(.notConnected), &c)
        }
    }

    /// Re-creates our streams with new properties (`media.role`,
    /// `filter.want`), fading around the swap when running.
    private func replaceStreams(_ properties: StreamProperties, _ c: inout Control) {
        guard properties != c.streamProperties else { return }
        leaveIdle(&c)
        let running = c.state == .running
        if running {
            fadeOut()
            clock.start(.advance)  // the old stream goes: keep time while there is none
        }
        do {
            try backend.perform(.setStreamProperties(properties))
            c.streamProperties = properties
        } catch {
            log.log(.error, "could not re-create the stream as \(properties): \(error)")
        }
        // The old stream's cork requests are void; the new one starts clean.
        apply(.ownStreamReplaced, &c)
        if running && c.state == .running {
            clock.stop()
            mixer.setMasterGain(1, rampFrames: settings.samplesPerFrame)
            do { try backend.setPaused(false) } catch { log.log(.error, "could not resume the new stream: \(error)") }
        }
    }

    private func setState(_ state: EngineState, _ c: inout Control) {
        guard c.state != state else { return }
        c.state = state
        if !c.terminating { dispatcher.post(.session(.engineState(state))) }
    }

    private func publish(_ c: Control) {
        let snapshot = SessionSnapshot(policy: c.policy, granted: c.granted, state: c.state)
        published.withLock { $0 = snapshot }
    }

    /// Ramps the master gain to 0 over one quantum, waits (at most 250 ms)
    /// until the render thread has rendered it, then until the server has
    /// played it (at most 500 ms more): a cork, move or disconnect after this
    /// cuts silence, not the waveform (docs/decisions/0006).
    /// Frames the pause being performed fades over.
    private func pauseFade(_ c: Control) -> Int { c.nextPauseFade ?? settings.samplesPerFrame }

    private func fadeOut(frames: Int? = nil) {
        let frames = frames ?? settings.samplesPerFrame
        mixer.setMasterGain(0, rampFrames: frames)
        // The fade's own length plus the 250 ms a one-quantum fade is given.
        let deadline = ContinuousClock.now + .milliseconds(250)
            + .microseconds(Int64(frames) * 1_000_000 / Int64(mixer.configuration.sampleRate))
        while mixer.currentMasterGain != 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        // The mixer may still hold up to a quantum of the fade, unwritten; and
        // pipewire-pulse's playback clock runs a few milliseconds ahead of
        // what a null sink's monitor hears (measured: corks 4-7 ms early), so
        // one more quantum of margin.
        backend.waitUntilPlayed(extraFrames: settings.samplesPerFrame * 2, timeout: .milliseconds(500))
    }

    // MARK: - The event thread

    /// Event thread: one inbound item.
    private func handle(_ item: EventDispatcher.Inbound) {
        switch item {
        case .session(let event):
            deliver(event)
        case .backend(let event):
            handleBackendEvent(event)
        }
    }

    private func handleBackendEvent(_ event: BackendEvent) {
        switch event {
        case .underflow:
            log.log(.debug, "server underflow")
        case .deviceSuspended(let suspended):
            log.log(.debug, "device \(suspended ? "suspended" : "resumed")")
        case .streamFailed(let why):
            log.log(.error, why)
        case .system(let fact):
            if case .connectionLost = fact { log.log(.error, "the sound server went away; reconnecting") }
            // The fact's notifications go to the game at once, then its
            // transitions finish (a fact queued meanwhile would finish them
            // first and hold the game's callback back by the fade).
            let told = (try? withControl { c -> [SessionEvent] in
                applyFact(fact, &c)
                defer { c.toDeliver = [] }
                return c.toDeliver
            }) ?? []
            for event in told { deliver(event) }
            _ = try? withControl { _ in }  // finishes what the fact started
        case .reconnected(let granted):
            log.log(.info, "reconnected to \(granted.serverName) \(granted.serverVersion) on \(granted.deviceName)")
            _ = try? withControl { c in
                c.granted = granted
                apply(.connected(granted.snapshot), &c)
            }
        }
    }

    /// Event thread, every wake-up: the mixer's events, then captured input.
    private func poll() {
        drainMixerEvents()
        content.deliverCallbacks()
        checkIdle()
        if let input = platformSettings.audioCallbacks.inputCallback { deliverInput(to: input) }
    }

    /// Event thread: tells the game, in the documented order: callbacks,
    /// then NotificationCenter, then the async streams.
    private func deliver(_ event: SessionEvent) {
        let callbacks = platformSettings.audioCallbacks
        switch event {
        case .interruption(let i): callbacks.interruptionCallback?(i)
        case .routeChange(let r): callbacks.routeChangeCallback?(r)
        case .mediaServicesWereLost: callbacks.mediaServicesLostCallback?()
        case .mediaServicesWereReset: callbacks.mediaServicesResetCallback?()
        case .otherAudioPlaying(let playing): callbacks.otherAudioPlayingCallback?(playing)
        case .silenceSecondaryAudioHint(let type): callbacks.silenceSecondaryAudioHintCallback?(type)
        case .backgroundMusicMuted(let muted): settings.backgroundMusicCallback?(muted)
        case .engineState: break
        }
        let (name, info) = SoundEngine.notification(for: event)
        NotificationCenter.default.post(name: name, object: nil, userInfo: info)
        dispatcher.publish(event)
        forward?(event)
    }
}

/// Whether the app is in the foreground or the background.
public enum ApplicationState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Visible and in use.
    case foreground
    /// Hidden, minimised or otherwise not in use; what plays depends on the category.
    case background
}

/// How a voice ended, as its completion callback is told.
public enum VoiceEnd: Sendable, Hashable {
    /// It played to its end, was stopped, or its sound was unloaded.
    case finished
    /// Its streamed source could not be opened or read (the error says which file and why).
    case failed(SoundEngineError)
}

/// The game's voice and meter callbacks, by ID.
struct PlaybackCallbacks {
    var voiceEnded: [VoiceID: @Sendable (VoiceEnd) -> Void] = [:]
    var voiceFailures: [VoiceID: SoundEngineError] = [:]
    var meters: [BusID: @Sendable (BusMeter) -> Void] = [:]
    /// Set when terminate has run the remaining completions: no new one is taken.
    var closed = false
}

/// A weak reference holder, so the event thread's closures do not keep the
/// engine alive (the engine owns the thread, not the other way round).
final class WeakBox<T: AnyObject>: @unchecked Sendable {
    // @unchecked: `value` is written once, during the owner's init, before
    // any thread that reads it is started.
    weak var value: T?
}
