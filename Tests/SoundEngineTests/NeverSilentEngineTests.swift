import Foundation
import SoundCore
import SoundEngine
import SoundSession
import SoundServerSupport
import Testing

/// Issue 15, "never silent": while the stream is gone the engine's clock
/// keeps the mixer going, so the game's voices and delayed plays keep their
/// place on the mixer clock, and the mixer clock keeps to wall time. On a
/// real server of the kind under test: a voice plays, a play is delayed by a
/// second, and the server is killed and restarted (about two seconds
/// without a stream). After the reset both positions are where wall time
/// says, as they were before the outage. (The back-off, the reconnect and
/// the same positions to the millisecond: OfflineEngineTests, on the fake of
/// our own backend.)
@Suite struct NeverSilentEngineTests {
    @Test func voicesAndDelayedPlaysKeepTheirPlaceAcrossAServerRestart() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let long = try live.engine.loadSound(sine(frequency: 440, seconds: 60), name: "long")
        let voice = try live.engine.play(long)
        #expect(eventually { (try? live.engine.playPosition(voice)).flatMap(\.self).map { $0 > .milliseconds(300) } == true })

        // How far the mixer is ahead of wall time while the stream plays
        // (its buffer and a quantum), before and after the outage.
        func lead(_ playing: SoundEngine.PlayingID, startedAt start: ContinuousClock.Instant) throws -> Duration {
            let now = ContinuousClock.now
            return try #require(try live.engine.playPosition(playing)) - (now - start)
        }
        let voiceStart = ContinuousClock.now - (try #require(try live.engine.playPosition(voice)))
        let leadBefore = try lead(voice, startedAt: voiceStart)
        let delay = Duration.seconds(1)
        let delayedAt = ContinuousClock.now
        let delayed = try live.engine.play(long, PlayParameters(delay: delay))

        let mark = live.log.all.count
        live.server.crash()
        #expect(live.log.wait(from: mark) { $0 == .mediaServicesWereLost } != nil, "\(live.log.all.dropFirst(mark))")
        try live.server.restart()
        #expect(live.log.wait(from: mark, within: 15) { $0 == .mediaServicesWereReset } != nil, "\(live.log.all.dropFirst(mark))")
        #expect(eventually { live.engine.status == .running }, "\(live.engine.status)")
        let outage = ContinuousClock.now - delayedAt
        // A few buffers of playing, so both leads are measured on a stream.
        let resumed = try #require(try live.engine.playPosition(voice))
        #expect(eventually { (try? live.engine.playPosition(voice)).flatMap(\.self).map { $0 > resumed + .milliseconds(100) } == true })

        let leadAfter = try lead(voice, startedAt: voiceStart)
        let delayedLead = try lead(delayed, startedAt: delayedAt + delay)
        print("NeverSilentEngine[\(live.server.kind.rawValue)]: outage \(outage); the voice's lead \(leadBefore) before, \(leadAfter) after; the delayed play's \(delayedLead)")
        #expect(abs(leadAfter - leadBefore) < .milliseconds(150), "the voice lost its place: lead \(leadBefore) → \(leadAfter) over \(outage)")
        #expect(abs(delayedLead - leadBefore) < .milliseconds(150), "the delayed play started off its time: lead \(delayedLead), the voice's \(leadBefore)")
    }
}

private func abs(_ d: Duration) -> Duration { d < .zero ? .zero - d : d }
