import SoundCore
import SoundSession
import Testing

/// Background and foreground per category, the Wwise SuspendInBackground
/// flag, and the game's own suspend and wake-up.
@Suite struct LifecycleTests {
    @Test(arguments: [Category.ambient, .soloAmbient])
    func ambientCategoriesStopInTheBackground(category: Category) throws {
        var policy = try AudioSessionPolicy.connected(.with(category))
        var outputs = policy.handle(.appEnteredBackground)
        #expect(outputs.actions == [.pauseEngine(.appInBackground)])
        outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.actions == [.resumeEngine])
    }

    @Test(arguments: [Category.playback, .record, .playAndRecord, .multiRoute])
    func otherCategoriesKeepGoingInTheBackground(category: Category) throws {
        var policy = try AudioSessionPolicy.connected(.with(category))
        #expect(policy.handle(.appEnteredBackground).isEmpty)
        #expect(policy.engineState == .running)
    }

    @Test(arguments: [Category.playback, .record, .playAndRecord, .multiRoute])
    func suspendInBackgroundStopsThemToo(category: Category) throws {
        var policy = try AudioSessionPolicy.connected(.with(category, behavior: .suspendInBackground))
        #expect(policy.handle(.appEnteredBackground).actions == [.pauseEngine(.appInBackground)])
        #expect(policy.handle(.appEnteredForeground).actions == [.resumeEngine])
    }

    @Test func aSoloAmbientGameGivesTheMusicBackInTheBackgroundAndTakesItInTheForeground() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), streams: [Streams.music(1)])
        #expect(policy.mutedStreams == [1])
        var outputs = policy.handle(.appEnteredBackground)
        #expect(outputs.unmuted == [1])
        outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.muted == [1])
        #expect(outputs.interruptions.isEmpty)
    }

    @Test func comingBackToTheForegroundTakesOverFromMediaThatWon() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        _ = policy.handle(.otherStreamChanged(Streams.music(1)))
        #expect(policy.interruptionSource == .otherMedia)
        _ = policy.handle(.appEnteredBackground)
        let outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.muted == [1])
        #expect(outputs.resumesEngine)
    }

    /// soloAmbient stops in the background, but the music that won still
    /// plays: the interruption goes on until the app comes back (and takes the
    /// audio back) or the music stops.
    @Test func theBackgroundDoesNotEndAnInterruptionByMediaThatWon() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        _ = policy.handle(.otherStreamChanged(Streams.music(1)))
        #expect(policy.interruptionSource == .otherMedia)
        var outputs = policy.handle(.appEnteredBackground)
        #expect(outputs.interruptions.isEmpty, "the other music still plays: \(outputs)")
        #expect(policy.isInterrupted)
        #expect(!outputs.resumesEngine)
        outputs = policy.handle(.appEnteredForeground)
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.muted == [1])
        #expect(outputs.resumesEngine)

        // The music stopping while the app is away ends it too; the engine stays paused there.
        _ = policy.handle(.otherStreamChanged(Streams.music(2)))
        _ = policy.handle(.appEnteredBackground)
        outputs = policy.handle(.otherStreamChanged(Streams.music(2, running: false)))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.pausesEngine(.appInBackground))
    }

    @Test func aNonMixableSessionCannotBeActivatedFromTheBackground() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), active: false)
        _ = policy.handle(.appEnteredBackground)
        let before = policy
        #expect {
            _ = try policy.handle(.setActive(true))
        } throws: { error in
            guard case SoundEngineError.cannotInterruptOthers = error else { return false }
            return true
        }
        #expect(policy == before)

        var ambient = try AudioSessionPolicy.connected(.with(.ambient), active: false)
        _ = ambient.handle(.appEnteredBackground)
        let outputs = try ambient.handle(.setActive(true))
        #expect(outputs.pausesEngine(.appInBackground), "active, but silent until the foreground")
    }

    @Test func theGamesSuspendAndWakeUp() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        #expect(policy.handle(.gameSuspended(renderAnyway: false)).actions == [
            .pauseEngine(.suspendedByGame(renderAnyway: false)),
        ])
        // Background while suspended: the background reason comes first now.
        #expect(policy.handle(.appEnteredBackground).isEmpty, "playback keeps going, so only the game holds it")
        #expect(policy.handle(.gameWokeUp).actions == [.resumeEngine])
    }

    @Test func activationStartsTheEngineAndDeactivationStopsIt() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord), active: false)
        #expect(policy.engineState == .paused(.sessionInactive))
        var outputs = try policy.handle(.setActive(true))
        #expect(outputs.actions == [.openCaptureStream, .resumeEngine])
        #expect(try policy.handle(.setActive(true)).isEmpty, "activating twice does nothing")
        outputs = try policy.handle(.setActive(false))
        #expect(outputs.actions == [.pauseEngine(.sessionInactive), .closeCaptureStream])
    }
}
