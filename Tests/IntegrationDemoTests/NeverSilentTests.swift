import Foundation
import Glibc
import SoundServerSupport
import Testing

/// Issue 15, "never silent": whatever the server does to our stream — kills
/// it, kills our client, stops answering — the game plays again by itself
/// and is told (media services lost, then reset). Driven through the demo on
/// the server under test, listening to what reaches the speaker.
@Suite struct NeverSilentTests {
    /// The demo playing a steady tone in playback (never idle-corked), and a
    /// recorder that hears it.
    private func playing(_ server: PrivateSoundServer) throws -> (DemoProcess, MonitorRecorder) {
        let demo = try DemoProcess(
            ["--headless", "--loop", "--play", steadyTone, "--category", "playback", "--idle-cork", "off"],
            server: server.address)
        _ = try demo.firstLine { $0["event"] as? String == "engineState" && $0["state"] as? String == "running" }
        let recorder = try server.record()
        #expect(recorder.waitForLevel(windows: 4) { $0.allSatisfy { $0 > 0.2 } }.met, "the demo plays nothing")
        return (demo, recorder)
    }

    /// After `fault` (done at `mark`): the game is told the output went and
    /// came back, the tone is heard again within `within`, and the server
    /// lists exactly one stream of ours.
    private func expectRecovery(
        _ demo: DemoProcess, _ recorder: MonitorRecorder, _ server: PrivateSoundServer, after mark: Int,
        within: Double, fault: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let started = Date()
        try recorder.discardBacklog()
        let heard = recorder.waitForLevel(windows: 2, deadline: within + 5) { $0.allSatisfy { $0 > 0.2 } }
        let took = Date().timeIntervalSince(started)
        if heard.met {
            print("NeverSilent[\(PrivateSoundServer.kindUnderTest.rawValue)]: heard again \(Int(took * 1000)) ms after \(fault)")
        }
        #expect(heard.met, "no audio after the fault: \(heard.rms)", sourceLocation: sourceLocation)
        #expect(took < within, "audio came back after \(took) s", sourceLocation: sourceLocation)
        _ = try demo.firstLine(from: mark, sourceLocation: sourceLocation) { $0["event"] as? String == "mediaServicesWereLost" }
        _ = try demo.firstLine(from: mark, sourceLocation: sourceLocation) { $0["event"] as? String == "mediaServicesWereReset" }
        #expect(eventually { (try? server.demoStreams())?.count == 1 }, "streams of ours: \(String(describing: try? server.demoStreams()))",
                sourceLocation: sourceLocation)
    }

    @Test func aStreamTheServerKillsIsHeardAgainWithinASecondAndTheGameIsTold() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let (demo, recorder) = try playing(server)
        defer { recorder.stop() }
        for round in 0..<3 {
            let ours = try #require(try server.demoStreams().first, "round \(round)")
            let mark = demo.mark
            try server.killSinkInput(ours.index)
            try expectRecovery(demo, recorder, server, after: mark, within: 1, fault: "our stream was killed")
        }
        try demo.send(#"{"cmd":"quit"}"#)
        #expect(demo.waitForExit() == 0)
    }

    /// Each of our two clients (playback, control) killed in turn.
    @Test func aClientTheServerKillsIsHeardAgainWithinASecondAndTheGameIsTold() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let (demo, recorder) = try playing(server)
        defer { recorder.stop() }
        for which in ["playback", "control"] {
            let ours = try server.clients().filter { $0.properties["application.name"] == "SoundEngine IntegrationDemo" }
            #expect(ours.count == 2, "\(ours.map(\.properties))")
            let streamClient = try #require(try server.demoStreams().first?.client)
            let victim = try #require(ours.first { which == "playback" ? $0.index == streamClient : $0.index != streamClient })
            let mark = demo.mark
            try server.killClient(victim.index)
            try expectRecovery(demo, recorder, server, after: mark, within: 1, fault: "our \(which) client was killed")
        }
        try demo.send(#"{"cmd":"quit"}"#)
        #expect(demo.waitForExit() == 0)
    }

    /// The server hangs for 3 s (SIGSTOP), then goes on: nothing crashes, the
    /// game plays again, with one stream.
    @Test func aServerThatHangsForThreeSecondsIsHeardAgainWhenItGoesOn() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let (demo, recorder) = try playing(server)
        defer { recorder.stop() }
        let mark = demo.mark
        server.freeze()
        Thread.sleep(forTimeInterval: 3)  // the fault under test: three seconds of a hung server
        server.thaw()
        try expectRecovery(demo, recorder, server, after: mark, within: 5, fault: "the server went on after 3 s stopped")
        try demo.send(#"{"cmd":"route","id":"alive"}"#)
        #expect(try demo.result(id: #""alive""#)["ok"] as? Bool == true, "the demo stopped answering")
        try demo.send(#"{"cmd":"quit"}"#)
        #expect(demo.waitForExit() == 0)
    }
}
