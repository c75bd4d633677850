import Foundation
public import SoundBackend
public import SoundCore
import SoundMixer
public import SoundSession
import PulseAudioBackend
import Synchronization

/// One running sound engine: a mixer, an output stream on a sound server, an
/// event thread, and the audio-session configuration.
///
/// Games normally use the process-wide ``SoundEngine`` façade, which owns one
/// of these. Tests and tools may create their own, for example on the offline
/// backend. Every method may be called from any thread, concurrently; none
/// runs on or blocks the render thread.
///
/// Threads while an instance lives: the backend's (`SoundEngine-pulse`,
/// which also renders), the event thread (`SoundEngine-evt`, callbacks),
/// and the mixer's streaming thread once a streamed sound plays.
public final class SoundEngineInstance: Sendable {
    /// The settings the engine was initialized with.
    public let settings: InitSettings
    /// The platform settings the engine was initialized with. The current
    /// session is ``audioSessionConfiguration``.
    public let platformSettings: PlatformInitSettings

    let mixer: Mixer
    let backend: any AudioBackend
    let dispatcher: EventDispatcher
    /// Game callbacks for voices and bus meters, looked up by the event thread.
    let callbacks = Mutex(PlaybackCallbacks())
    private let state: Mutex<State>
    private let log: any SoundLogger

    private struct State {
        var session: SessionConfiguration
        var granted: GrantedStream
        var status: EngineState = .paused(.notConnected)
        var suspended = false
        var terminated = false
    }

    /// Creates and starts an engine: validates both settings blocks, builds
    /// the mixer, connects to the server, opens the stream and starts
    /// rendering.
    ///
    /// - Parameter backend: where audio goes; default a ``PulseAudioBackend``.
    ///   Pass an `OfflineBackend` to render without a server.
    /// - Throws: `invalidParameter`/`incompatibleCategory` naming a bad
    ///   setting; `deviceNotReady` naming the server address tried when no
    ///   server answers within `platform.connectTimeout`. Nothing is left
    ///   running after a throw.
    public init(
        _ settings: InitSettings = InitSettings(),
        _ platform: PlatformInitSettings = PlatformInitSettings(),
        backend: (any AudioBackend)? = nil
    ) throws(SoundEngineError) {
        try settings.validate()
        try platform.validate()
        self.settings = settings
        self.platformSettings = platform
        self.log = settings.logger
        let mixer = try Mixer(
            MixerConfiguration(
                sampleRate: platform.sampleRate, quantumFrames: settings.samplesPerFrame,
                maxVoices: settings.maxVoices, maxBuses: settings.maxBuses, maxSounds: settings.maxSounds,
                commandQueueBytes: max(settings.commandQueueSize, 16 * Mixer.commandSlotBytes),
                maxStreams: settings.maxStreams, limiter: settings.masterLimiter))
        self.mixer = mixer
        let backend = backend ?? PulseAudioBackend()
        self.backend = backend

        // The dispatcher needs the instance to handle backend events, and the
        // instance needs the dispatcher: a box breaks the cycle for init only.
        let owner = WeakBox<SoundEngineInstance>()
        let dispatcher = EventDispatcher(
            handle: { item in owner.value?.handle(item) },
            poll: { owner.value?.drainMixerEvents() })
        self.dispatcher = dispatcher

        let format = StreamFormat(
            sampleRate: platform.sampleRate, channelCount: platform.channelCount, sampleFormat: platform.sampleFormat)
        try mixer.setOutputFormat(format)
        let granted = try Self.openStream(
            backend, mixer: mixer, platform: platform, session: platform.audioSession, dispatcher: dispatcher)
        state = Mutex(State(session: platform.audioSession, granted: granted))
        owner.value = self
        dispatcher.start()
        log.log(.info, "connected to \(granted.serverName) \(granted.serverVersion), stream \(granted.format) on \(granted.deviceName), buffer \(granted.buffer)")
        do {
            try backend.setPaused(false)
        } catch {
            terminate()
            throw error
        }
        setStatus(.running)
    }

    deinit {
        terminate()
    }

    /// Opens the output stream with the session's stream properties. If the
    /// server grants another format, the mixer converts to it.
    private static func openStream(
        _ backend: any AudioBackend, mixer: Mixer, platform: PlatformInitSettings, session: SessionConfiguration,
        dispatcher: EventDispatcher
    ) throws(SoundEngineError) -> GrantedStream {
        let requested = mixer.outputFormat
        var properties = session.streamProperties.proplist
        properties["media.software"] = "SoundEngine"
        let configuration = BackendConfiguration(
            serverAddress: platform.serverAddress, applicationName: platform.applicationName,
            applicationID: platform.applicationID, streamName: "\(platform.applicationName) output",
            format: requested, latency: platform.latency.scaled(toSampleRate: platform.sampleRate),
            streamProperties: properties, connectTimeout: platform.connectTimeout,
            realtimePriority: platform.realtimePriority)
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

    /// Stops rendering, closes the stream and the connection, stops the
    /// mixer's and the event threads. Voices stop; sounds are released with the
    /// instance. Idempotent. Delivers a final `engineState(stopped)` event.
    public func terminate() {
        let first = state.withLock { s -> Bool in
            defer { s.terminated = true }
            return !s.terminated
        }
        guard first else { return }
        if status == .running { fade(to: 0) }
        backend.close()
        mixer.shutdown()
        setStatus(.stopped)
        dispatcher.stop()
        log.log(.info, "terminated")
    }

    /// Whether ``terminate()`` has run.
    public var isTerminated: Bool { state.withLock { $0.terminated } }

    /// Whether the engine renders now, and why not if it does not.
    public var status: EngineState { state.withLock { $0.status } }

    /// What the server granted: format, buffer sizes, server and device names.
    public var grantedStream: GrantedStream { state.withLock { $0.granted } }

    /// How long a frame rendered now takes to reach the speaker, as the
    /// server reports it (our buffer plus the device's); `nil` when unknown.
    public var outputLatency: Duration? { backend.outputLatency }

    /// Puts the engine in background mode, like Wwise `Suspend`.
    ///
    /// - Parameters:
    ///   - renderAnyway: keep mixing (voices advance, events fire) but output
    ///     silence; the stream keeps running.
    ///   - fadeOut: ramp the output to silence over one quantum first, so the
    ///     stop does not click.
    public func suspend(renderAnyway: Bool = false, fadeOut: Bool = true) throws(SoundEngineError) {
        try checkAlive()
        if fadeOut { fade(to: 0) } else { mixer.setMasterGain(0, rampFrames: 0) }
        if !renderAnyway { try backend.setPaused(true) }
        state.withLock { $0.suspended = true }
        setStatus(.paused(.suspendedByGame(renderAnyway: renderAnyway)))
    }

    /// Leaves background mode, like Wwise `WakeupFromSuspend`: the stream
    /// resumes and the output fades back in over one quantum.
    public func wakeupFromSuspend() throws(SoundEngineError) {
        try checkAlive()
        guard state.withLock({ $0.suspended }) else { return }
        try backend.setPaused(false)
        mixer.setMasterGain(1, rampFrames: settings.samplesPerFrame)
        state.withLock { $0.suspended = false }
        setStatus(.running)
    }

    // MARK: - Audio session

    /// The session configuration in force.
    public var audioSessionConfiguration: SessionConfiguration { state.withLock { $0.session } }

    /// Changes category, options and mode at run time, like Wwise
    /// `iOS::ChangeAudioSessionProperties`. The output stream is re-created
    /// with the new `media.role` (and echo-cancellation wish): the output
    /// fades out over one quantum, the stream is swapped, and it fades back in,
    /// so the switch does not click. Voices keep playing across it.
    ///
    /// - Throws: the validation error of `configuration` (nothing changes);
    ///   `deviceNotReady` if the server refuses the new stream (the old
    ///   configuration is restored when possible).
    public func changeAudioSessionProperties(_ configuration: SessionConfiguration) throws(SoundEngineError) {
        try checkAlive()
        try configuration.validate()
        let (old, wasRunning) = state.withLock { ($0.session, $0.status == .running) }
        if wasRunning { fade(to: 0) }
        backend.close()
        let granted: GrantedStream
        do {
            granted = try Self.openStream(
                backend, mixer: mixer, platform: platformSettings, session: configuration, dispatcher: dispatcher)
        } catch {
            log.log(.error, "changeAudioSessionProperties: \(error); restoring \(old)")
            if let restored = try? Self.openStream(
                backend, mixer: mixer, platform: platformSettings, session: old, dispatcher: dispatcher)
            {
                state.withLock { $0.granted = restored }
                if wasRunning { resumeAfterSwap() }
            } else {
                setStatus(.paused(.notConnected))
            }
            throw error
        }
        state.withLock {
            $0.session = configuration
            $0.granted = granted
        }
        if wasRunning { resumeAfterSwap() }
    }

    private func resumeAfterSwap() {
        do {
            try backend.setPaused(false)
            mixer.setMasterGain(1, rampFrames: settings.samplesPerFrame)
        } catch {
            log.log(.error, "could not resume the new stream: \(error)")
            setStatus(.paused(.notConnected))
        }
    }

    // MARK: - Background music

    /// Mutes (`true`) or unmutes the buses flagged "mute for background music",
    /// like Wwise `MuteBackgroundMusic`; the change fades over one quantum and
    /// ``InitSettings/backgroundMusicCallback`` is told.
    public func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) {
        try checkAlive()
        guard mixer.isBackgroundMusicMuted != mute else { return }
        try mixer.setBackgroundMusicMuted(mute, fadeFrames: settings.samplesPerFrame)
        dispatcher.post(.session(.backgroundMusicMuted(mute)))
    }

    /// Whether the background-music buses are muted (by the game or by the session).
    public var isBackgroundMusicMuted: Bool { mixer.isBackgroundMusicMuted }

    // MARK: - Events

    /// A stream of every ``SessionEvent`` from now until terminate.
    public func events() -> AsyncStream<SessionEvent> { dispatcher.subscribe() }

    // MARK: - Internals

    func checkAlive() throws(SoundEngineError) {
        if state.withLock({ $0.terminated }) { throw .notInitialized }
    }

    private func setStatus(_ status: EngineState) {
        let changed = state.withLock { s -> Bool in
            defer { s.status = status }
            return s.status != status
        }
        if changed { dispatcher.post(.session(.engineState(status))) }
    }

    /// Ramps the master gain to `gain` over one quantum and waits (at most
    /// 250 ms) until the render thread has rendered it.
    private func fade(to gain: Float) {
        mixer.setMasterGain(gain, rampFrames: settings.samplesPerFrame)
        let deadline = ContinuousClock.now + .milliseconds(250)
        while mixer.currentMasterGain != gain && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

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
        case .system(.connectionLost):
            setStatus(.paused(.mediaServicesLost))
            deliver(.mediaServicesWereLost)
        case .streamFailed(let why):
            log.log(.error, why)
            setStatus(.paused(.notConnected))
        case .system, .reconnected, .deviceSuspended:
            log.log(.debug, "backend: \(event)")
        }
    }

    /// Event thread: drains the mixer's render → control events and runs the
    /// game's voice and meter callbacks (outside every lock).
    private func drainMixerEvents() {
        mixer.drainEvents { event in
            switch event {
            case .voiceEnded(let voice, _):
                let (callback, failure) = callbacks.withLock { c in
                    (c.voiceEnded.removeValue(forKey: voice), c.voiceFailures.removeValue(forKey: voice))
                }
                callback?(failure.map { .failed($0) } ?? .finished)
            case .streamFailed(let voice, let error):
                log.log(.error, "streamed \(voice) failed: \(error)")
                callbacks.withLock { c in
                    if c.voiceEnded[voice] != nil { c.voiceFailures[voice] = error }
                }
            case .meter(let bus, let reading):
                callbacks.withLock { $0.meters[bus] }?(reading)
            case .streamStarved(let voice):
                log.log(.warning, "streamed \(voice) starved: the decoder fell behind (silence played)")
            case .eventsDropped(let count):
                log.log(.warning, "\(count) mixer events were lost: the event queue was full")
            }
        }
    }

    /// Event thread: tells the game, in the documented order: callbacks,
    /// then NotificationCenter, then the async streams.
    private func deliver(_ event: SessionEvent) {
        let callbacks = platformSettings.audioCallbacks
        switch event {
        case .interruption(let i): callbacks.interruptionCallback?(i)
        case .routeChange(let r): callbacks.routeChangeCallback?(r)
        case .mediaServicesWereReset: callbacks.mediaServicesResetCallback?()
        case .backgroundMusicMuted(let muted): settings.backgroundMusicCallback?(muted)
        case .engineState, .otherAudioPlaying, .silenceSecondaryAudioHint, .mediaServicesWereLost: break
        }
        let (name, info) = SoundEngine.notification(for: event)
        NotificationCenter.default.post(name: name, object: nil, userInfo: info)
        dispatcher.publish(event)
    }
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
}

/// A weak reference holder, so the event thread's closures do not keep the
/// engine alive (the engine owns the thread, not the other way round).
private final class WeakBox<T: AnyObject>: @unchecked Sendable {
    // @unchecked: `value` is written once, during the owner's init, before
    // the event thread that reads it is started.
    weak var value: T?
}
