public import SoundBackend
package import SoundCore
import SoundMixer
package import SoundSession
import Foundation
import Synchronization

/// The process-wide sound engine, like Wwise's `AK::SoundEngine`: every
/// call a game makes is a static member of it.
///
/// ```swift
/// import SoundEngine
///
/// var platform = SoundEngine.defaultPlatformInitSettings()
/// platform.audioSession.category = .ambient
/// try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
/// defer { SoundEngine.terminate() }
///
/// let chime = try SoundEngine.loadSound(path: "chime.ogg")
/// try SoundEngine.play(chime)
/// ```
///
/// **Before `initialize`.** Every member that needs an engine throws
/// `notInitialized` before ``initialize(_:_:)`` and after ``terminate()``,
/// getters included. Only these need none: ``initialize(_:_:)``,
/// ``terminate()``, ``isInitialized``, ``defaultInitSettings()``,
/// ``defaultPlatformInitSettings()``, ``events()`` and the notification names.
///
/// **Threads.** Every call is safe from any thread, returns without waiting
/// on the sound server, and never runs on the render thread.
///
/// **Arguments.** None traps: a bad one (NaN, an infinity, a value out of
/// range, a time outside 0…3600 s, an unknown ID) throws `invalidParameter`
/// or `idNotFound` naming it and changes nothing, or is clamped where Wwise
/// clamps (docs/input-validation.md).
///
/// **Times** follow one grammar (decision 0013): `fade:` is how long the
/// level takes when sound starts, stops, pauses, resumes or suspends;
/// `ramp:` how long a setting takes to reach its new value. Both are a
/// `Duration`, `.zero` by default, and `.zero` means the shortest change that
/// does not click (the de-click fade, or one render quantum).
///
/// **Names.** The engine's types nest in this enum (``GameObjectID``,
/// ``PlayingID``, ``Vector3``…) and the session's in ``AudioSession``
/// (``AudioSession/Category``…), so none collides with a game's own.
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
        try initialize(settings, platform, backend: nil)
    }

    /// Starts the engine on an ``OfflineOutput`` instead of a sound server:
    /// nothing renders until the game calls ``OfflineOutput/render(frames:)``,
    /// so a game's unit tests of its audio logic run anywhere, deterministically,
    /// and a bounce renders faster than real time. Everything else is as
    /// ``initialize(_:_:)``: the same calls, the same checks, the same
    /// callbacks (delivered on the event thread as the renders make them due).
    /// The offline output has one built-in speaker and grants the format asked for.
    public static func initialize(
        _ settings: InitSettings = defaultInitSettings(),
        _ platform: PlatformInitSettings = defaultPlatformInitSettings(),
        offline output: OfflineOutput
    ) throws(SoundEngineError) {
        try initialize(settings, platform, backend: output.backend)
    }

    private static func initialize(
        _ settings: InitSettings, _ platform: PlatformInitSettings, backend: (any AudioBackend)?
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
            var settings = settings
            settings.profiler = settings.profiler.applyingEnvironment(ProcessInfo.processInfo.environment)
            let instance = try SoundEngineInstance(settings, platform, backend: backend, forward: hub.yield)
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

    /// The running engine (the package's own targets reach its instance).
    /// - Throws: `notInitialized`.
    package static var current: SoundEngineInstance {
        get throws(SoundEngineError) {
            guard let instance = shared.withLock({ $0.instance }) else { throw .notInitialized }
            return instance
        }
    }

    /// Puts the engine in background mode, like Wwise `Suspend`: the output
    /// stream is corked (the sink may suspend).
    ///
    /// - Parameters:
    ///   - renderAnyway: keep mixing on the engine's own clock with the output
    ///     discarded: voices advance, fades finish, end-of-event callbacks
    ///     run. Without it voices hold their place (calls are still taken;
    ///     stopped voices end when rendering resumes).
    ///   - fade: how long the output ramps to silence before the stream stops
    ///     (`.zero`: one render quantum, the shortest fade that does not
    ///     click), at most 10 s: the session thread waits for the fade to be
    ///     heard before it corks the stream.
    /// - Throws: `notInitialized`; `invalidParameter` naming `fade` when it is
    ///   negative or over 10 s (docs/input-validation.md).
    public static func suspend(renderAnyway: Bool = false, fade: Duration = .zero) throws(SoundEngineError) {
        try current.suspend(renderAnyway: renderAnyway, fade: fade)
    }

    /// Leaves background mode, like Wwise `WakeupFromSuspend`: the stream
    /// resumes and the output fades back in over one quantum — unless
    /// something else holds the engine paused (an interruption, the session
    /// inactive, the app in the background), which ``status`` then names.
    public static func wakeupFromSuspend() throws(SoundEngineError) {
        try current.wakeupFromSuspend()
    }

    /// Tells the engine the app went to the background or came back (Linux
    /// has no app delegate: the game decides, e.g. on window focus or
    /// minimise). Applies the category's background rule (ambient and
    /// soloAmbient stop in the background, playback keeps playing unless
    /// ``AudioSession/Behavior/suspendInBackground``), and seed 002's rule on
    /// the way back: during a call the game takes the audio back and mixes
    /// with the call; leaving again gives it back. Coming back also re-checks
    /// an interruption whose end never arrived.
    public static func setApplicationState(_ state: ApplicationState) throws(SoundEngineError) {
        try current.setApplicationState(state)
    }

    /// Whether the app is in the foreground, as last told (`.foreground`
    /// until ``setApplicationState(_:)`` says otherwise).
    public static var applicationState: ApplicationState {
        get throws(SoundEngineError) { try current.applicationState }
    }

    // MARK: Session

    /// The live audio session, like `AVAudioSession.sharedInstance()`: the
    /// category in force, the route, other audio, activation, the speaker
    /// override, the preferred input (``AudioSession``).
    public static var audioSession: AudioSession {
        get throws(SoundEngineError) { try current.audioSession }
    }

    /// Changes category, options and mode at run time, like Wwise
    /// `iOS::ChangeAudioSessionProperties` — the one call that changes the
    /// session's configuration. When the stream role or the echo-cancellation
    /// wish changes, the output fades out over one quantum, the stream is
    /// re-created with the new `media.role`, and it fades back in; voices keep
    /// playing across it. Routes and other apps follow the new category.
    /// While the session is inactive the change takes effect at the next
    /// activation.
    ///
    /// - Throws: the validation error of `configuration`
    ///   (`invalidParameter`/`incompatibleCategory` naming what iOS refuses;
    ///   nothing changes); `mediaServicesFailed` while the server is away.
    public static func changeAudioSessionProperties(_ configuration: AudioSession.Configuration)
        throws(SoundEngineError)
    {
        try current.changeAudioSessionProperties(configuration)
    }

    /// Mutes (`true`) or unmutes the buses flagged "mute for background
    /// music", like Wwise `MuteBackgroundMusic`; the change fades over one
    /// quantum and ``InitSettings/backgroundMusicCallback`` is told. The
    /// session also mutes them while other apps' audio plays in a mixable
    /// category; they sound again only when neither holds them.
    public static func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) {
        try current.muteBackgroundMusic(mute)
    }

    /// Whether the background-music buses are muted, by the game or by the
    /// session (Wwise `GetBackgroundMusicMute`).
    public static var isBackgroundMusicMuted: Bool {
        get throws(SoundEngineError) { try current.isBackgroundMusicMuted }
    }

    /// Every ``SessionEvent`` of the process-wide engine from now on, across
    /// terminate and the next initialize: a stream taken before
    /// ``initialize(_:_:)`` sees that engine start. It starts with the
    /// current engine's state when one runs, and ends when the consumer
    /// stops iterating (or drops the stream). Needs no engine.
    public static func events() -> AsyncStream<SessionEvent> {
        hub.subscribe(current: shared.withLock { $0.instance?.status })
    }

    // MARK: Input

    /// Reads captured input (record and playAndRecord categories):
    /// interleaved float32 frames of ``PlatformInitSettings/inputChannelCount``
    /// channels at the engine's rate, from the routed input. Returns the
    /// frames read; 0 when none are waiting, or when
    /// ``PlatformInitSettings/AudioCallbacks/inputCallback`` takes the input
    /// instead. Never blocks.
    public static func readInput(into buffer: UnsafeMutableBufferPointer<Float>) throws(SoundEngineError) -> Int {
        try current.readInput(into: buffer)
    }

    // MARK: State and diagnostics

    /// Whether the engine renders now, and why not if it does not. Decided
    /// the moment a call or a server fact changes it; the stream follows on
    /// the session thread.
    public static var status: State { get throws(SoundEngineError) { try current.status } }

    /// What the server granted: format, buffer sizes, server and device names.
    public static var outputStream: OutputStream { get throws(SoundEngineError) { try current.outputStream } }

    /// How long a frame rendered now takes to reach the speaker, as the
    /// server reports it (the engine's buffer plus the device's); `nil` while
    /// unknown.
    public static var outputLatency: Duration? { get throws(SoundEngineError) { try current.outputLatency } }

    /// The mixer's and the output's counters.
    public static var statistics: Statistics { get throws(SoundEngineError) { try current.statistics } }
}
/// The façade's subscribers: fed by every engine the façade creates.
private final class EventHub: Sendable {
    /// A subscriber, and the engine state it was last told: a subscriber
    /// that joined after a state was decided but before its event was
    /// delivered is told that state once, not twice.
    private struct Subscriber {
        var continuation: AsyncStream<SessionEvent>.Continuation
        var lastState: EngineState?
    }

    private let subscribers = ControlLock<[UInt64: Subscriber]>([:])
    private let next = Atomic<UInt64>(0)

    func subscribe(current state: EngineState?) -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = next.wrappingAdd(1, ordering: .relaxed).newValue  // relaxed: only uniqueness matters
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { all in
            if let state { continuation.yield(.engineState(state)) }
            all[id] = Subscriber(continuation: continuation, lastState: state)
        }
        return stream
    }

    /// Event thread of the current engine.
    @Sendable func yield(_ event: SessionEvent) {
        subscribers.withLock { all in
            for (id, subscriber) in all {
                if case .engineState(let state) = event {
                    guard state != subscriber.lastState else { continue }
                    all[id]?.lastState = state
                }
                subscriber.continuation.yield(event)
            }
        }
    }
}
