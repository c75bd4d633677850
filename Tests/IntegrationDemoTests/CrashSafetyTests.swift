import Foundation
import Glibc
import SoundServerSupport
import Testing

/// Issue 15, "nothing left behind": a game that dies, however it dies, never
/// costs the player their music. Driven through the demo and real second
/// clients on the server under test (PulseAudio, a desktop-configured
/// PulseAudio with its restore databases, pipewire-pulse with WirePlumber's).
@Suite struct CrashSafetyTests {
    /// The demo, running and holding `music` as `category` makes it: muted
    /// (soloAmbient) or ducked (duckOthers).
    func startHolding(
        _ server: PrivateSoundServer, _ music: PlaybackClient, _ runtime: TemporaryFolder, arguments: [String]
    ) throws -> DemoProcess {
        let demo = try DemoProcess(
            ["--headless", "--loop", "--idle-cork", "off"] + arguments, server: server.address,
            environment: ["XDG_RUNTIME_DIR": runtime.path])
        _ = try demo.firstLine { $0["event"] as? String == "engineState" && $0["state"] as? String == "running" }
        return demo
    }

    /// Kills the demo and waits up to 1 s for `music` to be as it was;
    /// prints how long that took (an upper bound: the check polls the server).
    private func crashAndWaitForRepair(_ demo: DemoProcess, _ music: PlaybackClient) -> Bool {
        let killed = ContinuousClock.now
        demo.crash()
        let repaired = eventually(within: 1) { music.isAsItWas }
        if repaired {
            let (seconds, attoseconds) = (ContinuousClock.now - killed).components
            let ms = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            print("CrashSafety[\(PrivateSoundServer.kindUnderTest.rawValue)]: the music app was as it was \(Int(ms)) ms after the kill")
        }
        return repaired
    }

    private func isMuted(_ music: PlaybackClient) -> Bool { (try? music.sinkInput())??.muted == true }

    private func isDucked(_ music: PlaybackClient) -> Bool {
        ((try? music.sinkInput())??.volume ?? []).allSatisfy { $0 < 0.7 }
    }

    @Test func aGameKilledWhileItSilencesMusicGivesItBackWithinASecond() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music")
        defer { try? music.stop() }
        let demo = try startHolding(server, music, runtime, arguments: ["--category", "soloAmbient"])
        #expect(eventually { isMuted(music) }, "soloAmbient did not silence the music app")
        #expect(runtime.journals.count == 1, "the mute was not written down first")
        let guardianProcess = guardian(of: demo.pid)
        #expect(guardianProcess != nil, "no guardian was started with the first mute")

        #expect(crashAndWaitForRepair(demo, music), "the music app is still muted 1 s after the game died")
        #expect(eventually { guardianProcess.map(hasEnded) ?? true }, "the guardian did not end")
        #expect(eventually { runtime.journals.isEmpty }, "the journal was left: \(runtime.journals)")

        // The restore database kept nothing of ours: the next music app starts as music apps do.
        try music.stop()
        let next = try server.startClient(role: "music")
        defer { try? next.stop() }
        #expect(next.staysAsItWas(), "a new music app started muted or lowered: \(String(describing: try? next.sinkInput()))")
    }

    @Test func aGameKilledWhileItDucksMusicGivesTheVolumeBackWithinASecond() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music")
        defer { try? music.stop() }
        let demo = try startHolding(server, music, runtime, arguments: ["--category", "ambient", "--options", "duckOthers"])
        #expect(eventually { isDucked(music) }, "duckOthers did not lower the music app")
        #expect(crashAndWaitForRepair(demo, music), "the music app is still lowered 1 s after the game died")
        try music.stop()
        let next = try server.startClient(role: "music")
        defer { try? next.stop() }
        #expect(next.staysAsItWas(), "a new music app started lowered: \(String(describing: try? next.sinkInput()))")
    }

    /// Game and guardian killed together (a session that ends with SIGKILL)
    /// while the game mutes or ducks a music app: nobody repairs at once; the
    /// next engine to start does, before it looks at the server.
    @Test(arguments: Hold.allCases)
    func aGameKilledWithItsGuardianIsRepairedAtTheNextStart(hold: Hold) throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music")
        defer { try? music.stop() }
        let demo = try startHolding(server, music, runtime, arguments: hold.arguments)
        #expect(eventually { hold.isHeld(try? music.sinkInput()) }, "the game does not \(hold) the music app")
        let guardianProcess = try #require(guardian(of: demo.pid))
        kill(guardianProcess, SIGKILL)
        demo.crash()
        #expect(eventually { hasEnded(guardianProcess) })
        #expect(hold.isHeld(try? music.sinkInput()), "something gave the music back although game and guardian were killed")
        #expect(runtime.journals.count == 1)

        // The next start, in a mixable category that silences and ducks nothing itself.
        let next = try startHolding(server, music, runtime, arguments: ["--category", "ambient"])
        defer { try? next.send(#"{"cmd":"quit"}"#) }
        #expect(music.isAsItWas, "initialize returned and the music app is still held: \(String(describing: try? music.sinkInput()))")
        #expect(eventually { runtime.journals.isEmpty }, "the dead game's journal was left: \(runtime.journals)")
        try music.stop()
        let another = try server.startClient(role: "music")
        defer { try? another.stop() }
        #expect(another.staysAsItWas(), "a new music app started held (\(hold)): \(String(describing: try? another.sinkInput()))")
    }

    /// Issue 15's shortest reproduction: a soloAmbient game holds a music
    /// app's mute, the music app quits, the game quits normally. The next
    /// game, started in playback + mixWithOthers, plays (its own stream is
    /// not muted), and a new music app starts unmuted.
    @Test func aHeldMusicStreamThatQuitsLeavesNoMuteBehind() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music")
        let first = try startHolding(server, music, runtime, arguments: ["--category", "soloAmbient"])
        #expect(eventually { isMuted(music) })
        try music.stop()  // quits while we hold it muted
        try first.send(#"{"cmd":"quit"}"#)
        #expect(first.waitForExit() == 0)
        #expect(runtime.journals.isEmpty, "quitting left a journal: \(runtime.journals)")

        let second = try startHolding(
            server, music, runtime, arguments: ["--category", "playback", "--options", "mixWithOthers", "--play", steadyTone])
        defer { try? second.send(#"{"cmd":"quit"}"#) }
        let recorder = try server.record()
        defer { recorder.stop() }
        #expect(
            eventually { (try? server.demoStreams())?.first.map { !$0.muted && $0.volume.allSatisfy { $0 > 0.99 } } == true },
            "the next game's stream came up muted: \(String(describing: try? server.demoStreams()))")
        #expect(recorder.waitForLevel(windows: 4) { $0.allSatisfy { $0 > 0.2 } }.met, "the next game plays nothing")
        let next = try server.startClient(role: "music")
        defer { try? next.stop() }
        #expect(next.staysAsItWas(), "a new music app started muted: \(String(describing: try? next.sinkInput()))")
    }

    /// The same with ducking: the ducked volume must not become the next
    /// music app's volume (nor, ducked again, compound: 58 % of 58 %).
    @Test func aDuckedMusicStreamThatQuitsLeavesNoDuckBehind() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music")
        let game = try startHolding(server, music, runtime, arguments: ["--category", "ambient", "--options", "duckOthers"])
        defer { try? game.send(#"{"cmd":"quit"}"#) }
        #expect(eventually { isDucked(music) })
        let ducked = try #require(try music.sinkInput()).volume
        try music.stop()
        // A new music app while the game still ducks: ducked once, from full volume.
        let next = try server.startClient(role: "music")
        defer { try? next.stop() }
        #expect(eventually { isDucked(next) })
        let again = try #require(try next.sinkInput()).volume
        #expect(zip(again, ducked).allSatisfy { abs($0 - $1) < 0.02 }, "ducks compounded: \(ducked) then \(again)")
        try game.send(#"{"cmd":"quit"}"#)
        #expect(game.waitForExit() == 0)
        #expect(eventually { next.isAsItWas }, "quitting did not give the volume back: \(String(describing: try? next.sinkInput()))")
    }
}
