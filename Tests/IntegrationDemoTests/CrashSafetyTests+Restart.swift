import Foundation
import Glibc
import SoundServerSupport
import Testing

extension CrashSafetyTests {
    /// The soak's seed 4 on pipewire-pulse (issue 15's failure 3 across a
    /// server restart), without the randomness. The game gives a ducked
    /// music app its volume back and the server is killed and restarted a
    /// moment later, before it saved that volume: WirePlumber writes its
    /// state a second after the last change, so the restarted server reads
    /// back our duck and hands it to the next music app, which starts before
    /// the game has reconnected (the game is stopped meanwhile). When the
    /// game reconnects, the music app gets the user's volume back, and
    /// neither our new stream nor a later music app starts ducked; nor after
    /// the game quits.
    ///
    /// pipewire-pulse only: PulseAudio's module-stream-restore has our change
    /// for 20 ms at most (the engine repairs the entry right after each
    /// change) and writes its database ten seconds late, so a restart there
    /// reads a clean entry.
    @Test(.enabled(if: PrivateSoundServer.kindUnderTest == .pipewire, "only WirePlumber keeps our duck while it is held"))
    func aDuckTheRestartedServerReadsBackIsGivenBackWhenTheGameReconnects() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music", volume: 0.8)
        let demo = try startHolding(server, music, runtime, arguments: ["--play", steadyTone] + Hold.duck.arguments)
        defer {
            kill(demo.pid, SIGCONT)
            try? demo.send(#"{"cmd":"quit"}"#)
        }
        #expect(eventually { music.isUnmuted(at: Self.duckedMusic) }, "duckOthers did not lower the music app: \(String(describing: try? music.sinkInput()))")
        // WirePlumber saved the duck (the state a restarted server reads).
        let key = "Output/Audio:media.role:Music"
        #expect(
            eventually { server.wirePlumberSavedVolume(of: key).map { abs($0 - pow(Self.duckedMusic, 3)) < 0.01 } == true },
            "WirePlumber did not save the duck: \(String(describing: server.wirePlumberSavedVolume(of: key)))")

        try demo.send(#"{"cmd":"setSession","category":"playback","options":["mixWithOthers"],"id":"mix"}"#)
        #expect(try demo.result(id: #""mix""#)["ok"] as? Bool == true)
        #expect(eventually { music.isUnmuted(at: 0.8) }, "the music app did not get its volume back")
        kill(demo.pid, SIGSTOP)
        server.crash()
        try server.restart()
        let next = try server.startClient(role: "music")
        try #require(
            eventually(within: 3) { next.isUnmuted(at: Self.duckedMusic) },
            "the restarted server did not hand out the duck it had saved (nothing to repair): \(String(describing: try? next.sinkInput()))")

        let mark = demo.mark
        kill(demo.pid, SIGCONT)
        _ = try demo.firstLine(from: mark) { $0["event"] as? String == "mediaServicesWereReset" }
        #expect(eventually(within: 1) { next.isUnmuted(at: 0.8) }, "the music app kept our duck: \(String(describing: try? next.sinkInput()))")
        #expect(next.staysAsItWas(volume: 0.8), "the music app: \(String(describing: try? next.sinkInput()))")
        #expect(
            eventually(within: 1) { (try? server.demoStreams())?.first.map { !$0.muted && $0.volume.allSatisfy { abs($0 - 0.8) < 0.01 } } == true },
            "our new stream (role music, the user's music volume): \(String(describing: try? server.demoStreams()))")

        try demo.send(#"{"cmd":"quit"}"#)
        #expect(demo.waitForExit() == 0)
        #expect(next.isUnmuted(at: 0.8), "quitting changed the music app: \(String(describing: try? next.sinkInput()))")
        try next.stop()
        let another = try server.startClient(role: "music")
        defer { try? another.stop() }
        #expect(another.staysAsItWas(volume: 0.8), "a later music app: \(String(describing: try? another.sinkInput()))")
    }

    /// The user's 0.8 ducked to 0.2 of its amplitude (PulseAudio's volume is
    /// cubic): 0.8 × 0.2^(1/3).
    static let duckedMusic = 0.8 * pow(0.2, 1.0 / 3)
}

extension PrivateSoundServer {
    /// The linear volume WirePlumber's `restore-stream` state file holds for
    /// `key` (its first channel), nil when it holds none (or not pipewire-pulse).
    func wirePlumberSavedVolume(of key: String) -> Double? {
        let path = directory + "/home/.local/state/wireplumber/restore-stream"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":channelVolumes=") {
            return line.split(separator: "=").last?.split(separator: ";").first.flatMap { Double($0) }
        }
        return nil
    }
}
