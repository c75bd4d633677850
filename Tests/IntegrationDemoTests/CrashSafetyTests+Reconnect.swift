import Foundation
import Glibc
import SoundServerSupport
import Testing

extension CrashSafetyTests {
    /// What the game holds on the music app in each case.
    enum Hold: String, CaseIterable, Sendable {
        /// soloAmbient mutes it.
        case mute
        /// ambient + duckOthers lowers it to 0.2 of its amplitude.
        case duck

        var arguments: [String] {
            switch self {
            case .mute: ["--category", "soloAmbient"]
            case .duck: ["--category", "ambient", "--options", "duckOthers"]
            }
        }

        /// Whether `stream` shows this hold, made once from full volume (a
        /// duck made again from the ducked volume would compound to 0.342).
        func isHeld(_ stream: SinkInput?) -> Bool {
            guard let stream else { return false }
            switch self {
            case .mute: return stream.muted && stream.volume.allSatisfy { abs($0 - 1) < 0.01 }
            case .duck: return !stream.muted && stream.volume.allSatisfy { abs($0 - pow(0.2, 1.0 / 3)) < 0.01 }
            }
        }
    }

    /// Issue 15: a lost connection does not always wipe the server. When the
    /// server drops only our client (`pacmd kill-client`, a destroyed client
    /// object on pipewire-pulse), the mute or duck we put on the music app
    /// stays on the server. The reconnect gives it back before the new
    /// snapshot, the journal then holds the music app's own values (not our
    /// change, taken for the original), the session holds it again, and
    /// after the calm and after quitting the music app is exactly as it was;
    /// a new music app starts unmuted at full volume. Each of our two
    /// clients (playback, control: the one that made the change) in turn.
    @Test(arguments: Hold.allCases)
    func aClientKilledWhileTheGameHoldsMusicIsReconciledOnReconnect(hold: Hold) throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music")
        let demo = try startHolding(server, music, runtime, arguments: ["--play", steadyTone] + hold.arguments)
        defer { try? demo.send(#"{"cmd":"quit"}"#) }
        #expect(eventually { hold.isHeld(try? music.sinkInput()) }, "the game does not \(hold) the music app: \(String(describing: try? music.sinkInput()))")

        for which in ["playback", "control"] {
            let ours = try server.clients().filter { $0.properties["application.name"] == "SoundEngine IntegrationDemo" }
            let streamClient = try #require(try server.demoStreams().first?.client)
            let victim = try #require(ours.first { which == "playback" ? $0.index == streamClient : $0.index != streamClient })
            let mark = demo.mark
            try server.killClient(victim.index)
            _ = try demo.firstLine(from: mark) { $0["event"] as? String == "mediaServicesWereReset" }
            #expect(
                eventually { hold.isHeld(try? music.sinkInput()) && runtime.journalHoldsUntouched(music.sinkInputIndex) },
                "after our \(which) client was killed: the music app \(String(describing: try? music.sinkInput())), the journal \(runtime.journalText)")
        }

        // The calm: a session that holds nothing.
        try demo.send(#"{"cmd":"setSession","category":"playback","options":["mixWithOthers"],"id":"calm"}"#)
        #expect(try demo.result(id: #""calm""#)["ok"] as? Bool == true)
        #expect(eventually { music.isAsItWas }, "after the calm: \(String(describing: try? music.sinkInput()))")
        #expect(music.staysAsItWas(), "after the calm: \(String(describing: try? music.sinkInput()))")
        try demo.send(#"{"cmd":"quit"}"#)
        #expect(demo.waitForExit() == 0)
        #expect(music.isAsItWas, "after quitting: \(String(describing: try? music.sinkInput()))")
        #expect(runtime.journals.isEmpty, "quitting left a journal: \(runtime.journals)")
        try music.stop()
        let next = try server.startClient(role: "music")
        defer { try? next.stop() }
        #expect(next.staysAsItWas(), "a new music app: \(String(describing: try? next.sinkInput()))")
    }
}

extension TemporaryFolder {
    /// The one journal's text, for failure messages.
    var journalText: String {
        journals.compactMap { try? String(contentsOfFile: path + "/soundengine/" + $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// Whether the one journal holds stream `index` with the values it had
    /// before us (unmuted, full volume) as its original: not a change of
    /// ours taken for the user's.
    func journalHoldsUntouched(_ index: Int) -> Bool {
        guard journals.count == 1, let data = journalText.data(using: .utf8),
            let journal = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let streams = journal["streams"] as? [[String: Any]],
            let held = streams.first(where: { ($0["index"] as? Int) == index }),
            let original = held["original"] as? [String: Any],
            let muted = original["muted"] as? Bool, let volume = original["volume"] as? [Int]
        else { return false }
        return !muted && volume.allSatisfy { abs($0 - 0x10000) <= 64 }
    }
}
