import SoundCore
import SoundSession
import Testing

/// What activation does to other apps' music and video (silence, duck or
/// nothing), and that deactivation gives back exactly that.
@Suite struct MixingTests {
    static let others = [
        Streams.music(1), Streams.video(2), Streams.music(3, muted: true), Streams.music(4, running: false),
        Streams.game(5), Streams.call(6, running: false),
    ]

    @Test(arguments: [Category.soloAmbient, .playback, .record, .playAndRecord, .multiRoute])
    func aNonMixableSessionSilencesAudibleMusicAndVideo(category: Category) throws {
        var policy = try AudioSessionPolicy.connected(.with(category), streams: Self.others, active: false)
        var outputs = try policy.handle(.setActive(true))
        #expect(outputs.muted == [1, 2], "not the user-muted 3, the paused 4, the game 5 or the call 6")
        #expect(policy.mutedStreams == [1, 2])
        #expect(outputs.interruptions.isEmpty)
        outputs = try policy.handle(.setActive(false, options: .notifyOthersOnDeactivation))
        #expect(outputs.unmuted == [1, 2])
        #expect(policy.mutedStreams.isEmpty)
    }

    @Test(arguments: [SetActiveOptions(), .notifyOthersOnDeactivation])
    func deactivationRestoresWithOrWithoutNotifyOthers(options: SetActiveOptions) throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: Self.others)
        let outputs = try policy.handle(.setActive(false, options: options))
        #expect(outputs.unmuted == [1, 2], "other apps are only muted on Linux; leaving them muted would hurt")
    }

    @Test func neverUnmuteAStreamTheUserMuted() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: Self.others)
        // Our mutes are confirmed by the server.
        _ = policy.handle(.otherStreamChanged(Streams.music(1, muted: true)))
        _ = policy.handle(.otherStreamChanged(Streams.video(2, muted: true)))
        // The user unmutes 1 (the mute is no longer ours), then mutes it again.
        var outputs = policy.handle(.otherStreamChanged(Streams.music(1, muted: false)))
        #expect(outputs.interruptions == [.began(.otherMedia)], "the user wants to hear it: it wins")
        outputs = policy.handle(.otherStreamChanged(Streams.music(1, muted: true)))
        #expect(policy.mutedStreams == [2])
        outputs = try policy.handle(.setActive(false))
        #expect(outputs.unmuted == [2])
    }

    /// module-stream-restore and WirePlumber remember our mute on role music
    /// and put it on the next music stream: that mute is ours, the stream
    /// started later and wins: its sound goes back (the streams we muted
    /// stay ours, as with any winning media, until the session lets go).
    @Test func aRestoreDatabasesEchoOfOurMuteIsOursAndTheStreamWins() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: [Streams.music(1)])
        _ = policy.handle(.otherStreamChanged(Streams.music(1, muted: true)))  // confirmed
        let outputs = policy.handle(.otherStreamChanged(Streams.music(7, muted: true)))
        #expect(outputs.interruptions == [.began(.otherMedia)])
        #expect(outputs.unmuted == [7])
        #expect(policy.mutedStreams == [1])
        #expect(try policy.handle(.setActive(false)).unmuted == [1])
    }

    /// WirePlumber puts the remembered mute on a moment after the stream's
    /// first report, before it plays: still ours; it wins when it plays.
    @Test func anEchoOnAStreamThatHasNotPlayedYetIsOursToo() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: [Streams.music(1)])
        _ = policy.handle(.otherStreamChanged(Streams.music(1, muted: true)))
        #expect(policy.handle(.otherStreamChanged(Streams.music(7, running: false))).isEmpty)
        #expect(policy.handle(.otherStreamChanged(Streams.music(7, running: false, muted: true))).isEmpty)
        #expect(policy.mutedStreams == [1, 7])
        let outputs = policy.handle(.otherStreamChanged(Streams.music(7, muted: true)))
        #expect(outputs.interruptions == [.began(.otherMedia)])
        #expect(outputs.unmuted == [7])
    }

    @Test func aMuteOnAStreamThatWasThereOrHasPlayedIsTheUsers() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.soloAmbient), streams: [Streams.music(1), Streams.music(2, running: false)])
        _ = policy.handle(.otherStreamChanged(Streams.music(1, muted: true)))
        #expect(policy.handle(.otherStreamChanged(Streams.music(2, running: false, muted: true))).isEmpty)
        _ = policy.handle(.otherStreamChanged(Streams.music(7, running: false)))
        _ = policy.handle(.otherStreamChanged(Streams.music(7)))
        _ = policy.handle(.otherStreamChanged(Streams.music(7, running: false)))
        #expect(policy.handle(.otherStreamChanged(Streams.music(7, running: false, muted: true))).isEmpty)
        #expect(policy.mutedStreams == [1])
    }

    @Test func aMutedNewStreamIsTheUsersWhileOurMuteIsUnconfirmedOrOfAnotherRole() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: [Streams.music(1)])
        // Our mute of 1 is not confirmed yet: the database cannot hold it.
        var outputs = policy.handle(.otherStreamChanged(Streams.music(7, muted: true)))
        #expect(outputs.isEmpty)
        _ = policy.handle(.otherStreamChanged(Streams.music(1, muted: true)))
        // A muted video stream: nothing of ours is on role video.
        outputs = policy.handle(.otherStreamChanged(Streams.video(8, muted: true)))
        #expect(outputs.isEmpty)
        #expect(policy.mutedStreams == [1])
    }

    @Test func aStaleReportDoesNotTakeOurMuteAway() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: [Streams.music(1)])
        // A report older than our mute still shows the stream unmuted.
        let outputs = policy.handle(.otherStreamChanged(Streams.music(1, muted: false)))
        #expect(outputs.isEmpty)
        #expect(policy.mutedStreams == [1])
    }

    @Test func aStreamThatGoesAwayIsForgottenNotRestored() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: Self.others)
        _ = policy.handle(.otherStreamRemoved(1))
        let outputs = try policy.handle(.setActive(false))
        #expect(outputs.unmuted == [2])
    }

    @Test func switchingToAMixableCategoryGivesTheAudioBack() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), streams: Self.others)
        var outputs = try policy.handle(.setCategory(.playback, options: .mixWithOthers))
        #expect(outputs.unmuted == [1, 2])
        outputs = try policy.handle(.setCategory(.soloAmbient))
        #expect(outputs.muted == [1, 2])
    }

    @Test(arguments: [
        SessionConfiguration.with(.playback, .duckOthers), .with(.playAndRecord, .duckOthers), .with(.ambient, .duckOthers),
        .with(.multiRoute, .duckOthers),
    ])
    func duckOthersLowersMusicAndVideoWhileActive(configuration: SessionConfiguration) throws {
        var policy = try AudioSessionPolicy.connected(configuration, streams: Self.others, active: false)
        var outputs = try policy.handle(.setActive(true))
        #expect(outputs.actions.contains(.duckOtherStreams([1, 2, 3, 4], factor: 0.2)))
        #expect(outputs.muted.isEmpty)
        outputs = policy.handle(.otherStreamChanged(Streams.video(8)))
        #expect(outputs.ducked == [8], "a stream that starts later is ducked too")
        #expect(outputs.interruptions.isEmpty)
        outputs = policy.handle(.otherStreamRemoved(2))
        #expect(outputs.unducked.isEmpty, "a stream that went away is forgotten")
        outputs = try policy.handle(.setActive(false))
        #expect(outputs.unducked == [1, 3, 4, 8])
        #expect(policy.duckedStreams.isEmpty)
    }

    @Test func duckingIsLiftedDuringAnInterruption() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback, .duckOthers), streams: [Streams.music(1)])
        #expect(policy.duckedStreams == [1])
        var outputs = policy.handle(.corkRequested)
        #expect(outputs.unducked == [1])
        outputs = policy.handle(.uncorkRequested)
        #expect(outputs.ducked == [1])
    }

    @Test(arguments: [SessionConfiguration.with(.ambient), .with(.playback, .mixWithOthers), .with(.audioProcessing)])
    func aMixableSessionLeavesOthersAlone(configuration: SessionConfiguration) throws {
        var policy = try AudioSessionPolicy.connected(configuration, streams: Self.others, active: false)
        let outputs = try policy.handle(.setActive(true))
        #expect(outputs.muted.isEmpty)
        #expect(outputs.ducked.isEmpty)
    }

    @Test func otherAudioPlayingEdgesAndTheBackgroundMusicMute() throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient))
        var outputs = policy.handle(.otherStreamChanged(Streams.music(1)))
        #expect(outputs == [
            .action(.fadeBackgroundMusicBuses(muted: true)),
            .notification(.otherAudioPlaying(true)),
            .notification(.silenceSecondaryAudioHint(.begin)),
            .notification(.backgroundMusicMuted(true)),
        ], "the buses fade before the BGM callback, as Wwise does")
        #expect(policy.secondaryAudioShouldBeSilencedHint)
        outputs = policy.handle(.otherStreamChanged(Streams.video(2)))
        #expect(outputs.isEmpty, "only edges")
        _ = policy.handle(.otherStreamRemoved(1))
        outputs = policy.handle(.otherStreamChanged(Streams.video(2, running: false)))
        #expect(outputs.notifications == [
            .otherAudioPlaying(false), .silenceSecondaryAudioHint(.end), .backgroundMusicMuted(false),
        ])
        #expect(outputs.actions == [.fadeBackgroundMusicBuses(muted: false)])
    }

    @Test func theBackgroundMusicMuteAppliesOnlyWhileMixable() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback, .mixWithOthers), streams: [Streams.music(1)])
        #expect(policy.isBackgroundMusicMuted)
        // Non-mixable: our session silences the music instead.
        var outputs = try policy.handle(.setCategory(.playback))
        #expect(outputs.muted == [1])
        #expect(outputs.actions.contains(.fadeBackgroundMusicBuses(muted: false)))
        #expect(!policy.isBackgroundMusicMuted)
        // Back to mixable: the music comes back and our soundtrack goes.
        outputs = try policy.handle(.setCategory(.ambient))
        #expect(outputs.unmuted == [1])
        #expect(policy.isBackgroundMusicMuted)
    }

    @Test func theHintIsOnlyForAForegroundActiveSession() throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient), active: false)
        var outputs = policy.handle(.otherStreamChanged(Streams.music(1)))
        #expect(outputs.notifications.contains(.otherAudioPlaying(true)))
        #expect(!outputs.notifications.contains(.silenceSecondaryAudioHint(.begin)))
        _ = try policy.handle(.setActive(true))
        _ = policy.handle(.appEnteredBackground)
        outputs = policy.handle(.otherStreamRemoved(1))
        #expect(outputs.notifications == [.otherAudioPlaying(false), .backgroundMusicMuted(false)])
    }

    @Test func rolelessStreamsAreNotOtherAppsAudio() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        let outputs = policy.handle(.otherStreamChanged(OtherStream(id: 3, client: 80, role: nil, isRunning: true)))
        #expect(outputs.isEmpty, "without media.role nothing says it is music")
    }
}
