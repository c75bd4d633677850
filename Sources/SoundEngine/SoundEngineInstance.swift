import Foundation
package import SoundBackend
package import SoundCore
import SoundMixer
package import SoundSession
import PulseAudioBackend
import Synchronization

/// One running sound engine: a mixer, an output stream on a sound server, the
/// live audio session (``audioSession``), an event thread and the engine's
/// own clock.
///
/// **The package's own door**, for its tests, benchmarks and the C API's
/// plumbing: games use the static ``SoundEngine`` façade, which owns one of
/// these and forwards every call to the member of the same name (where each
/// call is documented). Tests create as many as they like, also on an
/// `OfflineBackend` that renders only when told to. Every method may be
/// called from any thread, concurrently; none runs on or blocks the render
/// thread, and none waits on the sound server (only `init` connects, and
/// ``terminate()`` waits for its own teardown). After ``terminate()`` every
/// member that needs the engine throws `notInitialized`, as the façade's do
/// before `initialize`.
///
/// How it is put together (docs/architecture.md): ``Playback`` plays sounds
/// and voices for the public API and the content engine alike; the
/// ``SessionController`` holds the ``AudioSessionPolicy`` and carries out what
/// it decides on its own thread (`SoundEngine-ses`): streams corked, moved or
/// re-created, other apps' streams muted or ducked, buses faded; the
/// ``EventDispatcher`` delivers every notification on the event thread.
///
/// Threads while an instance lives: the backend's (`SoundEngine-pulse`,
/// which also renders, and `SoundEngine-ctl`), the session thread, the event
/// thread (`SoundEngine-evt`, callbacks), the engine clock
/// (`SoundEngine-clock`, which keeps the mixer going while the stream is
/// corked), the mixer's streaming thread once a streamed sound plays, the
/// backend's reconnect thread, the content engine's posting thread and its timer queue,
/// and, when ``InitSettings/profiler`` is on, the profiler link's (`SoundEngine-prf`).
package final class SoundEngineInstance: Sendable {
    /// The settings the engine was initialized with.
    package let settings: InitSettings
    /// The platform settings the engine was initialized with. The current
    /// session is ``audioSession``.
    package let platformSettings: PlatformInitSettings

    let mixer: Mixer
    package let backend: any AudioBackend
    let dispatcher: EventDispatcher
    let clock: EngineClock
    /// Sounds, voices and buses, for the public API and the content engine.
    let playback: Playback
    /// The audio session and everything that carries out its decisions.
    let session: SessionController
    /// Banks, game objects and events (Content/).
    let content: ContentEngine
    /// Held for the whole of ``terminate()``; true once it has run.
    private let teardown = ControlLock(false)
    /// Set once terminate has finished: the state reads `stopped`.
    private let stopped = Atomic(false)
    let log: any SoundLogger
    /// The live profiler's link, when ``InitSettings/profiler`` turns it on
    /// (set once, at the end of init; stopped first by terminate).
    private let profiler = Mutex<ProfilerLink?>(nil)
    /// Also told every event, after the instance's own subscribers.
    let forward: (@Sendable (SessionEvent) -> Void)?

    /// The game's view of the audio session, like `AVAudioSession.sharedInstance()`.
    package let audioSession: AudioSession

    /// What the getters read (the session's snapshot).
    var published: ControlLock<SessionSnapshot> { session.published }

    /// Creates and starts an engine: validates both settings blocks, builds
    /// the mixer, connects to the server, activates the session (as Wwise
    /// does at init), opens the stream and starts rendering.
    ///
    /// - Throws: `invalidParameter`/`incompatibleCategory` naming a bad
    ///   setting; `deviceNotReady` naming the server address tried when no
    ///   server answers within `platform.connectTimeout`. Nothing is left
    ///   running after a throw.
    package convenience init(
        _ settings: InitSettings = InitSettings(), _ platform: PlatformInitSettings = PlatformInitSettings()
    ) throws(SoundEngineError) {
        try self.init(settings, platform, backend: nil, forward: nil)
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
        let initialized = ContinuousClock.now
        self.forward = forward
        try settings.validate()
        try platform.validate()
        self.settings = settings
        self.platformSettings = platform
        self.log = settings.logger
        var policy = try AudioSessionPolicy(configuration: platform.audioSession)
        // Wwise activates the session at init; the policy applies it once connected.
        _ = try? policy.handle(.request(.setActive(true, options: [])))
        let mixer = try Mixer(
            MixerConfiguration(
                sampleRate: platform.sampleRate, quantumFrames: settings.samplesPerFrame,
                maxVoices: settings.maxVoices, maxBuses: settings.maxBuses, maxSounds: settings.maxSounds,
                commandQueueBytes: max(settings.commandQueueSize, 16 * Mixer.commandSlotBytes),
                maxStreams: settings.maxStreams, limiter: settings.masterLimiter,
                maxAudibleVoices: settings.maxAudibleVoices))
        self.mixer = mixer
        let backend = backend ?? PulseAudioBackend()
        self.backend = backend
        audioSession = AudioSession()

        // The dispatcher needs the instance to deliver events, and the
        // instance needs the dispatcher: a box breaks the cycle for init only.
        let owner = WeakBox<SoundEngineInstance>()
        let dispatcher = EventDispatcher(
            handle: { event in owner.value?.deliver(event) },
            poll: { owner.value?.poll() },
            finish: { owner.value?.completeRemainingVoices() })
        self.dispatcher = dispatcher

        // The device's layout (0) starts stereo; the backend takes the device's channels.
        let format = StreamFormat(
            sampleRate: platform.sampleRate, channelCount: platform.channelCount == 0 ? 2 : platform.channelCount,
            sampleFormat: platform.sampleFormat)
        try mixer.setOutputFormat(format)
        let clock = EngineClock(mixer: mixer, quantumFrames: settings.samplesPerFrame, sampleRate: platform.sampleRate)
        self.clock = clock
        let server: ServerDescription
        do {
            server = try backend.open(
                Self.backendConfiguration(platform, format: format, properties: policy.configurationInEffect.streamProperties),
                render: mixer.renderEntry, events: { event in owner.value?.session.backendEvent(event) })
        } catch {
            clock.shutdown()
            throw error
        }
        let session = SessionController(
            policy: policy,
            granted: GrantedStream(
                server: server, format: format,
                buffer: BufferAttributes(maxLength: 0, targetLength: 0, prebuffer: 0, minimumRequest: 0), deviceName: ""),
            mixer: mixer, backend: backend, clock: clock, dispatcher: dispatcher,
            quantumFrames: settings.samplesPerFrame, idleCorkTimeout: platform.idleCorkTimeout,
            needsMixerClock: { owner.value?.content.waitsForMixerClock ?? false }, log: settings.logger)
        self.session = session
        let playback = Playback(mixer: mixer, onVoiceQueued: { [session] in session.voiceQueued() })
        self.playback = playback
        let content = ContentEngine(playback: playback, log: settings.logger)
        self.content = content
        // An offline render made after a post hears it (its actions run first).
        backend.setBeforeRender { [weak content] in content?.runQueuedPosts() }
        audioSession.owner.value = self
        owner.value = self
        dispatcher.start()
        do {
            try session.start(on: server)
        } catch {
            terminate()
            throw error
        }
        if settings.profiler.enabled {
            let link = ProfilerLink.start(
                settings.profiler, engine: self, started: initialized, environment: ProcessInfo.processInfo.environment,
                log: log)
            profiler.withLock { $0 = link }
        }
        let granted = outputStream
        log.log(.info, "connected to \(granted.serverName) \(granted.serverVersion), stream \(granted.format) on \(granted.deviceName), buffer \(granted.buffer)")
    }

    deinit {
        terminate()
        clock.shutdown()
    }

    /// What the backend is asked to connect with.
    private static func backendConfiguration(
        _ platform: PlatformInitSettings, format: StreamFormat, properties: StreamProperties
    ) -> BackendConfiguration {
        var configuration = BackendConfiguration(
            serverAddress: platform.serverAddress, applicationName: platform.applicationName,
            applicationID: platform.applicationID, streamName: "\(platform.applicationName) output",
            format: format, latency: platform.latency.scaled(toSampleRate: platform.sampleRate),
            streamProperties: properties, connectTimeout: platform.connectTimeout,
            realtimePriority: platform.realtimePriority)
        configuration.captureChannels = platform.inputChannelCount
        configuration.followDeviceChannels = platform.channelCount == 0
        configuration.journalDirectory = platform.crashRepair.journalDirectory
        configuration.guardianProcess = platform.crashRepair.guardianProcess
        return configuration
    }

    // MARK: - Lifecycle

    /// Deactivates the session (other apps' streams are unmuted and their
    /// volumes restored), fades out, closes the streams and the connection,
    /// stops the mixer's, the clock's and the event threads. Voices stop;
    /// sounds are released with the instance. Idempotent. Delivers a final
    /// `engineState(stopped)` event.
    package func terminate() {
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
        playback.closed.store(true, ordering: .releasing)  // releasing: pairs with checkAlive
        profiler.withLock { link in
            link?.stop()
            link = nil
        }
        content.stopThreads()
        session.shutdown()
        clock.stop()
        backend.close()
        clock.shutdown()
        mixer.shutdown()
        stopped.store(true, ordering: .releasing)  // releasing: pairs with the getters
        dispatcher.post(.engineState(.stopped))
        dispatcher.stop()
        log.log(.info, "terminated")
    }

    /// Whether ``terminate()`` has run.
    package var isTerminated: Bool { stopped.load(ordering: .acquiring) }

    /// Whether the engine renders now, and why not if it does not. Decided
    /// the moment a call or a server fact changes it; the stream follows on
    /// the session thread.
    package var status: EngineState { isTerminated ? .stopped : published.withLock { $0.state } }

    /// What the server granted: format, buffer sizes, server and device names.
    package var outputStream: GrantedStream { published.withLock { $0.granted } }

    /// How long a frame rendered now takes to reach the speaker, as the
    /// server reports it (our buffer plus the device's); `nil` when unknown.
    package var outputLatency: Duration? { backend.outputLatency }

    func checkAlive() throws(SoundEngineError) { try playback.checkAlive() }

    /// ``SoundEngine/suspend(renderAnyway:fade:)``.
    package func suspend(renderAnyway: Bool = false, fade: Duration = .zero) throws(SoundEngineError) {
        let frames = try TimeArgument.frames(
            fade, "suspend fade", sampleRate: mixer.outputFormat.sampleRate, limit: Self.maxSuspendFade)
        // .zero: the shortest fade that does not click, one quantum.
        try session.request(
            .lifecycle(.gameSuspended(renderAnyway: renderAnyway)), pauseFade: max(frames, settings.samplesPerFrame))
    }

    /// The longest fade `suspend(renderAnyway:fade:)` takes: the
    /// session thread waits for the fade to be heard before it corks the
    /// stream, and every session change waits behind it.
    static let maxSuspendFade: Duration = .seconds(10)

    /// ``SoundEngine/wakeupFromSuspend()``.
    package func wakeupFromSuspend() throws(SoundEngineError) {
        try session.request(.lifecycle(.gameWokeUp))
    }

    /// ``SoundEngine/setApplicationState(_:)``.
    package func setApplicationState(_ state: SoundEngine.ApplicationState) throws(SoundEngineError) {
        try session.request(.lifecycle(state == .background ? .appEnteredBackground : .appEnteredForeground))
    }

    /// ``SoundEngine/applicationState``.
    package var applicationState: SoundEngine.ApplicationState {
        get throws(SoundEngineError) {
            try checkAlive()
            return published.withLock { $0.inForeground ? .foreground : .background }
        }
    }

    // MARK: - Audio session

    /// The session configuration in force (``AudioSession/configuration``).
    package var audioSessionConfiguration: SessionConfiguration { published.withLock { $0.configuration } }

    /// ``SoundEngine/changeAudioSessionProperties(_:)``.
    package func changeAudioSessionProperties(_ configuration: SessionConfiguration) throws(SoundEngineError) {
        try session.request(.request(.setConfiguration(configuration)))
    }

    /// Makes a session request (``AudioSession`` calls this).
    func request(_ request: SessionRequest) throws(SoundEngineError) {
        try session.request(.request(request))
    }

    // MARK: - Background music

    /// ``SoundEngine/muteBackgroundMusic(_:)``.
    package func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) {
        try session.muteBackgroundMusic(mute)
    }

    /// ``SoundEngine/isBackgroundMusicMuted``.
    package var isBackgroundMusicMuted: Bool {
        get throws(SoundEngineError) {
            try checkAlive()
            return mixer.isBackgroundMusicMuted
        }
    }

    // MARK: - Input

    /// ``SoundEngine/readInput(into:)``.
    package func readInput(into buffer: UnsafeMutableBufferPointer<Float>) throws(SoundEngineError) -> Int {
        try checkAlive()
        guard platformSettings.audioCallbacks.inputCallback == nil else { return 0 }
        return backend.readCapture(into: buffer)
    }

    // MARK: - Events

    /// A stream of every ``SessionEvent`` from now until terminate, starting
    /// with the engine's current state.
    package func events() -> AsyncStream<SessionEvent> { dispatcher.subscribe() }

    // MARK: - The event thread

    /// Event thread, every wake-up: the mixer's events, then captured input.
    private func poll() {
        drainMixerEvents()
        content.deliverCallbacks()
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
        profiler.withLock { $0 }?.notify(event)
    }
}

extension SoundEngine {
    /// Whether the app is in the foreground or the background.
    public enum ApplicationState: String, Sendable, Hashable, Codable, CaseIterable {
        /// Visible and in use.
        case foreground
        /// Hidden, minimised or otherwise not in use; what plays depends on the category.
        case background
    }
}

/// How a voice ended, as its completion is told (``Playback``'s callers: the
/// content engine, and the façade's ``SoundEngine/play(_:on:_:callbackTypes:callback:)``,
/// which tells the game a ``SoundEngine/CallbackInfo``).
enum VoiceEnd: Sendable, Hashable {
    /// It played to its end, was stopped, or its sound was unloaded.
    case finished
    /// Its streamed source could not be opened or read (the error says which file and why).
    case failed(SoundEngineError)
}

/// A voice's completion: told the voice and how it ended, exactly once.
typealias VoiceCompletion = @Sendable (VoiceID, VoiceEnd) -> Void

/// The voice completions and the game's meter callbacks, by ID.
struct PlaybackCallbacks {
    var voiceEnded: [VoiceID: VoiceCompletion] = [:]
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
