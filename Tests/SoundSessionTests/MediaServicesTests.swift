import SoundCore
import SoundSession
import Testing

/// Media services lost and reset: the server dies, comes back, and the whole
/// configuration is applied again before the game is told.
@Suite struct MediaServicesTests {
    @Test func lostTellsTheGameAndPauses() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: [Streams.music(1)])
        let outputs = policy.handle(.connectionLost)
        #expect(outputs == [.notification(.mediaServicesWereLost), .action(.pauseEngine(.mediaServicesLost))])
        #expect(policy.currentRoute == .empty)
        #expect(policy.mutedStreams.isEmpty, "the server and its streams are gone: nothing to give back")
        #expect(policy.handle(.connectionLost).isEmpty, "lost twice is lost once")
    }

    /// iOS sends no ended when media services are lost: a game that
    /// reactivates on every ended would call in during the outage (and get
    /// 'msrv'). The game learns of the outage from mediaServicesWereLost and
    /// rebuilds on mediaServicesWereReset.
    @Test(arguments: [InterruptionSource.serverCorkRequest, .phoneCall, .otherMedia])
    func anInterruptionIsSimplyOverWhenTheServerIsLost(source: InterruptionSource) throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        switch source {
        case .serverCorkRequest: _ = policy.handle(.corkRequested)
        case .phoneCall: _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        default: _ = policy.handle(.otherStreamChanged(Streams.music(1)))
        }
        #expect(policy.interruptionSource == source)
        var outputs = policy.handle(.connectionLost)
        #expect(outputs == [.notification(.mediaServicesWereLost), .action(.pauseEngine(.mediaServicesLost))])
        #expect(!policy.isInterrupted)
        outputs = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone)))
        #expect(outputs.interruptions.isEmpty, "nothing interrupts the rebuilt session: \(outputs)")
        #expect(outputs.resumesEngine)
        #expect(outputs.last == .notification(.mediaServicesWereReset))
    }

    @Test func requestsDuringTheOutageAreRefused() throws {
        var policy = try AudioSessionPolicy.connected()
        _ = policy.handle(.connectionLost)
        let before = policy
        for request in [SessionRequest.setActive(false), .setCategory(.ambient), .overrideOutputAudioPort(.none)] {
            #expect {
                _ = try policy.handle(request)
            } throws: { error in
                (error as? SoundEngineError)?.sessionErrorCode == 1_836_282_486  // 'msrv'
            }
        }
        #expect(policy == before)
        // Facts about a server that is gone are ignored.
        #expect(policy.handle(.otherStreamChanged(Streams.call(1))).isEmpty)
        #expect(policy.handle(.endpointAppeared(Endpoints.headphones)).isEmpty)
    }

    @Test func resetReappliesTheWholeConfiguration() throws {
        let configuration = SessionConfiguration.with(.playAndRecord, [.allowBluetooth], mode: .voiceChat)
        var policy = try AudioSessionPolicy.connected(configuration, streams: [Streams.music(1)])
        _ = policy.handle(.connectionLost)
        let snapshot = SystemSnapshot(
            ownClient: 2, endpoints: Endpoints.phone + [Endpoints.bluetoothHFP, Endpoints.bluetoothMic],
            streams: [Streams.music(11), Streams.music(12, running: false)])
        let outputs = policy.handle(.connected(snapshot))
        #expect(outputs == [
            .action(.setStreamProperties(StreamProperties(mediaRole: .phone, echoCancellation: true))),
            .action(.selectOutput(Endpoints.bluetoothHFP.id)),
            .action(.selectInput(Endpoints.bluetoothMic.id)),
            .action(.openCaptureStream),
            .action(.muteOtherStreams([11])),
            .action(.resumeEngine),
            .notification(.mediaServicesWereReset),
        ])
        #expect(policy.outputType == .bluetoothHFP)
        #expect(policy.configuration == configuration)
        #expect(policy.isActive)
    }

    @Test func resetKeepsDuckingAndTheGamesChoices() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback, .duckOthers))
        _ = policy.handle(.gameSuspended(renderAnyway: true))
        _ = policy.handle(.connectionLost)
        let outputs = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone, streams: [Streams.video(5)])))
        #expect(outputs.actions.contains(.duckOtherStreams([5], factor: 0.2)))
        #expect(outputs.actions.contains(.pauseEngine(.suspendedByGame(renderAnyway: true))))
        #expect(outputs.last == .notification(.mediaServicesWereReset))
        #expect(outputs.routeChanges.isEmpty, "after a reset the game re-reads the route")
    }

    @Test func theSpeakerOverrideDoesNotSurviveAReset() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        _ = policy.handle(.connectionLost)
        _ = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone)))
        #expect(policy.portOverride == .none)
        #expect(policy.outputType == .builtInReceiver)
    }

    /// Our stream killed by the server (`pacmd kill-sink-input`), failed, or
    /// stalled while the connection stays: media services lost for the game,
    /// the streams re-created, other apps' streams and the session untouched;
    /// reset once the new stream exists.
    @Test func aLostOutputIsRecreatedAndReportedAsLostThenReset() throws {
        let configuration = SessionConfiguration.with(.playAndRecord, mode: .voiceChat)
        var policy = try AudioSessionPolicy.connected(configuration, streams: [Streams.music(1)])
        #expect(policy.mutedStreams == [1])
        var outputs = policy.handle(.ownStreamLost)
        #expect(outputs == [
            .notification(.mediaServicesWereLost),
            .action(.pauseEngine(.mediaServicesLost)),
            .action(.setStreamProperties(StreamProperties(mediaRole: .phone, echoCancellation: true))),
            .action(.openCaptureStream),
        ])
        #expect(policy.mutedStreams == [1], "the music app is still muted by us: nothing is forgotten")
        #expect(policy.engineState == .paused(.mediaServicesLost))
        #expect(policy.handle(.ownStreamLost).isEmpty, "lost twice is lost once")
        // Requests are taken meanwhile: the connection is there.
        _ = try policy.handle(.overrideOutputAudioPort(.none))
        outputs = policy.handle(.ownStreamRestored)
        #expect(outputs == [.action(.resumeEngine), .notification(.mediaServicesWereReset)])
        #expect(policy.handle(.ownStreamRestored).isEmpty)
    }

    /// A cork request was addressed to the stream that died; an interruption
    /// by a call goes on across the outage.
    @Test func aLostOutputKeepsACallsInterruptionAndVoidsItsCork() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        _ = policy.handle(.corkRequested)
        var outputs = policy.handle(.ownStreamLost)
        #expect(outputs.interruptions.isEmpty)
        #expect(policy.isInterrupted)
        outputs = policy.handle(.ownStreamRestored)
        #expect(
            outputs == [.action(.pauseEngine(.interrupted)), .notification(.mediaServicesWereReset)],
            "still interrupted by the call, the pause's reason says so: \(outputs)")
        #expect(policy.engineState == .paused(.interrupted))
        outputs = policy.handle(.otherStreamRemoved(1))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
    }

    /// Escalation: the output could not be re-created and the backend
    /// reconnects. The game hears one lost and one reset.
    @Test func aLostOutputThatEscalatesToAReconnectIsOneLostOneReset() throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient))
        #expect(policy.handle(.ownStreamLost).notifications == [.mediaServicesWereLost])
        #expect(policy.handle(.connectionLost).notifications.isEmpty)
        let outputs = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone)))
        #expect(outputs.notifications.filter { $0 == .mediaServicesWereReset }.count == 1)
        #expect(outputs.resumesEngine)
        #expect(!policy.isOutputLost)
    }

    @Test func theFirstConnectionIsNotAReset() throws {
        var policy = try AudioSessionPolicy()
        let outputs = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone)))
        #expect(outputs == [
            .action(.pauseEngine(.sessionInactive)),
            .action(.setStreamProperties(StreamProperties(mediaRole: .game, echoCancellation: false))),
            .action(.selectOutput(Endpoints.speaker.id)),
        ])
    }

    /// A call that goes on through a server restart interrupts the session
    /// again, whichever client reconnects first: the session never plays over
    /// the call in between, and ends in the same state.
    @Test(arguments: [true, false])
    func aResetDuringACallThatContinuesInterruptsAgain(callReconnectsFirst: Bool) throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient))
        #expect(policy.handle(.otherStreamChanged(Streams.call(2))).interruptions == [.began(.phoneCall)])
        _ = policy.handle(.connectionLost)
        var outputs: [SessionOutput] = []
        if callReconnectsFirst {
            // The call's stream is already in the snapshot.
            outputs = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone, streams: [Streams.call(3)])))
            #expect(!outputs.resumesEngine, "the game must not play over the call")
        } else {
            outputs = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone)))
            outputs += policy.handle(.otherStreamChanged(Streams.call(3)))
        }
        #expect(outputs.interruptions == [.began(.phoneCall)])
        #expect(outputs.notifications.contains(.mediaServicesWereReset))
        #expect(policy.isInterrupted)
        #expect(policy.engineState == .paused(.interrupted))
        // The call ends: the session resumes.
        outputs = policy.handle(.otherStreamRemoved(3))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
    }
}
