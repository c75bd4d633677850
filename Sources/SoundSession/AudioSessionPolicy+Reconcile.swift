extension AudioSessionPolicy {
    /// After an input was applied: works out what changed and returns the
    /// notifications and actions, in the order they must take effect.
    ///
    /// 1. interruption began/ended (before the engine pauses or resumes, the
    ///    Wwise 2022+ order), media services lost;
    /// 2. actions: pause, capture close, stream properties, output and input
    ///    selection, capture open, restoring then silencing or ducking other
    ///    apps, the background-music fade, resume;
    /// 3. the route change, other-audio, secondary-audio hint and
    ///    background-music notifications; media services reset last.
    mutating func reconcile(_ pass: inout HandlingPass) -> [SessionOutput] {
        var outputs: [SessionOutput] = []
        // Media that won interrupts only a non-mixable active session; the
        // background does not end it: the other app's music still plays, and
        // coming back to the foreground takes the audio back.
        if !claimsExclusiveAudio {
            winningMedia = []
            winningMediaPausedForCall = []
        }
        reconcileInterruption(&pass, into: &outputs)
        if pass.lost { outputs.append(.notification(.mediaServicesWereLost)) }

        let route = plannedRoute()
        let engine = plannedEngineState()
        if engine != applied.engine, case .paused(let reason) = engine {
            outputs.append(.action(.pauseEngine(reason)))
        }
        if isConnected { reconcileServer(route, &pass, into: &outputs) }
        // The background-music buses follow other apps' audio only while we mix
        // with it; while the server is away nothing is known, so nothing changes.
        let backgroundMusicMuted =
            isConnected ? configurationInEffect.isMixable && otherAudioIsPlaying : isBackgroundMusicMuted
        if backgroundMusicMuted != isBackgroundMusicMuted {
            outputs.append(.action(.fadeBackgroundMusicBuses(muted: backgroundMusicMuted)))
        }
        // Playing against a server cork: module-role-cork muted our stream
        // when it asked it to cork; that mute goes before the engine plays.
        if isConnected && corkRequests > 0 && overridesServerCork && (pass.corkRequested || pass.takeOver) {
            outputs.append(.action(.reclaimOwnStream))
        }
        // The call is over: the cork's mute of our stream goes before the
        // engine plays, even when the server forgot it (our stream moved).
        if isConnected && pass.callEnded { outputs.append(.action(.releaseCorkMute)) }
        if engine != applied.engine, engine == .running { outputs.append(.action(.resumeEngine)) }
        applied.engine = engine

        reconcileRoute(route, pass, into: &outputs)
        reconcileOtherAudio(backgroundMusicMuted: backgroundMusicMuted, into: &outputs)
        if pass.reset { outputs.append(.notification(.mediaServicesWereReset)) }
        return outputs
    }

    /// What the engine should be doing now.
    func plannedEngineState() -> EngineState {
        switch connection {
        case .notYetConnected: return .paused(.notConnected)
        case .lost: return .paused(.mediaServicesLost)
        case .connected: break
        }
        if isOutputLost { return .paused(.mediaServicesLost) }
        if !isActive { return .paused(.sessionInactive) }
        if isInterrupted { return .paused(.interrupted) }
        if isStoppedInBackground { return .paused(.appInBackground) }
        if let renderAnyway = gameSuspension { return .paused(.suspendedByGame(renderAnyway: renderAnyway)) }
        return .running
    }

    /// One began per interruption however many sources overlap; ended (with
    /// shouldResume) when the last source goes. A beginning interruption ends
    /// the speaker override. When the game deactivates the session or the
    /// server is lost, the interruption is simply over: iOS sends no ended
    /// then, and a game that reactivates on every ended would otherwise call
    /// in during the outage.
    private mutating func reconcileInterruption(_ pass: inout HandlingPass, into outputs: inout [SessionOutput]) {
        let source = currentInterruptionSource
        switch (interruptionSource, source) {
        case (nil, let source?):
            interruptionSource = source
            outputs.append(.notification(.interruption(.began(source, reason: source.reason))))
            if portOverride != .none {
                portOverride = .none
                pass.overridden = true
            }
        case (_?, nil):
            interruptionSource = nil
            if !pass.interruptionVoided {
                outputs.append(.notification(.interruption(.ended(shouldResume: true))))
            }
        default:
            break
        }
    }

    /// The server-side actions: streams, route, other apps' streams.
    private mutating func reconcileServer(
        _ route: PlannedRoute, _ pass: inout HandlingPass, into outputs: inout [SessionOutput]
    ) {
        let captureOpen = isActive && route.input != nil
        if applied.captureOpen && !captureOpen { outputs.append(.action(.closeCaptureStream)) }
        let properties = configurationInEffect.streamProperties
        if applied.streamProperties != properties { outputs.append(.action(.setStreamProperties(properties))) }
        if applied.output != route.output?.id { outputs.append(.action(.selectOutput(route.output?.id))) }
        if applied.input != route.input?.id { outputs.append(.action(.selectInput(route.input?.id))) }
        if !applied.captureOpen && captureOpen { outputs.append(.action(.openCaptureStream)) }
        applied.streamProperties = properties
        applied.output = route.output?.id
        applied.input = route.input?.id
        applied.captureOpen = captureOpen

        reconcileSilencing(&pass, into: &outputs)
        reconcileDucking(into: &outputs)
    }

    /// Silences other apps' audio when the session starts holding it (or takes
    /// over again), and gives back exactly what it silenced when it stops.
    private mutating func reconcileSilencing(_ pass: inout HandlingPass, into outputs: inout [SessionOutput]) {
        let silencing = holdsOthersSilent
        var unmute = pass.unmute
        if applied.holdsOthersSilent && !silencing {
            unmute.formUnion(mutedStreams)
            mutedStreams = []
            unconfirmedMutes = []
        }
        if !unmute.isEmpty { outputs.append(.action(.unmuteOtherStreams(unmute.sorted()))) }
        if silencing && (!applied.holdsOthersSilent || pass.takeOver) {
            let mute = streamsToSilence
            if !mute.isEmpty {
                outputs.append(.action(.muteOtherStreams(mute)))
                mutedStreams.formUnion(mute)
                unconfirmedMutes.formUnion(mute)
            }
        }
        applied.holdsOthersSilent = silencing
    }

    /// Ducks the streams that should be ducked and restores those that no
    /// longer should be; streams that went away are simply forgotten.
    private mutating func reconcileDucking(into outputs: inout [SessionOutput]) {
        let wanted = streamsToDuck
        let restore = applied.ducked.subtracting(wanted).filter { others[$0] != nil }
        let duck = wanted.subtracting(applied.ducked)
        if !restore.isEmpty { outputs.append(.action(.unduckOtherStreams(restore.sorted()))) }
        if !duck.isEmpty { outputs.append(.action(.duckOtherStreams(duck.sorted(), factor: duckingFactor))) }
        applied.ducked = wanted
    }

    /// Notifies a route change with the previous route and one reason.
    private mutating func reconcileRoute(
        _ route: PlannedRoute, _ pass: HandlingPass, into outputs: inout [SessionOutput]
    ) {
        let description = route.description
        guard description != currentRoute || pass.categoryChanged else { return }
        let previous = currentRoute
        currentRoute = description
        guard isConnected && !pass.routeNotificationSuppressed else { return }
        let reason = routeChangeReason(route, previous: previous, pass)
        outputs.append(
            .notification(.routeChange(RouteChange(reason: reason, previousRoute: previous, currentRoute: description))))
    }

    private func routeChangeReason(
        _ route: PlannedRoute, previous: RouteDescription, _ pass: HandlingPass
    ) -> RouteChangeReason {
        let now = Set(route.description.outputs.map(\.endpoint) + route.description.inputs.map(\.endpoint))
        let before = Set(previous.outputs.map(\.endpoint) + previous.inputs.map(\.endpoint))
        if !isSuitable(route) { return .noSuitableRouteForCategory }
        // A Bluetooth profile switch is the call's session changing the shared
        // route, as seed 002 scenario 1 describes it ("the session category
        // changed"); the headset is still there, so not oldDeviceUnavailable.
        if pass.categoryChanged || pass.configurationChanged || pass.profileSwitched { return .categoryChange }
        if pass.overridden { return .override }
        if !now.isDisjoint(with: pass.appeared) { return .newDeviceAvailable }
        if !before.isDisjoint(with: pass.disappeared) { return .oldDeviceUnavailable }
        if now == before && !now.isDisjoint(with: pass.reconfigured) { return .routeConfigurationChange }
        if !pass.appeared.isEmpty { return .newDeviceAvailable }
        if !pass.disappeared.isEmpty { return .oldDeviceUnavailable }
        return .unknown
    }

    /// Other-audio edges, the secondary-audio hint (foreground and active
    /// only) and the background-music callback (after its fade).
    private mutating func reconcileOtherAudio(backgroundMusicMuted: Bool, into outputs: inout [SessionOutput]) {
        let playing = isConnected ? otherAudioIsPlaying : isOtherAudioPlaying
        if playing != isOtherAudioPlaying {
            isOtherAudioPlaying = playing
            outputs.append(.notification(.otherAudioPlaying(playing)))
            if isInForeground && isActive {
                outputs.append(.notification(.silenceSecondaryAudioHint(playing ? .begin : .end)))
            }
        }
        if backgroundMusicMuted != isBackgroundMusicMuted {
            isBackgroundMusicMuted = backgroundMusicMuted
            outputs.append(.notification(.backgroundMusicMuted(backgroundMusicMuted)))
        }
    }
}
