import Foundation
import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport
import Testing

/// Issue 8, item 6: with nothing playing for `idleCorkTimeout` the stream is
/// corked (the server's view), so the sink may suspend and the render thread
/// sleeps; the game still sees `running`; the next `play` returns at once
/// (issue 15: the session thread uncorks), the stream is uncorked soon after
/// and its sound reaches the monitor.
@Suite struct IdleCorkTests {
    func ourStream(_ server: PrivateSoundServer) throws -> SinkInput? {
        try server.sinkInputs().first { $0.properties["application.name"] == "SoundEngine idle test" }
    }

    @Test func anIdleStreamIsCorkedAndTheNextPlayUncorksItAtOnce() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        var p = platform(server)
        p.applicationName = "SoundEngine idle test"
        p.idleCorkTimeout = .milliseconds(300)
        let engine = try SoundEngineInstance(InitSettings(), p)
        defer { engine.terminate() }
        let recording = try ContinuousRecording(server, source: "speaker.monitor")
        defer { recording.stop() }
        let blip = try engine.loadSound(sine(frequency: 440, amplitude: 0.5, seconds: 0.2), name: "blip")
        try engine.play(blip)
        #expect(recording.waitForSound(after: 0) != nil, "the first sound never played")
        // 0.2 s of sound, then 0.3 s idle: corked, and the game sees no change.
        #expect(eventually { (try? ourStream(server))??.corked == true }, "the idle stream was not corked")
        #expect(engine.status == .running)
        let callsWhileCorked = engine.statistics.output.renderCalls
        let quiet = recording.frames
        recording.waitFor(ContinuousRecording.rate / 2, after: quiet)
        #expect(engine.statistics.output.renderCalls == callsWhileCorked, "the render thread kept rendering while corked")
        // The next play wakes the session thread, which uncorks; the sound comes.
        let mark = recording.frames
        try engine.play(blip)
        #expect(eventually(within: 1) { (try? ourStream(server))??.corked == false }, "the stream stayed corked after play")
        #expect(recording.waitForSound(after: mark) != nil, "no sound after the idle cork")
        // Commands are applied while corked: a stopped voice ends, nothing leaks.
        #expect(eventually { engine.statistics.mixer.voicesActive == 0 })
        #expect(eventually { (try? ourStream(server))??.corked == true })
        let voice = try engine.play(blip, PlayParameters(loop: true))
        try engine.stop(voice)
        #expect(eventually { engine.statistics.mixer.voicesActive == 0 })
    }

    @Test func idleCorkingCanBeTurnedOffAndRefusesATimeoutTooShort() throws {
        var p = PlatformInitSettings()
        p.idleCorkTimeout = .milliseconds(10)
        #expect(throws: SoundEngineError.self) { try p.validate() }
        p.idleCorkTimeout = nil
        try p.validate()
    }
}
