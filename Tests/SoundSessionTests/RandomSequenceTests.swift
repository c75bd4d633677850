import SoundServerSupport
import SoundCore
import SoundSession
import Testing

/// Long random sequences of server events, app events and calls, with
/// invariants checked after every step: interruptions paired and never
/// nested; only streams the session muted or ducked are ever given back; the
/// route always exists and fits the category and options; actions and
/// notifications agree with the policy's state. Seeded, so a failure replays.
@Suite struct RandomSequenceTests {
    static let seeds: [UInt64] = [1, 42, 2024, 0xDEAD_BEEF]
    static let steps = 1_500

    @Test(arguments: seeds)
    func invariantsHoldOverLongRandomSequences(seed: UInt64) throws {
        var run = try RandomRun(seed: seed)
        for step in 0..<Self.steps {
            try run.step(step)
        }
        #expect(run.counts.began > 0 && run.counts.routeChanges > 0 && run.counts.mutes > 0 && run.counts.ducks > 0
            && run.counts.refused > 0 && run.counts.resets > 0, "the sequence exercised the policy: \(run.counts)")
    }

    @Test func theSameSeedGivesTheSameOutputs() throws {
        var first = try RandomRun(seed: 7)
        var second = try RandomRun(seed: 7)
        for step in 0..<300 {
            try first.step(step)
            try second.step(step)
        }
        #expect(first.transcript == second.transcript)
        #expect(first.policy == second.policy)
    }
}

/// One random run: the policy, a simulated server, and what the checks track.
struct RandomRun {
    struct Counts: CustomStringConvertible {
        var began = 0, micMuted = 0, routeChanges = 0, mutes = 0, ducks = 0, refused = 0, resets = 0
        var description: String {
            "began \(began) (mic muted \(micMuted)), routeChanges \(routeChanges), mutes \(mutes), ducks \(ducks), refused \(refused), resets \(resets)"
        }
    }

    var rng: SplitMix64
    var policy: AudioSessionPolicy
    var server = SimulatedServer()
    var transcript: [SessionOutput] = []
    var counts = Counts()
    var interrupted = false
    var route = RouteDescription.empty
    var seed: UInt64
    /// The step and input being checked, for failure messages.
    var current: (step: Int, input: SessionInput) = (-1, .system(.connectionLost))

    /// Where a failure happened; built only when an expectation fails.
    var context: String { "seed \(seed) step \(current.step): \(current.input)" }

    init(seed: UInt64) throws {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        policy = try AudioSessionPolicy()
        for endpoint in Endpoints.all where Bool.random(using: &rng) { server.endpoints[endpoint.id] = endpoint }
        for _ in 0..<4 {
            let stream = server.newStream(using: &rng)
            server.streams[stream.id] = stream
        }
        server.connected = true
        try deliver(.system(.connected(server.snapshot)), step: -1)
    }

    // MARK: Random inputs

    mutating func step(_ step: Int) throws {
        let input = randomInput()
        try deliver(input, step: step)
    }

    private mutating func randomInput() -> SessionInput {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<14: return .system(endpointChange())
        case 14..<17: return .system(.defaultOutputChanged(randomEndpoint(.output)))
        case 17..<19: return .system(.defaultInputChanged(randomEndpoint(.input)))
        case 19..<21: return .system(userMove())
        case 21..<45: return .system(streamChange())
        case 45..<50: return .system(Bool.random(using: &rng) ? .corkRequested : .uncorkRequested)
        case 50..<52: return .system(serverChange())
        case 52..<60: return .lifecycle(randomLifecycle())
        case 97..<100: return .system(inputMute())
        default: return .request(randomRequest())
        }
    }

    private mutating func randomEndpoint(_ direction: EndpointDirection) -> EndpointID {
        Endpoints.all.filter { $0.direction == direction }.randomElement(using: &rng)!.id
    }

    private mutating func endpointChange() -> SystemEvent {
        let absent = Endpoints.all.filter { server.endpoints[$0.id] == nil }
        let present = Array(server.endpoints.values).sorted { $0.id < $1.id }
        let appeared = absent.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }.shuffled(using: &rng)
        let disappeared = present.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }.map(\.id)
        return .endpointsChanged(appeared: appeared, disappeared: disappeared)
    }

    /// The mic-mute key: the input in use or another present one, muted or unmuted.
    private mutating func inputMute() -> SystemEvent {
        let inputs = server.endpoints.values.filter { $0.direction == .input }.map(\.id).sorted()
        let inUse = policy.currentRoute.inputs.first?.endpoint
        guard let input = Bool.random(using: &rng) ? inUse ?? inputs.first : inputs.randomElement(using: &rng) else {
            return .uncorkRequested
        }
        return .inputMuteChanged(input, muted: .random(using: &rng))
    }

    private mutating func userMove() -> SystemEvent {
        guard let target = server.endpoints.values.sorted(by: { $0.id < $1.id }).randomElement(using: &rng) else {
            return .uncorkRequested
        }
        return .streamMovedByUser(target.id)
    }

    private mutating func streamChange() -> SystemEvent {
        let existing = server.streams.values.sorted { $0.id < $1.id }
        guard !existing.isEmpty, Int.random(in: 0..<5, using: &rng) != 0 else {
            return .otherStreamChanged(server.newStream(using: &rng))
        }
        var stream = existing.randomElement(using: &rng)!
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .otherStreamRemoved(stream.id)
        case 1, 2: stream.isRunning.toggle()  // the user plays or pauses it
        case 3: stream.isMuted.toggle()  // the user mutes or unmutes it
        default: stream.role = [.music, .phone, .video, nil].randomElement(using: &rng)!
        }
        return .otherStreamChanged(stream)
    }

    private mutating func serverChange() -> SystemEvent {
        if server.connected { return .connectionLost }
        // The restarted server: the same devices, other clients not back yet or new.
        server.streams = [:]
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let stream = server.newStream(using: &rng)
            server.streams[stream.id] = stream
        }
        return .connected(server.snapshot)
    }

    private mutating func randomLifecycle() -> LifecycleEvent {
        [.appEnteredBackground, .appEnteredForeground, .gameSuspended(renderAnyway: .random(using: &rng)), .gameWokeUp]
            .randomElement(using: &rng)!
    }

    private mutating func randomRequest() -> SessionRequest {
        let category = Category.allCases.randomElement(using: &rng)!
        // Mostly options the category accepts, sometimes any bits at all.
        let pool = Int.random(in: 0..<4, using: &rng) == 0 ? CategoryOptions(rawValue: 0x1FF) : category.settableOptions
        let options = CategoryOptions(rawValue: pool.rawValue & UInt.random(in: 0...0x1FF, using: &rng))
        let mode = Bool.random(using: &rng) ? Mode.default : Mode.allCases.randomElement(using: &rng)!
        switch Int.random(in: 0..<11, using: &rng) {
        case 0..<3: return .setCategory(category, mode: mode, options: options)
        case 3: return .setMode(mode)
        case 4: return .setConfiguration(SessionConfiguration(category: category, categoryOptions: options, mode: mode))
        case 5, 6: return .setActive(.random(using: &rng), options: .random(using: &rng) ? .notifyOthersOnDeactivation : [])
        case 7: return .overrideOutputAudioPort(.random(using: &rng) ? .speaker : .none)
        case 8: return .pinOutput(Bool.random(using: &rng) ? nil : randomEndpoint(.output))
        default: return .setPreferredInput(Bool.random(using: &rng) ? nil : randomEndpoint(.input))
        }
    }

    // MARK: Delivering and checking

    /// Records an issue when `condition` is false. Cheaper than `#expect` for
    /// the tens of thousands of checks a run makes; the message says what.
    private func verify(
        _ condition: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if !condition { Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation) }
    }

    /// Hands one input to the policy, performs the outputs on the simulated
    /// server (which reports our mutes back, as the engine's subscription
    /// would) and checks every invariant.
    private mutating func deliver(_ input: SessionInput, step: Int) throws {
        current = (step, input)
        updateWorld(before: input)
        let before = policy
        let outputs: [SessionOutput]
        do {
            outputs = try policy.handle(input)
        } catch {
            guard case .request = input else {
                Issue.record("\(context): a fact was refused: \(error)")
                return
            }
            counts.refused += 1
            verify(policy == before, "\(context): a refused call changed the policy")
            return
        }
        transcript += outputs
        // Deactivation and a lost server end an interruption without an ended (iOS sends none).
        if !policy.isActive || !policy.isConnected { interrupted = false }
        var reports: [SystemEvent] = []
        let categoryChanged = before.configurationInEffect.category != policy.configurationInEffect.category
        check(outputs, after: input, categoryChanged: categoryChanged, reports: &reports)
        // The engine reports what our actions did before anything else happens.
        for report in reports {
            try deliver(.system(report), step: step)
        }
        checkState()
    }

    /// Keeps the simulated server in step with the facts we report.
    private mutating func updateWorld(before input: SessionInput) {
        guard case .system(let event) = input else { return }
        switch event {
        case .connected:
            server.connected = true
            server.unplayed = []
        case .connectionLost:
            server.connected = false
            server.mutedByPolicy = []
            server.duckedByPolicy = []
            server.userMove = nil
            server.userMoveInput = nil
            server.selectedOutput = nil
        case .endpointsChanged(let appeared, let disappeared):
            for id in disappeared { server.endpoints[id] = nil }
            for endpoint in appeared where server.endpoints[endpoint.id] == nil {
                server.endpoints[endpoint.id] = endpoint
                // The next device in wins over the user's move, if the options allow it.
                guard server.connected, Self.fits(endpoint, policy.configurationInEffect) else { continue }
                if endpoint.direction == .output { server.userMove = nil } else { server.userMoveInput = nil }
            }
            if let move = server.userMove, server.endpoints[move] == nil { server.userMove = nil }
            if let move = server.userMoveInput, server.endpoints[move] == nil { server.userMoveInput = nil }
        case .streamMovedByUser(let id):
            guard server.connected else { break }
            if id.direction == .output {
                server.userMove = id
                server.selectedOutput = id
            } else {
                server.userMoveInput = id
            }
        case .otherStreamChanged(let stream):
            let previous = server.streams[stream.id]
            // The server's restore database (module-stream-restore,
            // WirePlumber) puts the mute we hold on a stream of this role on a
            // stream first reported with the role: that mute is the policy's.
            // (WirePlumber: a moment after the first report, before it plays.)
            if previous == nil && !stream.isRunning { server.unplayed.insert(stream.id) }
            let newlyArrived = previous?.role == nil || (server.unplayed.contains(stream.id) && previous?.isMuted == false)
            let echoesOurMute = newlyArrived && stream.isMedia && stream.isMuted
                && server.mutedByPolicy.contains { server.streams[$0]?.role == stream.role && server.streams[$0]?.isMuted == true }
            if echoesOurMute { server.mutedByPolicy.insert(stream.id) }
            if stream.isRunning { server.unplayed.remove(stream.id) }
            server.streams[stream.id] = stream
            // Someone else touched a mute we owned: it is theirs now.
            if previous?.isMuted == true && !stream.isMuted { server.mutedByPolicy.remove(stream.id) }
        case .otherStreamRemoved(let id):
            server.streams[id] = nil
            server.unplayed.remove(id)
            server.mutedByPolicy.remove(id)
            server.duckedByPolicy.remove(id)
        default: break
        }
    }

    private mutating func check(
        _ outputs: [SessionOutput], after input: SessionInput, categoryChanged: Bool, reports: inout [SystemEvent]
    ) {
        for output in outputs {
            switch output {
            case .notification(.interruption(let interruption)):
                if interruption.type == .began {
                    verify(!interrupted, "\(context): began while interrupted")
                    counts.began += 1
                    if interruption.source == .microphoneMuted { counts.micMuted += 1 }
                } else {
                    verify(interrupted, "\(context): ended without began")
                }
                interrupted = interruption.type == .began
            case .notification(.routeChange(let change)):
                verify(change.previousRoute == route, "\(context): previous route is not the last route")
                verify(change.previousRoute != change.currentRoute || categoryChanged, "\(context): no change")
                route = change.currentRoute
                counts.routeChanges += 1
            case .notification(.mediaServicesWereReset):
                counts.resets += 1
            case .action(.muteOtherStreams(let ids)):
                counts.mutes += 1
                for id in ids {
                    let stream = server.streams[id]
                    verify(stream?.isMedia == true && stream?.isAudible == true, "\(context): muted \(id) \(String(describing: stream))")
                    verify(stream?.client != SimulatedServer.ownClient, "\(context): muted our own stream")
                    server.mutedByPolicy.insert(id)
                    server.streams[id]?.isMuted = true
                    if let muted = server.streams[id] { reports.append(.otherStreamChanged(muted)) }
                }
            case .action(.unmuteOtherStreams(let ids)):
                for id in ids {
                    verify(server.mutedByPolicy.contains(id), "\(context): unmuted \(id), which it did not mute")
                    server.mutedByPolicy.remove(id)
                    server.streams[id]?.isMuted = false
                    if let unmuted = server.streams[id] { reports.append(.otherStreamChanged(unmuted)) }
                }
            case .action(.duckOtherStreams(let ids, _)):
                counts.ducks += 1
                for id in ids {
                    verify(server.streams[id]?.isMedia == true, "\(context): ducked \(id)")
                    verify(!server.duckedByPolicy.contains(id), "\(context): ducked \(id) twice")
                    server.duckedByPolicy.insert(id)
                }
            case .action(.unduckOtherStreams(let ids)):
                for id in ids {
                    verify(server.duckedByPolicy.contains(id), "\(context): unducked \(id), which it did not duck")
                    server.duckedByPolicy.remove(id)
                }
            case .action(.selectOutput(let id)):
                if let id { verify(server.endpoints[id] != nil, "\(context): selected absent \(id)") }
                server.selectedOutput = id
            default:
                break
            }
        }
        if case .request(.setPreferredInput) = input { server.userMoveInput = nil }
        if case .request(.pinOutput) = input { server.userMove = nil }
        if case .system(.connected) = input { route = policy.currentRoute }
        if case .system(.connectionLost) = input { route = policy.currentRoute }
    }

    private func checkState() {
        verify(policy.isInterrupted == interrupted, "\(context): interrupted is \(policy.isInterrupted), notified \(interrupted)")
        if interrupted { verify(policy.isConnected && policy.isActive, "\(context): interrupted while inactive") }
        verify(policy.currentRoute == route, "\(context): route \(policy.currentRoute), last notified \(route)")
        verify(policy.mutedStreams == server.mutedByPolicy, "\(context): mutes \(policy.mutedStreams.sorted()) but the server has \(server.mutedByPolicy.sorted())")
        verify(policy.duckedStreams == server.duckedByPolicy, "\(context): ducks \(policy.duckedStreams.sorted()) but the server has \(server.duckedByPolicy.sorted())")
        // The route and the mixing rules follow the configuration in effect
        // (a change made while inactive waits for the next activation).
        let configuration = policy.configurationInEffect
        if policy.isActive { verify(policy.configuration == configuration, "\(context): active with a pending configuration") }
        if policy.portOverride == .speaker { verify(policy.configuration.category == .playAndRecord, "\(context)") }
        if case .running = policy.engineState {
            verify(policy.isConnected && policy.isActive && !policy.isInterrupted && policy.gameSuspension == nil,
                "\(context): running while connected \(policy.isConnected), active \(policy.isActive), interrupted \(policy.isInterrupted), suspended \(String(describing: policy.gameSuspension))")
            verify(policy.isInForeground || !configuration.stopsInBackground, "\(context): running in the background")
        }
        guard policy.isConnected else {
            verify(policy.currentRoute == .empty, "\(context)")
            return
        }
        let outputs = policy.currentRoute.outputs
        let inputs = policy.currentRoute.inputs
        verify(server.selectedOutput == outputs.first?.endpoint, "\(context): the backend plays on \(String(describing: server.selectedOutput)), the route says \(outputs)")
        for port in outputs + inputs {
            let endpoint = server.endpoints[port.endpoint]
            verify(endpoint != nil, "\(context): route uses absent \(port)")
            guard let endpoint, port.endpoint != server.userMove, port.endpoint != server.userMoveInput else { continue }
            verify(Self.fits(endpoint, configuration), "\(context): \(port) does not fit \(configuration)")
        }
        // A pinned output that is present and fits is where we play, unless
        // the speaker override or the user's move of our stream says otherwise.
        if let pin = policy.pinnedOutput, let pinned = server.endpoints[pin], Self.fits(pinned, configuration),
            server.userMove == nil, policy.portOverride == .none, configuration.category.hasOutput
        {
            verify(outputs.first?.endpoint == pin, "\(context): pinned to \(pin) but plays on \(outputs)")
        }
        let fittingOutputs = server.endpoints.values.filter { $0.direction == .output && Self.fits($0, configuration) }
        if !configuration.category.hasOutput {
            verify(outputs.isEmpty, "\(context): \(configuration.category) has an output")
        } else {
            verify(outputs.isEmpty == (fittingOutputs.isEmpty && server.userMove == nil), "\(context): output \(outputs) with fitting \(fittingOutputs.map(\.id)) under \(configuration)")
        }
        let fittingInputs = server.endpoints.values.filter { $0.direction == .input && Self.fits($0, configuration) }
        if configuration.category.hasInput {
            verify(inputs.isEmpty == (fittingInputs.isEmpty && server.userMoveInput == nil), "\(context): input \(inputs) with fitting \(fittingInputs.map(\.id)) under \(configuration)")
        } else {
            verify(inputs.isEmpty, "\(context): \(configuration.category) has an input")
        }
        let othersPlaying = server.streams.values.contains {
            $0.client != SimulatedServer.ownClient && ($0.isMedia || $0.isCall) && $0.isAudible
        }
        verify(policy.isOtherAudioPlaying == othersPlaying, "\(context): other audio playing is \(policy.isOtherAudioPlaying)")
        verify(policy.isBackgroundMusicMuted == (othersPlaying && configuration.isMixable), "\(context): background music muted is \(policy.isBackgroundMusicMuted)")
    }

    /// Whether an endpoint may carry the session's audio: the iOS rules
    /// restated independently of the implementation.
    static func fits(_ endpoint: AudioEndpoint, _ configuration: SessionConfiguration) -> Bool {
        let category = configuration.category
        let options = configuration.categoryOptions
        let bluetoothHFP =
            options.contains(.allowBluetooth) || configuration.mode == .voiceChat || configuration.mode == .videoChat
        let mediaCategory = [.ambient, .soloAmbient, .playback].contains(category)
        switch endpoint.direction {
        case .output:
            guard [.ambient, .soloAmbient, .playback, .playAndRecord, .multiRoute].contains(category) else { return false }
            if category == .multiRoute {
                return [.usbAudio, .lineOut, .headphones, .hdmi, .builtInSpeaker].contains(endpoint.portType)
            }
            switch endpoint.portType {
            case .builtInReceiver: return category == .playAndRecord
            case .bluetoothHFP: return category == .playAndRecord && bluetoothHFP
            case .bluetoothA2DP: return mediaCategory || options.contains(.allowBluetoothA2DP)
            case .airPlay: return mediaCategory || options.contains(.allowAirPlay)
            case .builtInMic, .headsetMic: return false
            default: return true
            }
        case .input:
            guard [.record, .playAndRecord, .multiRoute].contains(category) else { return false }
            if category == .multiRoute { return [.usbAudio, .headsetMic, .builtInMic].contains(endpoint.portType) }
            if endpoint.portType == .bluetoothHFP { return bluetoothHFP }
            return [.builtInMic, .headsetMic, .usbAudio].contains(endpoint.portType)
        }
    }
}
