import SoundSession
import Testing

/// The audio-session sharing scenarios of seed 002 ("Working with Audio
/// Session using the Wwise SDK"), as they play out on Linux.
@Suite struct WwiseScenarioTests {
    /// Scenario 1: a call arrives while the game plays or records; the user
    /// never leaves the game. Began pauses the engine after the game is told;
    /// the end of the call resumes it after the game is told.
    @Test(arguments: [SessionConfiguration.with(.soloAmbient), .with(.playAndRecord, mode: .gameChat)])
    func phoneCallWithoutAppSwitch(configuration: SessionConfiguration) throws {
        var policy = try AudioSessionPolicy.connected(configuration)
        #expect(policy.engineState == .running)

        var outputs = policy.handle(.otherStreamChanged(Streams.call(40)))
        #expect(outputs.interruptions == [.began(.phoneCall)])
        let began = try #require(outputs.index { $0.notification == .interruption(.began(.phoneCall)) })
        let paused = try #require(outputs.index { $0.action == .pauseEngine(.interrupted) })
        #expect(began < paused)
        #expect(outputs.routeChanges.isEmpty, "on Linux the call app does not change our route")

        outputs = policy.handle(.otherStreamRemoved(40))
        let ended = try #require(outputs.index { $0.notification == .interruption(.ended(shouldResume: true)) })
        let resumed = try #require(outputs.index { $0.action == .resumeEngine })
        #expect(ended < resumed)
        #expect(policy.engineState == .running)
    }

    /// Scenario 2: a call arrives, the user switches to the call, comes back to
    /// the game during the call (the game resumes and mixes with the call;
    /// mixable categories mute the background-music buses), switches to the
    /// call again (the engine pauses), and the call ends.
    @Test(arguments: [
        (SessionConfiguration.with(.ambient), true), (.with(.playAndRecord, .mixWithOthers), true),
        (.with(.soloAmbient), false), (.with(.playback), false),
    ])
    func phoneCallWithAppSwitchAndBack(configuration: SessionConfiguration, mixable: Bool) throws {
        var policy = try AudioSessionPolicy.connected(configuration)

        var outputs = policy.handle(.otherStreamChanged(Streams.call(40)))
        #expect(outputs.interruptions == [.began(.phoneCall)])
        #expect(outputs.pausesEngine(.interrupted))

        outputs = policy.handle(.appEnteredBackground)
        #expect(outputs.interruptions.isEmpty)
        #expect(policy.engineState == .paused(.interrupted))

        // Back to the game during the call: it resumes and mixes with the call.
        outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
        #expect(outputs.muted.isEmpty, "the call is never silenced")
        #expect(policy.isBackgroundMusicMuted == mixable, "mixable categories mute the background-music buses")

        // Back to the call: the engine pauses again.
        outputs = policy.handle(.appEnteredBackground)
        #expect(outputs.interruptions == [.began(.phoneCall)])
        #expect(outputs.pausesEngine(.interrupted))

        // The call ends; the game comes back.
        outputs = policy.handle(.otherStreamRemoved(40))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(!policy.isBackgroundMusicMuted)
        _ = policy.handle(.appEnteredForeground)
        #expect(policy.engineState == .running)
    }

    /// Scenario 3 with a mixable category: the remote's play starts the user's music in the
    /// background; the game mixes with it and mutes its background-music buses;
    /// stop unmutes them.
    func earbudRemoteWithAMixableCategory(configuration: SessionConfiguration) throws {
        var policy = try AudioSessionPolicy.connected(configuration, streams: [Streams.music(30, running: false)])
        var outputs = policy.handle(.otherStreamChanged(Streams.music(30)))
        #expect(outputs.interruptions.isEmpty)
        #expect(outputs.actions == [.fadeBackgroundMusicBuses(muted: true)])
        #expect(outputs.notifications.contains(.backgroundMusicMuted(true)))
        #expect(policy.engineState == .running, "the music and the game play together")

        outputs = policy.handle(.otherStreamChanged(Streams.music(30, running: false)))
        #expect(outputs.actions == [.fadeBackgroundMusicBuses(muted: false)])
        #expect(outputs.notifications.contains(.backgroundMusicMuted(false)))
    }

    /// Scenario 3 with a non-mixable category: the remote's play
    /// interrupts the game (the engine pauses); stop ends the interruption and
    /// the engine resumes by itself.
    func earbudRemoteWithANonMixableCategory(configuration: SessionConfiguration) throws {
        var policy = try AudioSessionPolicy.connected(configuration, streams: [Streams.music(30, running: false)])
        var outputs = policy.handle(.otherStreamChanged(Streams.music(30)))
        #expect(outputs.interruptions == [.began(.otherMedia)])
        #expect(outputs.pausesEngine(.interrupted))
        #expect(!policy.isBackgroundMusicMuted)

        outputs = policy.handle(.otherStreamChanged(Streams.music(30, running: false)))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
    }

    @Test func earbudRemoteInAmbient() throws { try earbudRemoteWithAMixableCategory(configuration: .with(.ambient)) }
    @Test func earbudRemoteInSoloAmbient() throws {
        try earbudRemoteWithANonMixableCategory(configuration: .with(.soloAmbient))
    }
    @Test func earbudRemoteInPlayAndRecord() throws {
        try earbudRemoteWithANonMixableCategory(configuration: .with(.playAndRecord))
    }
    @Test func earbudRemoteInPlayAndRecordWithMixWithOthers() throws {
        try earbudRemoteWithAMixableCategory(configuration: .with(.playAndRecord, .mixWithOthers))
    }
}
