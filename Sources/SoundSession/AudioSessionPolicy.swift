package import SoundCore

/// The audio-session policy: every AVAudioSession rule SoundEngine reproduces,
/// as a value-type state machine with no clock, thread or I/O.
///
/// The engine feeds it what happens and performs what comes back:
///
/// ```swift
/// var policy = try AudioSessionPolicy(configuration: settings.audioSession)
/// var outputs = policy.handle(.connected(snapshot))            // from the backend
/// outputs += try policy.handle(.request(.setActive(true)))     // Wwise activates at init
/// for output in outputs { … }                                  // notify the game, drive the backend
/// ```
///
/// Inputs are configuration calls (``SessionRequest``: may throw, and then
/// change nothing), server facts (``SystemEvent``) and app facts
/// (``LifecycleEvent``). Outputs are ``SessionEvent``s for the game and
/// ``SessionAction``s for the backend and mixer, in the order they must take
/// effect: an interruption's notification comes before the engine pauses or
/// resumes (Wwise 2022+ order), route actions before the route notification,
/// the background-music fade before its callback, the media-services reset
/// notification last. The rules are in docs/audio-session.md.
package struct AudioSessionPolicy: Hashable, Sendable {
    // MARK: What the game asked for

    /// The configuration the game set last (what iOS's `category`, `mode` and
    /// `categoryOptions` return). A change made while the session is inactive
    /// takes effect at the next activation: see ``configurationInEffect``.
    package internal(set) var configuration: SessionConfiguration
    /// The configuration the route, our streams and the mixing rules follow:
    /// ``configuration`` while active; while inactive, the one in effect at
    /// the last activation (or the initial one).
    package internal(set) var configurationInEffect: SessionConfiguration
    /// Whether the game activated the session.
    package internal(set) var isActive = false
    /// The temporary output override (cleared by any route change or interruption).
    package internal(set) var portOverride: PortOverride = .none {
        didSet { routedOverride = portOverride }
    }
    /// The override the route follows: ``portOverride``, except that a
    /// category change made while inactive clears it only at the next activation.
    var routedOverride: PortOverride = .none
    /// The game's preferred input, kept while the endpoint is absent.
    package internal(set) var preferredInput: EndpointID?
    /// The output the game pinned (``SessionRequest/pinOutput(_:)``), kept
    /// while the endpoint is absent; `nil` follows the routing rules.
    package internal(set) var pinnedOutput: EndpointID?
    /// Whether the app is in the foreground (it starts there).
    package internal(set) var isInForeground = true
    /// `renderAnyway` of the game's suspension, `nil` when the game has not
    /// suspended the engine.
    package internal(set) var gameSuspension: Bool?
    /// The volume factor duckOthers applies to other apps' streams.
    package let duckingFactor: Double

    // MARK: What the server told us

    var connection = Connection.notYetConnected
    /// Our output stream is gone while the connection stays (``SystemEvent/ownStreamLost``):
    /// media services lost, for the game, until ``SystemEvent/ownStreamRestored``.
    package internal(set) var isOutputLost = false
    var ownClient: ClientID?
    var registry = EndpointRegistry()
    /// An output the user chose (default change: honoured when the category
    /// allows it; a move of our stream: honoured always). Cleared when a new
    /// output arrives or it goes away.
    var userOutput: UserChoice?
    /// An input the user chose: a move of our capture stream (honoured
    /// always, before the game's ``preferredInput``) or a default change
    /// (after it, if allowed).
    var userInput: UserChoice?
    var others: [StreamID: OtherStream] = [:]
    /// Pending `request-cork`s from the server.
    var corkRequests = 0
    /// The inputs (sources) the server reports muted.
    package internal(set) var mutedInputs: Set<EndpointID> = []

    // MARK: Interruption bookkeeping

    /// Calls we mix with because the app took the audio back in the foreground.
    var acceptedCalls: Set<StreamID> = []
    /// Other media streams that started while we were non-mixable and won.
    var winningMedia: Set<StreamID> = []
    /// Winning media paused while a call played (module-role-cork asked it
    /// to cork, and players that honour the request pause): it keeps winning
    /// until it plays again, goes away or the game takes the audio back.
    var winningMediaPausedForCall: Set<StreamID> = []
    /// The source that began the current interruption, `nil` when not interrupted.
    package internal(set) var interruptionSource: InterruptionSource?

    // MARK: What we did to other apps

    /// Other streams this session muted and still owns the mute of.
    package internal(set) var mutedStreams: Set<StreamID> = []
    /// Of those, the ones no report has shown muted yet (a report showing them
    /// unmuted is older than our mute, not a user's unmute).
    var unconfirmedMutes: Set<StreamID> = []
    /// Other streams seen since they appeared but never seen playing: a mute
    /// that arrives on one of them may be a restore database's echo of ours.
    var unplayedStreams: Set<StreamID> = []
    /// What the backend and mixer have been told.
    var applied = AppliedEffects()

    // MARK: What the game has been told

    /// The route, as last notified.
    package internal(set) var currentRoute = RouteDescription.empty
    /// Whether other apps' music, video or calls play audibly, as last notified.
    package internal(set) var isOtherAudioPlaying = false
    /// Whether the background-music buses are muted, as last notified.
    package internal(set) var isBackgroundMusicMuted = false

    /// Creates a policy with a validated configuration, inactive, not yet connected.
    ///
    /// - Parameter duckingFactor: the linear volume factor for duckOthers,
    ///   0.2 (−14 dB) by default; must be in 0...1.
    /// - Throws: `invalidParameter` when the configuration or the factor is invalid.
    package init(configuration: SessionConfiguration = SessionConfiguration(), duckingFactor: Double = 0.2)
        throws(SoundEngineError)
    {
        try configuration.validate()
        guard (0...1).contains(duckingFactor) else {
            throw .invalidParameter("duckingFactor \(duckingFactor) is outside 0...1")
        }
        self.configuration = configuration
        self.configurationInEffect = configuration
        self.duckingFactor = duckingFactor
    }

    /// Checks a configuration exactly as iOS's `setCategory`/`setActive` would,
    /// without a policy: for the engine's init-settings validation.
    ///
    /// - Throws: `invalidParameter` (iOS `-50`) naming the field, the value and
    ///   what would be accepted.
    package static func validate(_ configuration: SessionConfiguration) throws(SoundEngineError) {
        try configuration.validate()
    }

    /// Handles one input and returns what to tell the game and what to do, in order.
    ///
    /// - Throws: only for ``SessionInput/request(_:)``, the error iOS would
    ///   return; the policy is then unchanged and nothing is to be done.
    package mutating func handle(_ input: SessionInput) throws(SoundEngineError) -> [SessionOutput] {
        switch input {
        case .request(let request): try handle(request)
        case .system(let event): handle(event)
        case .lifecycle(let event): handle(event)
        }
    }

    /// Handles a server fact; facts are never refused.
    package mutating func handle(_ event: SystemEvent) -> [SessionOutput] {
        var pass = HandlingPass()
        apply(event, &pass)
        return reconcile(&pass)
    }

    /// Handles an app or game fact; facts are never refused.
    package mutating func handle(_ event: LifecycleEvent) -> [SessionOutput] {
        var pass = HandlingPass()
        apply(event, &pass)
        return reconcile(&pass)
    }

    /// Handles a request.
    ///
    /// - Throws: the error iOS would return; the policy is then unchanged.
    package mutating func handle(_ request: SessionRequest) throws(SoundEngineError) -> [SessionOutput] {
        var pass = HandlingPass()
        // Every check of a request comes before its first change, so a refusal leaves the policy as it was.
        try apply(request, &pass)
        return reconcile(&pass)
    }
}

extension AudioSessionPolicy {
    /// The state of the connection to the server.
    enum Connection: Hashable, Sendable {
        case notYetConnected
        case connected
        case lost
    }

    /// An endpoint the user chose, and whether to honour it even when the
    /// category does not allow it (the user moved our stream by hand).
    struct UserChoice: Hashable, Sendable {
        var id: EndpointID
        var forced: Bool
    }

    /// Whether the policy is connected to a server.
    package var isConnected: Bool { connection == .connected }

    /// Whether an interruption is in progress.
    package var isInterrupted: Bool { interruptionSource != nil }

    /// Whether the engine renders, as last told.
    package var engineState: EngineState { applied.engine }

    /// Every endpoint present, sorted by identity.
    package var availableEndpoints: [AudioEndpoint] { registry.all }

    /// The inputs the category and options allow (`availableInputs`), newest first.
    package var availableInputs: [PortDescription] {
        registry.newestFirst(.input, where: configuration.permits).map(\.portDescription)
    }

    /// The outputs the category and options allow, newest first (the
    /// counterpart of ``availableInputs``; iOS has no such list).
    package var availableOutputs: [PortDescription] {
        registry.newestFirst(.output, where: configuration.permits).map(\.portDescription)
    }

    /// Whether the input of the current route is muted: with
    /// ``CategoryOptions/overrideMutedMicrophoneInterruption`` the session
    /// goes on and the microphone delivers silence.
    package var isInputMuted: Bool { currentRoute.inputs.contains { mutedInputs.contains($0.endpoint) } }

    /// Whether any input device is present (`isInputAvailable`).
    package var isInputAvailable: Bool { registry.newest(.input, where: { _ in true }) != nil }

    /// Whether another app's primary audio plays, so the game should silence
    /// its soundtrack (`secondaryAudioShouldBeSilencedHint`). On Linux this is
    /// ``isOtherAudioPlaying``: other apps' mixability is unknown.
    package var secondaryAudioShouldBeSilencedHint: Bool { isOtherAudioPlaying }

    /// The other apps' streams the session has ducked.
    package var duckedStreams: Set<StreamID> { applied.ducked }

    /// Whether the app being in the background stops the session now.
    var isStoppedInBackground: Bool { !isInForeground && configurationInEffect.stopsInBackground }

    /// Whether the session claims the audio for itself: connected, active and
    /// non-mixable (whether or not the background stops it now).
    var claimsExclusiveAudio: Bool { isConnected && isActive && !configurationInEffect.isMixable }

    /// Whether the session silences other apps now: it claims the audio and
    /// is not stopped in the background.
    var holdsOthersSilent: Bool { claimsExclusiveAudio && !isStoppedInBackground }

    /// Whether the session plays against the server's cork requests: the app
    /// took the audio back in the foreground during a call and mixes with it
    /// (seed 002, scenario 2: "whatever the category, while your app is in
    /// the foreground the call's audio mixes with your app's"), and no call
    /// it did not accept plays. module-role-cork corks music and video streams
    /// while a `phone` stream plays; those requests are then not obeyed.
    var overridesServerCork: Bool {
        isInForeground && !acceptedCalls.isEmpty
            && !others.values.contains { $0.isCall && $0.isRunning && !acceptedCalls.contains($0.id) }
    }
}
