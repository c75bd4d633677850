import Foundation
import SoundBackend
import SoundCore
import SoundEngine
import SoundSession
import SoundServerSupport
import Testing

extension OfflineEngineTests {
    /// Issue 15, "never silent", on the fake of our own backend protocol
    /// (the server's side is tested on real servers in NeverSilentTests and
    /// NeverSilentEngineTests): our stream fails, and every re-creation
    /// fails too. The engine tells the game the output is lost, tries again
    /// 50, 100 and 200 ms apart, then asks for a full reconnect; after it,
    /// the stream is made, the game is told it is back, and the engine plays.
    /// Meanwhile the engine's clock kept the mixer going: a playing voice is
    /// where wall time says it should be, and a play delayed across the
    /// outage started on time.
    @Test func aStreamThatCannotBeMadeAgainIsRetriedWithBackOffThenByReconnectingAndVoicesKeepTheirPlace() throws {
        let backend = OfflineBackend()
        let log = EventLog()
        var platform = PlatformInitSettings()
        platform.audioCallbacks = log.callbacks
        let engine = try SoundEngineInstance(InitSettings(), platform, backend: backend)
        defer { engine.terminate() }
        #expect(eventually { engine.status == .running && !backend.isPaused }, "the engine does not run: \(engine.status)")
        let long = try engine.loadSound(sine(frequency: 440, seconds: 30), name: "long")
        let voice = try engine.play(long)
        _ = backend.render(frames: 4800)
        let before = try #require(try engine.playPosition(voice))

        let delay = Duration.milliseconds(200)
        let delayed = try engine.play(long, PlayParameters(delay: delay))
        backend.failStreamCreations(4)
        let lostAt = ContinuousClock.now
        backend.inject(.streamFailed("the test failed our stream"))
        #expect(log.wait { $0 == .mediaServicesWereLost } != nil, "the game was not told: \(log.all)")
        #expect(eventually(within: 3) { backend.reconnectRequests == 1 }, "no reconnect asked for: \(backend.streamCreationAttempts)")
        let attempts = backend.streamCreationAttempts.filter { $0.at >= lostAt }
        #expect(attempts.count == 4 && attempts.allSatisfy { !$0.created }, "\(attempts)")
        let gaps = zip(attempts.dropFirst(), attempts).map { $0.at - $1.at }
        #expect(gaps.count == 3 && zip(gaps, [50, 100, 200]).allSatisfy { $0 >= .milliseconds($1) }, "back-off: \(gaps)")
        #expect(!log.all.contains(.mediaServicesWereReset), "told the stream was back while it was not")

        // The backend reconnects (a real one reports it so).
        backend.inject(.system(.connectionLost))
        backend.inject(.reconnected(backend.serverDescription))
        #expect(log.wait { $0 == .mediaServicesWereReset } != nil, "the game was not told the output is back: \(log.all)")
        #expect(eventually { engine.status == .running && !backend.isPaused }, "the engine does not play again: \(engine.status)")
        let backAt = ContinuousClock.now
        #expect(backend.streamCreationAttempts.last?.created == true)
        #expect(log.all.filter { $0 == .mediaServicesWereLost }.count == 1 && log.all.filter { $0 == .mediaServicesWereReset }.count == 1,
                "one lost, one reset: \(log.all)")

        // Across the outage the voices moved with wall time (the clock stops
        // at the resume, a moment before `backAt`: a little behind, never ahead).
        let outage = backAt - lostAt
        let moved = try #require(try engine.playPosition(voice)) - before
        #expect(moved <= outage + .milliseconds(25) && moved >= outage - .milliseconds(100), "moved \(moved) in an outage of \(outage)")
        let started = try #require(try engine.playPosition(delayed))
        let due = outage - delay
        #expect(started <= due + .milliseconds(25) && started >= due - .milliseconds(100), "the delayed play is at \(started), due at \(due)")
    }
}
