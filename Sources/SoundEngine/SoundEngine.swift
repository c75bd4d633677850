public import SoundCore
public import SoundMixer
public import SoundSession
import Foundation
import Synchronization

/// The process-wide sound engine, like Wwise's `AK::SoundEngine`.
///
/// ```swift
/// import SoundEngine
///
/// var settings = SoundEngine.defaultInitSettings()
/// var platform = SoundEngine.defaultPlatformInitSettings()
/// platform.audioSession.category = .ambient
/// try SoundEngine.initialize(settings, platform)
/// defer { SoundEngine.terminate() }
///
/// let chime = try SoundEngine.loadSound(path: "chime.ogg")
/// try SoundEngine.play(chime)
/// ```
///
/// Every call before ``initialize(_:_:)`` (or after ``terminate()``) throws
/// `notInitialized`. All calls are safe from any thread. No argument traps:
/// a bad one (NaN, an infinity, a value out of range, a time outside
/// 0…3600 s, an unknown ID) throws `invalidParameter` or `idNotFound` naming
/// it and changes nothing, or is clamped where Wwise clamps
/// (docs/input-validation.md). The engine behind
/// the façade is a ``SoundEngineInstance``, reachable as ``current``.
public enum SoundEngine {
    /// Where the process-wide engine is in its life. `initializing` lets
    /// initialize connect (up to ``PlatformInitSettings/connectTimeout``)
    /// without holding the lock, so other threads asking ``isInitialized``
    /// or calling in are answered at once instead of waiting.
    private enum Slot {
        case empty
        case initializing
        case running(SoundEngineInstance)
        /// ``terminate()`` is closing this one: calls behave as after
        /// terminate, a second terminate waits for it, initialize waits for it.
        case terminating(SoundEngineInstance)

        var instance: SoundEngineInstance? {
            if case .running(let instance) = self { return instance }
            return nil
        }
    }

    /// How long initialize or a second terminate waits for a terminate in
    /// progress (it fades, waits for the fade to be heard and disconnects:
    /// well under a second) before giving up.
    private static let terminateWait: Duration = .seconds(5)

    private static let shared = ControlLock<Slot>(.empty)
    /// The process-wide event stream's subscribers; outlives every engine.
    private static let hub = EventHub()

    // MARK: Settings

    /// The default ``InitSettings`` (Wwise `GetDefaultInitSettings`).
    public static func defaultInitSettings() -> InitSettings { InitSettings() }

    /// The default ``PlatformInitSettings`` (Wwise `GetDefaultPlatformInitSettings`).
    public static func defaultPlatformInitSettings() -> PlatformInitSettings { PlatformInitSettings() }

    // MARK: Lifecycle

    /// Starts the engine: validates the settings, connects to the sound
    /// server, opens the output stream and starts rendering.
    ///
    /// - Throws: `alreadyInitialized`; `invalidParameter` or
    ///   `incompatibleCategory` naming the bad field; `deviceNotReady` naming
    ///   the server address when no server answers within
    ///   ``PlatformInitSettings/connectTimeout`` (3 s by default). After a
    ///   throw nothing runs and ``isInitialized`` is `false`. While one
    ///   thread initializes, a second `initialize` throws
    ///   `alreadyInitialized` and every other call behaves as before
    ///   initialize (``isInitialized`` is `false`, calls throw
    ///   `notInitialized`), without waiting for the connection.
    public static func initialize(
        _ settings: InitSettings = defaultInitSettings(),
        _ platform: PlatformInitSettings = defaultPlatformInitSettings()
    ) throws(SoundEngineError) {
        // Bad settings are refused before anything changes, even the slot.
        try settings.validate()
        try platform.validate()
        // A terminate in progress finishes first: at most one engine of ours
        // exists on the server at any time.
        let deadline = ContinuousClock.now + terminateWait
        while true {
            let claimed = try shared.withLock { slot throws(SoundEngineError) -> Bool in
                switch slot {
                case .empty:
                    slot = .initializing
                    return true
                case .terminating: return false
                case .initializing, .running: throw .alreadyInitialized
                }
            }
            if claimed { break }
            guard ContinuousClock.now < deadline else {
                throw .fail("the previous engine did not finish terminating within \(terminateWait)")
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
        do throws(SoundEngineError) {
            let instance = try SoundEngineInstance(settings, platform, backend: nil, forward: hub.yield)
            shared.withLock { $0 = .running(instance) }
        } catch {
            shared.withLock { $0 = .empty }
            throw error
        }
    }

    /// Stops everything the engine started (streams, connection, threads).
    /// When it returns, nothing of the engine exists on the server and none
    /// of its threads runs; a terminate called meanwhile on another thread
    /// waits for the same. Safe to call when not initialized, and then does
    /// nothing (also while another thread is still inside
    /// ``initialize(_:_:)``: terminate after it returns). A callback may call
    /// it; the event thread then ends after the callback returns.
    public static func terminate() {
        let deadline = ContinuousClock.now + terminateWait
        while true {
            enum Step { case close(SoundEngineInstance), wait, done }
            let step = shared.withLock { slot -> Step in
                switch slot {
                case .running(let instance):
                    slot = .terminating(instance)
                    return .close(instance)
                case .terminating(let instance):
                    // A callback cannot wait for the terminate that joins its thread.
                    return instance.dispatcher.isEventThread ? .done : .wait
                case .empty, .initializing:
                    return .done
                }
            }
            switch step {
            case .close(let instance):
                instance.terminate()
                shared.withLock { $0 = .empty }
                return
            case .wait:
                guard ContinuousClock.now < deadline else { return }
                Thread.sleep(forTimeInterval: 0.001)
            case .done:
                return
            }
        }
    }

    /// Whether ``initialize(_:_:)`` succeeded and ``terminate()`` has not run.
    /// Never waits, also not while another thread is initializing.
    public static var isInitialized: Bool { shared.withLock { $0.instance != nil } }

    /// The running engine, for everything the façade does not forward.
    /// - Throws: `notInitialized`.
    public static var current: SoundEngineInstance {
        get throws(SoundEngineError) {
            guard let instance = shared.withLock({ $0.instance }) else { throw .notInitialized }
            return instance
        }
    }

    /// Puts the engine in background mode (Wwise `Suspend`); see
    /// ``SoundEngineInstance/suspend(renderAnyway:fadeOut:)``.
    public static func suspend(
        renderAnyway: Bool = false, fadeOut: Duration? = nil
    ) throws(SoundEngineError) {
        try current.suspend(renderAnyway: renderAnyway, fadeOut: fadeOut)
    }

    /// Leaves background mode (Wwise `WakeupFromSuspend`).
    public static func wakeupFromSuspend() throws(SoundEngineError) {
        try current.wakeupFromSuspend()
    }

    /// Tells the engine the app went to the background; see
    /// ``SoundEngineInstance/setApplicationState(_:)``.
    public static func applicationDidEnterBackground() throws(SoundEngineError) {
        try current.setApplicationState(.background)
    }

    /// Tells the engine the app is coming back to the foreground; see
    /// ``SoundEngineInstance/setApplicationState(_:)``.
    public static func applicationWillEnterForeground() throws(SoundEngineError) {
        try current.setApplicationState(.foreground)
    }

    // MARK: Session

    /// The live audio session: category, route, other audio, activation,
    /// the speaker override, the preferred input (``AudioSession``).
    /// - Throws: `notInitialized`.
    public static var audioSession: AudioSession {
        get throws(SoundEngineError) { try current.audioSession }
    }

    /// Changes the session at run time (Wwise `ChangeAudioSessionProperties`);
    /// see ``SoundEngineInstance/changeAudioSessionProperties(_:)``.
    public static func changeAudioSessionProperties(_ configuration: SessionConfiguration) throws(SoundEngineError) {
        try current.changeAudioSessionProperties(configuration)
    }

    /// Mutes or unmutes the background-music buses (Wwise `MuteBackgroundMusic`).
    public static func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) {
        try current.muteBackgroundMusic(mute)
    }

    /// Whether the background-music buses are muted (Wwise `GetBackgroundMusicMute`);
    /// `false` when not initialized.
    public static var isBackgroundMusicMuted: Bool { (try? current.isBackgroundMusicMuted) ?? false }

    /// Every ``SessionEvent`` of the process-wide engine from now on, across
    /// terminate and the next initialize: a stream taken before
    /// ``initialize(_:_:)`` sees that engine start. It starts with the
    /// current engine's state when one runs, and ends when the consumer
    /// stops iterating (or drops the stream).
    public static func events() -> AsyncStream<SessionEvent> {
        hub.subscribe(current: shared.withLock { $0.instance?.status })
    }

    // MARK: Playback

    /// Loads a sound file; see ``SoundEngineInstance/loadSound(path:streaming:loop:quality:)``.
    public static func loadSound(
        path: String, streaming: Bool = false, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try current.loadSound(path: path, streaming: streaming, loop: loop, quality: quality)
    }

    /// Loads decoded audio; see ``SoundEngineInstance/loadSound(_:name:loop:quality:)``.
    public static func loadSound(
        _ audio: DecodedAudio, name: String, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try current.loadSound(audio, name: name, loop: loop, quality: quality)
    }

    /// Unloads a sound; voices playing it fade out first.
    public static func unloadSound(_ sound: SoundID) throws(SoundEngineError) {
        try current.unloadSound(sound)
    }

    /// Plays a sound; see ``SoundEngineInstance/play(_:on:_:completion:)``.
    @discardableResult
    public static func play(
        _ sound: SoundID, on bus: BusID = .master, _ parameters: VoiceParameters = VoiceParameters(),
        completion: (@Sendable (VoiceEnd) -> Void)? = nil
    ) throws(SoundEngineError) -> VoiceID {
        try current.play(sound, on: bus, parameters, completion: completion)
    }

    /// Stops a voice; see ``SoundEngineInstance/stop(_:fadeOut:)`` (a
    /// `fadeOut` outside 0…3600 s is `invalidParameter`).
    public static func stop(_ voice: VoiceID, fadeOut: Duration = .zero) throws(SoundEngineError) {
        try current.stop(voice, fadeOut: fadeOut)
    }

    /// Stops every voice (Wwise `StopAll`); see ``SoundEngineInstance/stopAll(fadeOut:)``.
    public static func stopAll(fadeOut: Duration = .zero) throws(SoundEngineError) {
        try current.stopAll(fadeOut: fadeOut)
    }

    // MARK: Voices

    /// Sets a voice's linear volume; see ``SoundEngineInstance/setVolume(_:_:ramp:)``.
    public static func setVolume(_ voice: VoiceID, _ volume: Float, ramp: Duration? = nil) throws(SoundEngineError) {
        try current.setVolume(voice, volume, ramp: ramp)
    }

    /// Sets a voice's pan; see ``SoundEngineInstance/setPan(_:_:ramp:)``.
    public static func setPan(_ voice: VoiceID, _ pan: Float, ramp: Duration? = nil) throws(SoundEngineError) {
        try current.setPan(voice, pan, ramp: ramp)
    }

    /// Sets a voice's pitch ratio; see ``SoundEngineInstance/setPitch(_:_:)``.
    public static func setPitch(_ voice: VoiceID, _ pitch: Double) throws(SoundEngineError) {
        try current.setPitch(voice, pitch)
    }

    /// Sets a voice's low-pass cut-off; see ``SoundEngineInstance/setLowPass(_:cutoffHz:ramp:)``.
    public static func setLowPass(_ voice: VoiceID, cutoffHz: Float?, ramp: Duration? = nil) throws(SoundEngineError) {
        try current.setLowPass(voice, cutoffHz: cutoffHz, ramp: ramp)
    }

    /// Pauses a voice; see ``SoundEngineInstance/pause(_:fade:)``.
    public static func pause(_ voice: VoiceID, fade: Duration = .zero) throws(SoundEngineError) {
        try current.pause(voice, fade: fade)
    }

    /// Resumes a voice; see ``SoundEngineInstance/resume(_:fade:)``.
    public static func resume(_ voice: VoiceID, fade: Duration = .zero) throws(SoundEngineError) {
        try current.resume(voice, fade: fade)
    }

    /// Whether a voice has not ended; `false` when not initialized.
    public static func isPlaying(_ voice: VoiceID) -> Bool { (try? current.isPlaying(voice)) ?? false }

    // MARK: Buses and meters

    /// Creates a bus; see ``SoundEngineInstance/createBus(name:parent:)``.
    public static func createBus(name: String, parent: BusID = .master) throws(SoundEngineError) -> BusID {
        try current.createBus(name: name, parent: parent)
    }

    /// The bus named `name`; `nil` when there is none or no engine.
    public static func bus(named name: String) -> BusID? { (try? current.bus(named: name)) ?? nil }

    /// Sets a bus's linear volume; see ``SoundEngineInstance/setBusVolume(_:_:ramp:)``.
    public static func setBusVolume(_ bus: BusID, _ volume: Float, ramp: Duration? = nil) throws(SoundEngineError) {
        try current.setBusVolume(bus, volume, ramp: ramp)
    }

    /// Mutes or unmutes a bus; see ``SoundEngineInstance/setBus(_:muted:ramp:)``.
    public static func setBus(_ bus: BusID, muted: Bool, ramp: Duration? = nil) throws(SoundEngineError) {
        try current.setBus(bus, muted: muted, ramp: ramp)
    }

    /// Marks a bus "mute for background music"; see ``SoundEngineInstance/setBus(_:mutedForBackgroundMusic:)``.
    public static func setBus(_ bus: BusID, mutedForBackgroundMusic: Bool) throws(SoundEngineError) {
        try current.setBus(bus, mutedForBackgroundMusic: mutedForBackgroundMusic)
    }

    /// A bus's latest peak and RMS (Wwise metering, polled); throws `notInitialized`.
    public static func meter(_ bus: BusID) throws(SoundEngineError) -> BusMeter { try current.meter(bus) }

    /// Pushes a bus's meter to `callback`; see ``SoundEngineInstance/setBusMeterCallback(_:_:)``.
    public static func setBusMeterCallback(
        _ bus: BusID, _ callback: (@Sendable (BusMeter) -> Void)?
    ) throws(SoundEngineError) {
        try current.setBusMeterCallback(bus, callback)
    }

    // MARK: State and diagnostics

    /// Why the engine renders or not; throws `notInitialized`.
    public static func status() throws(SoundEngineError) -> EngineState { try current.status }

    /// What the server granted; throws `notInitialized`.
    public static func grantedStream() throws(SoundEngineError) -> GrantedStream { try current.grantedStream }

    /// Render-to-speaker latency as the server reports it; `nil` when unknown or not initialized.
    public static var outputLatency: Duration? { (try? current.outputLatency) ?? nil }

    /// Mixer and output counters; throws `notInitialized`.
    public static func statistics() throws(SoundEngineError) -> EngineStatistics { try current.statistics }

    /// Tells the engine the app went to the background or came back; see
    /// ``SoundEngineInstance/setApplicationState(_:)``.
    public static func setApplicationState(_ state: ApplicationState) throws(SoundEngineError) {
        try current.setApplicationState(state)
    }

    /// Reads captured input; see ``SoundEngineInstance/readInput(into:)``. 0 when not initialized.
    public static func readInput(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        (try? current.readInput(into: buffer)) ?? 0
    }
}

/// The façade's subscribers: fed by every engine the façade creates.
private final class EventHub: Sendable {
    private let continuations = ControlLock<[UInt64: AsyncStream<SessionEvent>.Continuation]>([:])
    private let next = Atomic<UInt64>(0)

    func subscribe(current state: EngineState?) -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = next.wrappingAdd(1, ordering: .relaxed).newValue  // relaxed: only uniqueness matters
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { all in
            if let state { continuation.yield(.engineState(state)) }
            all[id] = continuation
        }
        return stream
    }

    /// Event thread of the current engine.
    @Sendable func yield(_ event: SessionEvent) {
        continuations.withLock { all in
            for continuation in all.values { continuation.yield(event) }
        }
    }
}
