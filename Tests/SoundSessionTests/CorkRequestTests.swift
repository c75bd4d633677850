import SoundCore
import SoundSession
import Testing

/// Cork requests are addressed to one playback stream: a stream that is
/// replaced never gets its uncork, and an ended that never came is re-checked
/// when the app comes back to the foreground.
@Suite struct CorkRequestTests {
    /// changeAudioSessionProperties during a call: the engine re-creates its
    /// stream, the server forgets the old one, and the call's end must still
    /// resume the engine.
    @Test func aReplacedStreamDoesNotKeepTheEngineInterrupted() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        _ = policy.handle(.corkRequested)  // module-role-cork corks our music stream
        _ = try policy.handle(.setConfiguration(.with(.playback, mode: .moviePlayback)))
        var outputs = policy.handle(.ownStreamReplaced)
        #expect(outputs.isEmpty, "the call still interrupts: \(outputs)")
        #expect(policy.interruptionSource == .phoneCall)
        outputs = policy.handle(.otherStreamRemoved(1))
        #expect(outputs.interruptions == [.ended(shouldResume: true)], "no uncork will ever come for the old stream")
        #expect(outputs.resumesEngine)
    }

    /// module-role-cork sends request-uncork only to a stream that is corked
    /// when the call ends: a call that ends while our cork is still under way
    /// (the fade being heard) sends none. The call's end voids its corks.
    @Test func theLastCallEndingVoidsItsCorkRequests() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        _ = policy.handle(.corkRequested)
        var outputs = policy.handle(.otherStreamRemoved(1))
        #expect(outputs.interruptions == [.ended(shouldResume: true)], "no uncork will come")
        // A late uncork changes nothing.
        outputs = policy.handle(.uncorkRequested)
        #expect(outputs.isEmpty)
        // A cork with no call (another module, the user) still needs its uncork.
        #expect(policy.handle(.corkRequested).interruptions == [.began(.serverCorkRequest)])
        _ = policy.handle(.otherStreamChanged(Streams.call(2)))
        outputs = policy.handle(.otherStreamChanged(Streams.call(2, running: false)))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
    }

    /// module-role-cork forgets the mute it put on a stream that moves: the
    /// last call's end asks the backend to take back the cork's mute, before
    /// the engine resumes; a call still playing keeps it.
    @Test func theLastCallEndingReleasesTheCorksMuteBeforeResuming() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        _ = policy.handle(.otherStreamChanged(Streams.call(2)))
        _ = policy.handle(.corkRequested)
        var outputs = policy.handle(.otherStreamRemoved(1))
        #expect(!outputs.actions.contains(.releaseCorkMute), "a call still plays")
        outputs = policy.handle(.otherStreamChanged(Streams.call(2, running: false)))
        let release = outputs.firstIndex { $0 == .action(.releaseCorkMute) }
        let resume = outputs.firstIndex { $0 == .action(.resumeEngine) }
        #expect(release != nil && resume != nil && release! < resume!, "\(outputs)")
        #expect(!policy.handle(.otherStreamRemoved(2)).actions.contains(.releaseCorkMute), "no call ended")
    }

    @Test func aReplacedStreamEndsAnInterruptionHeldOnlyByItsCork() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        #expect(policy.handle(.corkRequested).interruptions == [.began(.serverCorkRequest)])
        _ = policy.handle(.corkRequested)
        let outputs = policy.handle(.ownStreamReplaced)
        #expect(outputs == [.notification(.interruption(.ended(shouldResume: true))), .action(.resumeEngine)])
        // The new stream is corked afresh if the cause still holds.
        #expect(policy.handle(.corkRequested).interruptions == [.began(.serverCorkRequest)])
        #expect(policy.handle(.uncorkRequested).interruptions == [.ended(shouldResume: true)])
    }

    /// The engine says ownStreamReplaced before it makes the new stream, so
    /// a cork request for the new one (module-role-cork asks a stream made
    /// during a call at once) arrives after it and counts, also when the new
    /// stream replaces one that was lost: the stream coming back does not
    /// void it. The lost stream's own requests went with it.
    @Test func aCorkRequestForAStreamMadeAgainCounts() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        #expect(policy.handle(.corkRequested).interruptions == [.began(.serverCorkRequest)])
        #expect(policy.handle(.ownStreamLost).interruptions == [.ended(shouldResume: true)], "the lost stream's cork is void")
        _ = policy.handle(.ownStreamReplaced)
        #expect(policy.handle(.corkRequested).interruptions == [.began(.serverCorkRequest)])
        let outputs = policy.handle(.ownStreamRestored)
        #expect(
            outputs == [.action(.pauseEngine(.interrupted)), .notification(.mediaServicesWereReset)],
            "the new stream's cork was voided: \(outputs)")
        #expect(policy.engineState == .paused(.interrupted))
        #expect(policy.handle(.uncorkRequested).interruptions == [.ended(shouldResume: true)])
    }

    @Test func aReplacedStreamWhileNothingCorksChangesNothing() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        #expect(policy.handle(.ownStreamReplaced).isEmpty)
        #expect(policy.handle(.uncorkRequested).isEmpty, "an uncork for a stream that was never corked is ignored")
    }

    /// Apple: "a began is not guaranteed to be followed by an ended; re-check
    /// when returning to the foreground". A cork with no call behind it (a
    /// policy module, the user) whose uncork never came: the foreground
    /// return ends the interruption.
    @Test func theForegroundEndsAnInterruptionWhoseEndedNeverCame() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.corkRequested)
        _ = policy.handle(.appEnteredBackground)
        let outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
        #expect(!policy.isInterrupted)
    }

    /// Seed 002, scenario 2, on a server with module-role-cork: "whatever the
    /// category, while your app is in the foreground the call's audio mixes
    /// with your app's". The server muted our music stream and asked it to
    /// cork; back in the foreground the engine does not obey: it unmutes its
    /// stream and resumes. Back to the call it pauses again; the call's end
    /// is an ordinary ended.
    @Test func theForegroundDuringACallPlaysAgainstTheServersCork() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        _ = policy.handle(.corkRequested)
        #expect(policy.isInterrupted)
        _ = policy.handle(.appEnteredBackground)
        var outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        let reclaim = outputs.index { $0 == .action(.reclaimOwnStream) }
        let resume = outputs.index { $0 == .action(.resumeEngine) }
        #expect(reclaim != nil && resume != nil && reclaim! < resume!, "unmuted before it plays: \(outputs)")
        #expect(!policy.isInterrupted)
        // role-cork mutes and asks again whenever it re-examines its streams:
        // the mute is taken back again, the engine keeps playing.
        outputs = policy.handle(.corkRequested)
        #expect(outputs == [.action(.reclaimOwnStream)])
        // Back to the call: the engine pauses again.
        outputs = policy.handle(.appEnteredBackground)
        #expect(outputs.interruptions.count == 1)
        #expect(outputs.pausesEngine(.interrupted))
        #expect(!outputs.actions.contains(.reclaimOwnStream))
        // A cork request while in the background is obeyed (nothing to take back).
        #expect(!policy.handle(.corkRequested).actions.contains(.reclaimOwnStream))
        // The call's end voids its corks: the uncork may never come.
        outputs = policy.handle(.otherStreamRemoved(1))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
        #expect(policy.handle(.uncorkRequested).interruptions.isEmpty)
    }

    /// A second call that starts while the game mixes with the first is not
    /// accepted: it interrupts, and its cork is obeyed.
    @Test func aNewCallInTheForegroundInterruptsAndItsCorkIsObeyed() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        _ = policy.handle(.corkRequested)
        _ = policy.handle(.appEnteredBackground)
        _ = policy.handle(.appEnteredForeground)
        #expect(!policy.isInterrupted)
        var outputs = policy.handle(.otherStreamChanged(Streams.call(2)))
        #expect(outputs.interruptions == [.began(.serverCorkRequest)] || outputs.interruptions == [.began(.phoneCall)])
        outputs = policy.handle(.corkRequested)
        #expect(!outputs.actions.contains(.reclaimOwnStream))
        #expect(policy.isInterrupted)
    }

    /// Every other source is read from the live stream list, so its end is
    /// never missed; the foreground return takes the audio back from a call.
    @Test func theForegroundReturnDuringACallEndsTheInterruption() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        _ = policy.handle(.otherStreamChanged(Streams.call(1)))
        _ = policy.handle(.appEnteredBackground)
        let outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
    }
}
