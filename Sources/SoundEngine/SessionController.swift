import Dispatch
import Foundation
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession
import Synchronization

/// The engine's audio session: the ``AudioSessionPolicy`` and everything
/// that carries out what it decides — pausing and resuming with fades,
/// creating and re-creating our streams, moving them, muting and ducking
/// other apps through the backend, idle corking, recovering a lost stream —
/// on a thread of its own, `SoundEngine-ses`.
///
/// **The game never waits on the server.** A game thread's call (a session
/// request, a lifecycle call, a voice queued on an idle-corked stream) takes
/// `shared` for the microseconds the policy needs to decide, appends what it
/// decided to the job queue and returns: a refused request throws at once
/// and changes nothing, an accepted one is visible at once in every getter
/// (``published``), and its server round trips — fades heard, corks, moves,
/// stream swaps — happen on the session thread, in order. Server facts take
/// the same path from the backend's threads, so the policy sees requests and
/// facts in one order and the session thread performs them in that order.
///
/// Notifications reach the game through the event thread (``EventDispatcher``):
/// per batch of outputs, what does not wait is done first, then the game is
/// told, then the waiting part (a fade heard, then the cork, move or swap)
/// finishes — an interruption reaches the game without the fade's delay.
final class SessionController: @unchecked Sendable {
    // @unchecked: `shared` (a ControlLock) guards the policy, the job queue
    // and the published snapshot; `execution` is touched only by the session
    // thread; `thread` is written once by `start`; the rest is immutable or atomic.

    /// What the session thread does next.
    enum Job {
        /// Perform the policy's outputs, decided already. `pauseFade`: the
        /// frames a pause among them fades over (`suspend(renderAnyway:fade:)`).
        case outputs([SessionOutput], pauseFade: Int?)
        /// Our streams are gone (a failure, a lost or a new connection): the
        /// next `setStreamProperties` creates them whatever their properties.
        case streamsGone
        /// Something for the game's logger, from a backend thread.
        case log(LogLevel, String)
        /// Signals when every job before it has been performed.
        case drained(DispatchSemaphore)
        /// Deactivate, fade out, and end the thread.
        case terminate
    }

    /// Shared between game threads, backend threads and the session thread.
    struct Shared {
        var policy: AudioSessionPolicy
        var jobs: [Job] = []
        /// Terminate has begun: requests are refused.
        var closed = false
        var gameMutedBackgroundMusic = false
        var sessionMutedBackgroundMusic = false
        /// The stream as last granted.
        var granted: GrantedStream
        /// Set when performing failed in a way the policy cannot know (a
        /// stream that would not resume): the state the game reads instead of
        /// the policy's until the next transition succeeds.
        var executionFailure: EngineState?
        /// The first creation of our stream failed, and why (initialize throws it).
        var startFailure: SoundEngineError?
    }

    /// The session thread's own state.
    struct Execution {
        /// What the engine is doing, as last performed (engineState events).
        var state: EngineState = .paused(.notConnected)
        /// The properties our streams were created with; `nil`: none exists.
        var streamProperties: StreamProperties?
        /// A stream creation that failed, to be tried again (back-off 50, 100,
        /// 200 ms; a fourth failure reconnects).
        var retry: (due: ContinuousClock.Instant, attempt: Int)?
        /// Since when nothing plays, while running (idle corking).
        var idleSince: ContinuousClock.Instant?
        /// Terminate is deactivating: the states passed on the way are not reported.
        var terminating = false
        /// A deferred pause changed the state already; the cork is still owed.
        var corkOwed = false
        /// Our stream has been created once (a later failure is a recovery, not a failed start).
        var everCreated = false
        /// While a batch's immediate part runs: the state changes to announce
        /// after its notifications.
        var heldStates: [EngineState]?
    }

    let shared: ControlLock<Shared>
    /// What the getters read: a snapshot taken after every policy change.
    let published: ControlLock<SessionSnapshot>
    /// Whether the stream is corked because nothing played for
    /// ``PlatformInitSettings/idleCorkTimeout`` (SessionController+Idle).
    let idleCorked = Atomic(false)
    /// A voice was queued on the idle-corked stream: the session thread's
    /// next pass uncorks it (a burst of voices sets it once).
    let wakeQueued = Atomic(false)

    let mixer: Mixer
    let backend: any AudioBackend
    let clock: EngineClock
    let dispatcher: EventDispatcher
    let log: any SoundLogger
    /// Frames one quantum lasts (the default fade).
    let quantumFrames: Int
    let idleCorkTimeout: Duration?
    /// Whether something waits for the mixer clock to advance (a delayed
    /// content action), so the stream must not idle-cork.
    let needsMixerClock: @Sendable () -> Bool

    let wake = DispatchSemaphore(value: 0)
    /// The session thread's own state: nothing else touches it.
    var execution = Execution()
    private var thread: pthread_t?

    init(
        policy: AudioSessionPolicy, granted: GrantedStream, mixer: Mixer, backend: any AudioBackend,
        clock: EngineClock, dispatcher: EventDispatcher, quantumFrames: Int, idleCorkTimeout: Duration?,
        needsMixerClock: @escaping @Sendable () -> Bool, log: any SoundLogger
    ) {
        self.needsMixerClock = needsMixerClock
        shared = ControlLock(Shared(policy: policy, granted: granted))
        published = ControlLock(SessionSnapshot(policy: policy, granted: granted, state: .paused(.notConnected)))
        self.mixer = mixer
        self.backend = backend
        self.clock = clock
        self.dispatcher = dispatcher
        self.quantumFrames = quantumFrames
        self.idleCorkTimeout = idleCorkTimeout
        self.log = log
    }

    // MARK: - Any thread

    /// Starts the session thread on a connected server and performs the
    /// first decisions (create the stream, route it, take the audio, start):
    /// returns once they are done, so `initialize` returns a playing engine.
    ///
    /// - Throws: the error that kept our stream from being created.
    func start(on server: ServerDescription) throws(SoundEngineError) {
        // A game thread wakes it (a voice on an idle-corked stream): the
        // uncork's pre-fill must not run in the game's time slice.
        thread = EngineThread.start("SoundEngine-ses", batch: true) { self.run() }
        decide(.system(.connected(server.snapshot)), gone: true)
        drain()
        if let failure = shared.withLock({ $0.startFailure }) { throw failure }
    }

    /// A game's session request or lifecycle call: decided now (a refusal
    /// throws and changes nothing), performed on the session thread.
    func request(_ input: SessionInput, pauseFade: Int? = nil) throws(SoundEngineError) {
        try shared.withLock { s throws(SoundEngineError) in
            guard !s.closed else { throw .notInitialized }
            let outputs = try s.policy.handle(input)
            enqueue(.outputs(outputs, pauseFade: pauseFade), &s)
        }
        wake.signal()
    }

    /// What the backend reports, from its threads: facts go to the policy at
    /// once (so requests and facts are decided in one order), the rest is logged.
    func backendEvent(_ event: BackendEvent) {
        switch event {
        case .system(let fact):
            if case .connectionLost = fact { post(.log(.error, "the sound server went away; reconnecting")) }
            decide(.system(fact), gone: fact == .connectionLost)
        case .reconnected(let server):
            post(.log(.info, "reconnected to \(server.serverName) \(server.serverVersion)"))
            decide(.system(.connected(server.snapshot)), gone: true)
        case .streamFailed(let why):
            post(.log(.error, "\(why); creating it again"))
            decide(.system(.ownStreamLost), gone: true)
        case .underflow:
            post(.log(.debug, "server underflow"))
        case .deviceSuspended(let suspended):
            post(.log(.debug, "device \(suspended ? "suspended" : "resumed")"))
        case .warning(let message):
            post(.log(.warning, message))
        }
    }

    /// Mutes (`true`) or unmutes the buses flagged "mute for background
    /// music" for the game (Wwise `MuteBackgroundMusic`): a mixer command, at once.
    func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) {
        try shared.withLock { s throws(SoundEngineError) in
            guard !s.closed else { throw .notInitialized }
            guard s.gameMutedBackgroundMusic != mute else { return }
            s.gameMutedBackgroundMusic = mute
            try applyBackgroundMusicMute(s)
            dispatcher.post(.backgroundMusicMuted(mute))
        }
    }

    /// Waits until every job queued so far has been performed.
    func drain() {
        guard !isSessionThread else { return }
        let done = DispatchSemaphore(value: 0)
        post(.drained(done))
        done.wait()
    }

    /// Deactivates the session (other apps get back what we took), fades out
    /// and ends the session thread; joins it. Refuses every request from now on.
    func shutdown() {
        let started = shared.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.closed = true
            s.jobs.append(.terminate)
            return true
        }
        guard started, let thread else { return }
        wake.signal()
        pthread_join(thread, nil)
    }

    /// Whether the caller is the session thread.
    private var isSessionThread: Bool {
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Feeds the policy a fact and queues what it decided. `gone`: our streams
    /// no longer exist, whatever the policy decides.
    private func decide(_ input: SessionInput, gone: Bool = false) {
        shared.withLock { s in
            if gone { s.jobs.append(.streamsGone) }
            // Facts are never refused.
            let outputs = (try? s.policy.handle(input)) ?? []
            enqueue(.outputs(outputs, pauseFade: nil), &s)
        }
        wake.signal()
    }

    /// Queues a job that needs no decision.
    func post(_ job: Job) {
        shared.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    /// Appends `job` and publishes what the policy now says. `shared` held.
    private func enqueue(_ job: Job, _ s: inout Shared) {
        s.jobs.append(job)
        publish(s)
    }

    /// The getters' snapshot, from the policy and the last grant. `shared` held.
    private func publish(_ s: Shared) {
        let snapshot = SessionSnapshot(
            policy: s.policy, granted: s.granted, state: s.executionFailure ?? s.policy.engineState)
        published.withLock { $0 = snapshot }
    }

    // MARK: - The session thread

    private func run() {
        while true {
            let timeout: DispatchTime = .now() + .milliseconds(execution.retry == nil ? 50 : 10)
            _ = wake.wait(timeout: timeout)
            let jobs = shared.withLock { s in
                defer { s.jobs.removeAll(keepingCapacity: true) }
                return s.jobs
            }
            for job in jobs {
                if case .terminate = job {
                    terminate()
                    return
                }
                perform(job)
            }
            if wakeQueued.exchange(false, ordering: .acquiringAndReleasing) {  // a later voiceQueued wakes anew
                leaveIdle()
            }
            retryStreamIfDue()
            checkIdle()
        }
    }

    private func perform(_ job: Job) {
        switch job {
        case .outputs(let outputs, let pauseFade):
            execute(outputs, pauseFade: pauseFade)
        case .streamsGone:
            execution.streamProperties = nil
            execution.retry = nil
        case .log(let level, let message):
            log.log(level, message)
        case .drained(let done):
            done.signal()
        case .terminate:
            break  // handled by run
        }
    }

    /// Performs one batch of the policy's outputs: what does not wait for a
    /// fade first (a pause only starts its fade and changes the state), then
    /// the game is told, then the waiting part finishes, in order.
    private func execute(_ outputs: [SessionOutput], pauseFade: Int?) {
        var told: [SessionEvent] = []
        var deferred: [SessionAction] = []
        // The game hears of the batch's facts before the engine's state
        // changes they cause (a lost server, then paused).
        execution.heldStates = []
        for output in outputs {
            switch output {
            case .notification(let event):
                told.append(event)
            case .action(let action):
                if !deferred.isEmpty {
                    deferred.append(action)  // keeps its place behind the one that waits
                } else if waits(action, pauseFade: pauseFade) {
                    begin(action, pauseFade: pauseFade)
                    deferred.append(action)
                } else {
                    perform(action, pauseFade: pauseFade)
                }
            }
        }
        for event in told { dispatcher.post(event) }
        for state in execution.heldStates ?? [] { dispatcher.post(.engineState(state)) }
        execution.heldStates = nil
        for action in deferred { perform(action, pauseFade: pauseFade) }
    }

    /// Whether performing `action` now would wait: for a fade to be heard,
    /// or for the server to create a stream (which a hung server may not
    /// answer for seconds: the game hears of a lost stream first).
    private func waits(_ action: SessionAction, pauseFade: Int?) -> Bool {
        if case .setStreamProperties(let properties) = action {
            return execution.streamProperties == nil || properties != execution.streamProperties
        }
        guard execution.state == .running, !idleCorked.load(ordering: .acquiring) else { return false }
        switch action {
        case .pauseEngine(let reason): return (pauseFade ?? quantumFrames) > 0 && reason != .mediaServicesLost
        case .selectOutput(let id): return id != nil
        default: return false
        }
    }

    /// The immediate part of a deferred action: the fade starts (if the
    /// engine plays); a pause also changes the state now (the cork follows
    /// once the fade was heard).
    private func begin(_ action: SessionAction, pauseFade: Int?) {
        guard execution.state == .running, !idleCorked.load(ordering: .acquiring) else { return }
        var fade = quantumFrames
        if case .pauseEngine = action { fade = pauseFade ?? quantumFrames }
        mixer.setMasterGain(0, rampFrames: fade)
        if case .pauseEngine(let reason) = action {
            execution.corkOwed = true
            setState(.paused(reason))
        }
    }

    private func perform(_ action: SessionAction, pauseFade: Int?) {
        switch action {
        case .pauseEngine(let reason):
            pause(reason, fade: pauseFade ?? quantumFrames)
        case .resumeEngine:
            resume()
        case .fadeBackgroundMusicBuses(let muted):
            do {
                try shared.withLock { s throws(SoundEngineError) in
                    s.sessionMutedBackgroundMusic = muted
                    try applyBackgroundMusicMute(s)
                }
            } catch {
                log.log(.error, "background-music fade: \(error)")
            }
        case .setStreamProperties(let properties):
            createStreams(properties)
        case .selectOutput(let id?) where execution.state == .running && !idleCorked.load(ordering: .acquiring):
            // A move of a playing stream: fade out, move once the fade was
            // heard, fade in on the new device. (An idle-corked one just moves.)
            fadeOut()
            perform(server: .selectOutput(id))
            mixer.setMasterGain(1, rampFrames: quantumFrames)
        default:
            guard let serverAction = action.serverAction else { return }
            perform(server: serverAction)
        }
    }

    private func perform(server action: ServerAction) {
        do {
            try backend.perform(action)
        } catch {
            let connected = shared.withLock { $0.policy.isConnected }
            log.log(connected ? .error : .debug, "\(action): \(error)")
        }
    }

    /// Corks the stream (after a fade) and starts the engine clock: advancing
    /// for interruptions, a lost server or stream and `renderAnyway`, holding
    /// otherwise.
    private func pause(_ reason: PauseReason, fade: Int) {
        leaveIdle()
        if execution.state == .running || execution.corkOwed {
            execution.corkOwed = false
            // A lost server or stream renders nothing, so a fade would never
            // be rendered: waiting for it would only hold the session thread.
            if fade > 0 && reason != .mediaServicesLost {
                fadeOut(frames: fade)
            } else {
                mixer.setMasterGain(0, rampFrames: 0)
            }
            if execution.streamProperties != nil {
                do { try backend.setPaused(true) } catch { log.log(.debug, "cork: \(error)") }
            }
        }
        clock.start(Self.advancesVoices(reason) ? .advance : .hold)
        setState(.paused(reason))
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
    private func resume() {
        clock.stop()
        mixer.setMasterGain(1, rampFrames: quantumFrames)
        do {
            try backend.setPaused(false)
            setState(.running)
            shared.withLock { s in
                s.executionFailure = nil
                publish(s)
            }
        } catch {
            log.log(.error, "could not resume the stream: \(error)")
            mixer.setMasterGain(0, rampFrames: 0)
            clock.start(.advance)
            setState(.paused(.notConnected))
            shared.withLock { s in
                s.executionFailure = .paused(.notConnected)
                publish(s)
            }
        }
    }

    /// Creates our streams with `properties` (the policy's first action, or
    /// after they were lost), or re-creates them with new ones, fading around
    /// the swap when running. A failure is tried again with back-off, then by
    /// reconnecting (``retryStreamIfDue()``).
    private func createStreams(_ properties: StreamProperties) {
        let replacing = execution.streamProperties != nil
        guard !replacing || properties != execution.streamProperties else { return }
        leaveIdle()
        let running = execution.state == .running && replacing
        if running {
            fadeOut()
            clock.start(.advance)  // the old stream goes: keep time while there is none
        }
        // The old stream's cork requests are void; the new one starts clean.
        // Said before the new stream exists: a cork request for it (made
        // during a call) must count, not be voided after it arrived.
        decide(.system(.ownStreamReplaced))
        do {
            try backend.perform(.setStreamProperties(properties))
        } catch {
            log.log(.error, "could not create our stream as \(properties): \(error)")
            streamCreationFailed(error)
            return
        }
        execution.streamProperties = properties
        execution.retry = nil
        execution.everCreated = true
        streamCreated()
        if running && execution.state == .running {
            clock.stop()
            mixer.setMasterGain(1, rampFrames: quantumFrames)
            do { try backend.setPaused(false) } catch { log.log(.error, "could not resume the new stream: \(error)") }
        }
    }

    /// A stream exists: publish its grant, make the mixer render the format
    /// the server granted (the stream is still corked), and after a loss
    /// tell the policy it is back (media services reset, for the game).
    private func streamCreated() {
        guard let grant = backend.grantedStream else { return }
        if grant.format != mixer.outputFormat {
            do { try mixer.setOutputFormat(grant.format) } catch { log.log(.error, "output format \(grant.format): \(error)") }
        }
        let restored = shared.withLock { s -> Bool in
            s.granted = grant
            s.startFailure = nil
            publish(s)
            return s.policy.isOutputLost
        }
        if restored { decide(.system(.ownStreamRestored)) }
    }

    /// Our stream could not be created: tried again 50, 100 and 200 ms
    /// later; after that the connection itself is made again (the backend
    /// reports it lost, then reconnected, and the policy re-creates everything).
    private func streamCreationFailed(_ error: SoundEngineError) {
        let attempt = (execution.retry?.attempt ?? 0) + 1
        if !execution.everCreated { shared.withLock { s in s.startFailure = s.startFailure ?? error } }
        guard attempt <= 3 else {
            execution.retry = nil
            log.log(.error, "our stream could not be created \(attempt) times: reconnecting to the server")
            backend.reconnect()
            return
        }
        execution.retry = (ContinuousClock.now + .milliseconds(25 << attempt), attempt)
    }

    /// Tries a failed stream creation again when it is due, with the
    /// properties the session wants now.
    private func retryStreamIfDue() {
        guard let retry = execution.retry, ContinuousClock.now >= retry.due else { return }
        let (wanted, connected) = shared.withLock { ($0.policy.configurationInEffect.streamProperties, $0.policy.isConnected) }
        guard connected else {
            execution.retry = nil
            return
        }
        execution.streamProperties = nil
        createStreams(wanted)
        // After a loss the policy resumes when told the stream is back
        // (streamCreated); after a failed first creation its resume was
        // tried already and failed: try it again now.
        let (lost, planned) = shared.withLock { ($0.policy.isOutputLost, $0.policy.engineState) }
        if execution.streamProperties != nil, !lost, planned == .running, execution.state != .running { resume() }
    }

    private func setState(_ state: EngineState) {
        guard execution.state != state else { return }
        execution.state = state
        guard !execution.terminating else { return }
        if execution.heldStates != nil {
            execution.heldStates?.append(state)
        } else {
            dispatcher.post(.engineState(state))
        }
    }

    /// Ramps the master gain to 0 over `frames` (one quantum by default),
    /// waits (at most 250 ms more than the fade) until the render thread has
    /// rendered it, then until the server has played it (at most 500 ms
    /// more): a cork, move or disconnect after this cuts silence, not the
    /// waveform (docs/decisions/0006).
    private func fadeOut(frames: Int? = nil) {
        let frames = frames ?? quantumFrames
        mixer.setMasterGain(0, rampFrames: frames)
        let deadline = ContinuousClock.now + .milliseconds(250)
            + .microseconds(Int64(frames) * 1_000_000 / Int64(mixer.configuration.sampleRate))
        while mixer.currentMasterGain != 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        // The mixer may still hold up to a quantum of the fade, unwritten; and
        // pipewire-pulse's playback clock runs a few milliseconds ahead of
        // what a null sink's monitor hears (measured: corks 4-7 ms early), so
        // one more quantum of margin.
        backend.waitUntilPlayed(extraFrames: quantumFrames * 2, timeout: .milliseconds(500))
    }

    /// The game's and the session's background-music mutes together. `shared` held.
    private func applyBackgroundMusicMute(_ s: Shared) throws(SoundEngineError) {
        let muted = s.gameMutedBackgroundMusic || s.sessionMutedBackgroundMusic
        guard mixer.isBackgroundMusicMuted != muted else { return }
        try mixer.setBackgroundMusicMuted(muted, fadeFrames: quantumFrames)
    }

    /// The last job: gives back what the session took from other apps
    /// (deactivation), and fades out.
    private func terminate() {
        execution.terminating = true
        leaveIdle()
        let outputs = shared.withLock { s -> [SessionOutput] in
            guard s.policy.isActive, s.policy.isConnected else { return [] }
            let options = s.policy.configuration.setActiveOptions
            return (try? s.policy.handle(.request(.setActive(false, options: options)))) ?? []
        }
        execute(outputs, pauseFade: nil)
        if execution.state == .running { fadeOut() }
    }
}
