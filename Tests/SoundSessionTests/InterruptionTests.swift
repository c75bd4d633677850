import SoundCore
import SoundSession
import Testing

/// Interruptions from the three Linux sources of SPEC section 4, each with one
/// began/ended pair, the Wwise 2022+ order, and the game's own pause respected.
@Suite struct InterruptionTests {
    @Test func serverCorkRequest() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        var outputs = policy.handle(.corkRequested)
        #expect(outputs == [
            .notification(.interruption(.began(.serverCorkRequest))), .action(.pauseEngine(.interrupted)),
        ], "the game hears of it before the engine suspends (Wwise 2022+ order)")
        #expect(policy.isInterrupted)
        outputs = policy.handle(.uncorkRequested)
        #expect(outputs == [
            .notification(.interruption(.ended(shouldResume: true))), .action(.resumeEngine),
        ], "and before it wakes")
    }

    @Test func anotherClientsCall() throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient))
        var outputs = policy.handle(.otherStreamChanged(Streams.call(9, running: false)))
        #expect(outputs.interruptions.isEmpty, "a call stream that does not play yet interrupts nothing")
        outputs = policy.handle(.otherStreamChanged(Streams.call(9)))
        #expect(outputs.interruptions == [.began(.phoneCall)])
        #expect(outputs.pausesEngine(.interrupted))
        outputs = policy.handle(.otherStreamChanged(Streams.call(10)))
        #expect(outputs.interruptions.isEmpty, "a second call does not begin again")
        outputs = policy.handle(.otherStreamRemoved(9))
        #expect(outputs.interruptions.isEmpty, "one call is still going")
        outputs = policy.handle(.otherStreamChanged(Streams.call(10, running: false)))
        #expect(outputs.interruptions == [.ended(shouldResume: true)], "the last one ends it")
        #expect(outputs.resumesEngine)
    }

    @Test func ourOwnCallStreamIsNotAnInterruption() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord, mode: .voiceChat))
        let outputs = policy.handle(.otherStreamChanged(Streams.call(4, client: Streams.ownClient)))
        #expect(outputs.isEmpty)
    }

    @Test(arguments: [Category.soloAmbient, .playback, .playAndRecord, .record])
    func laterMediaWinsOverANonMixableSession(category: Category) throws {
        var policy = try AudioSessionPolicy.connected(.with(category))
        var outputs = policy.handle(.otherStreamChanged(Streams.music(20)))
        #expect(outputs.interruptions == [.began(.otherMedia)])
        #expect(outputs.muted.isEmpty, "the later stream wins; it is not silenced")
        outputs = policy.handle(.otherStreamChanged(Streams.music(20, running: false)))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
    }

    @Test(arguments: [
        SessionConfiguration.with(.ambient), .with(.playback, .mixWithOthers), .with(.playAndRecord, .mixWithOthers),
        .with(.playback, .duckOthers),
    ])
    func laterMediaDoesNotInterruptAMixableSession(configuration: SessionConfiguration) throws {
        var policy = try AudioSessionPolicy.connected(configuration)
        let outputs = policy.handle(.otherStreamChanged(Streams.music(20)))
        #expect(outputs.interruptions.isEmpty)
        #expect(policy.engineState == .running)
    }

    @Test func overlappingSourcesGiveOnePair() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        var interruptions: [Interruption] = []
        interruptions += policy.handle(.otherStreamChanged(Streams.call(1))).interruptions
        interruptions += policy.handle(.corkRequested).interruptions
        interruptions += policy.handle(.otherStreamChanged(Streams.music(2))).interruptions
        interruptions += policy.handle(.otherStreamRemoved(1)).interruptions
        #expect(policy.isInterrupted, "the server still holds the cork")
        interruptions += policy.handle(.uncorkRequested).interruptions
        #expect(policy.isInterrupted, "the music that started later still plays")
        interruptions += policy.handle(.otherStreamRemoved(2)).interruptions
        #expect(interruptions == [.began(.phoneCall), .ended(shouldResume: true)])
    }

    @Test func aGameThatPausedItselfIsNotResumedBehindItsBack() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        // In its interruption callback the game decides to pause.
        var outputs = policy.handle(.gameSuspended(renderAnyway: false))
        #expect(outputs.isEmpty, "already paused for the interruption, which comes first")
        outputs = policy.handle(.otherStreamRemoved(1))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(!outputs.resumesEngine)
        #expect(outputs.pausesEngine(.suspendedByGame(renderAnyway: false)))
        #expect(policy.engineState == .paused(.suspendedByGame(renderAnyway: false)))
        outputs = policy.handle(.gameWokeUp)
        #expect(outputs.actions == [.resumeEngine])
    }

    @Test func renderAnywaySuspension() throws {
        var policy = try AudioSessionPolicy.connected()
        #expect(policy.handle(.gameSuspended(renderAnyway: true)).actions == [
            .pauseEngine(.suspendedByGame(renderAnyway: true)),
        ])
        #expect(policy.handle(.gameSuspended(renderAnyway: false)).actions == [
            .pauseEngine(.suspendedByGame(renderAnyway: false)),
        ])
    }

    /// iOS sends no ended when the app deactivates its own session: the
    /// interruption is simply over.
    @Test(arguments: [SetActiveOptions(), .notifyOthersOnDeactivation])
    func deactivatingDuringAnInterruptionEndsItSilently(options: SetActiveOptions) throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient))
        _ = policy.handle(.corkRequested)
        let outputs = try policy.handle(.setActive(false, options: options))
        #expect(outputs.interruptions.isEmpty, "no ended: \(outputs)")
        #expect(!policy.isInterrupted)
        #expect(policy.interruptionSource == nil)
        #expect(outputs.actions == [.pauseEngine(.sessionInactive)])
        // Re-activating while the server still holds the cork interrupts again.
        let again = try policy.handle(.setActive(true))
        #expect(again.interruptions == [.began(.serverCorkRequest)])
    }

    @Test func activatingInTheForegroundDuringACallMixesWithIt() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: [Streams.call(1)], active: false)
        let outputs = try policy.handle(.setActive(true))
        #expect(outputs.interruptions.isEmpty)
        #expect(outputs.resumesEngine)
        // A second call that rings later does interrupt.
        #expect(policy.handle(.otherStreamChanged(Streams.call(2))).interruptions == [.began(.phoneCall)])
    }

    @Test func activatingInTheBackgroundDuringACallIsInterrupted() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playback, .mixWithOthers), streams: [Streams.call(1)], active: false)
        _ = policy.handle(.appEnteredBackground)
        let outputs = try policy.handle(.setActive(true))
        #expect(outputs.interruptions == [.began(.phoneCall)])
    }

    @Test func nothingInterruptsAnInactiveSession() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), active: false)
        #expect(policy.handle(.otherStreamChanged(Streams.call(1))).interruptions.isEmpty)
        #expect(policy.handle(.otherStreamChanged(Streams.music(2))).interruptions.isEmpty)
        #expect(policy.handle(.corkRequested).interruptions.isEmpty)
    }

    @Test func aMutedStreamThatTheUserStartsAgainWins() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), active: false)
        _ = policy.handle(.otherStreamChanged(Streams.music(5)))
        var outputs = try policy.handle(.setActive(true))
        #expect(outputs.muted == [5])
        _ = policy.handle(.otherStreamChanged(Streams.music(5, muted: true)))  // our mute, confirmed
        outputs = policy.handle(.otherStreamChanged(Streams.music(5, running: false, muted: true)))  // user pauses it
        #expect(outputs.isEmpty)
        outputs = policy.handle(.otherStreamChanged(Streams.music(5, running: true, muted: true)))  // and plays it again
        #expect(outputs.unmuted == [5], "the user wants to hear it: its sound comes back")
        #expect(outputs.interruptions == [.began(.otherMedia)])
        #expect(policy.mutedStreams.isEmpty)
    }

    @Test func deactivatingDuringACallAndReactivatingAfterItSendsNothing() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        #expect(try policy.handle(.setActive(false)).interruptions.isEmpty)
        #expect(policy.handle(.otherStreamRemoved(1)).interruptions.isEmpty, "nothing to end: it is over")
        let outputs = try policy.handle(.setActive(true))
        #expect(outputs.interruptions.isEmpty)
        #expect(outputs.resumesEngine)
    }
    /// Media that won, then a call: module-role-cork mutes the music and asks
    /// it to cork, and a player that honours the request pauses. When the
    /// call ends the phone stream goes first and the music resumes a moment
    /// later (role-cork asks it to uncork): the game stays interrupted through
    /// both, not ended and begun again 1 ms apart (found on desktop
    /// PulseAudio with the headless demo).
    @Test func mediaPausedForACallStillWinsWhenTheCallEnds() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        #expect(policy.handle(.otherStreamChanged(Streams.music(20))).interruptions == [.began(.otherMedia)])
        var seen: [Interruption] = []
        var otherAudio: [Bool] = []
        for event: SystemEvent in [
            .otherStreamChanged(Streams.call(9)), .corkRequested,
            .otherStreamChanged(Streams.music(20, muted: true)),  // role-cork's mute
            .otherStreamChanged(Streams.music(20, running: false, muted: true)),  // the player pauses for the call
            .otherStreamRemoved(9),  // the call is over
            .uncorkRequested, .otherStreamChanged(Streams.music(20, running: false)),  // role-cork unmutes it
            .otherStreamChanged(Streams.music(20)),  // and the player resumes
        ] {
            seen += policy.handle(event).interruptions
            otherAudio.append(policy.isOtherAudioPlaying)
        }
        #expect(seen.isEmpty, "one interruption, still going: \(seen)")
        #expect(otherAudio.allSatisfy { $0 }, "other audio plays throughout, no false between the call and the music: \(otherAudio)")
        #expect(policy.isInterrupted)
        // Paused by the user afterwards, with no call: that ends it.
        #expect(policy.handle(.otherStreamChanged(Streams.music(20, running: false))).interruptions
            == [.ended(shouldResume: true)])
    }

    /// Media paused for a call that never resumes keeps the game
    /// interrupted until it goes away (or the game takes the audio back, as
    /// on iOS, where an app interrupted by another's music hears of an end
    /// only when that app lets go).
    @Test func mediaPausedForACallThatNeverResumesWinsUntilItGoesOrTheGameTakesOver() throws {
        for takeOver in [false, true] {
            var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
            _ = policy.handle(.otherStreamChanged(Streams.music(20)))
            _ = policy.handle(.otherStreamChanged(Streams.call(9)))
            _ = policy.handle(.otherStreamChanged(Streams.music(20, running: false)))
            #expect(policy.handle(.otherStreamRemoved(9)).interruptions.isEmpty)
            #expect(policy.handle(.otherStreamChanged(Streams.music(20, running: false))).interruptions.isEmpty)
            if takeOver {
                _ = try policy.handle(.setActive(false))
                let outputs = try policy.handle(.setActive(true))
                #expect(outputs.resumesEngine, "\(outputs)")
                #expect(!policy.isInterrupted)
                // Its later start wins again, as any media does.
                #expect(policy.handle(.otherStreamChanged(Streams.music(20))).interruptions == [.began(.otherMedia)])
            } else {
                #expect(policy.handle(.otherStreamRemoved(20)).interruptions == [.ended(shouldResume: true)])
            }
        }
    }
}
