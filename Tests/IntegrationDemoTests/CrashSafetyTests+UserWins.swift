import Foundation
import Glibc
import SoundServerSupport
import Testing

extension CrashSafetyTests {
    /// How the game lets go of what it holds.
    enum Ending: String, CaseIterable, Sendable {
        /// A session that holds nothing, then a normal quit.
        case release
        /// kill -9: the guardian gives it back.
        case crash
    }

    /// docs/pulseaudio.md, "Who wins when the user changed the stream after
    /// us: the user". While the game holds a music app, the user changes it:
    /// moves the volume of the one the game ducks, unmutes the one the game
    /// silences. The game does not take it back; letting go (a session that
    /// holds nothing and a quit, or a crash that the guardian repairs) leaves
    /// the user's choice; and a later music app starts with the user's volume
    /// (the restore database remembers it for the role, not ours; a server
    /// without one starts it at full volume).
    @Test(arguments: Hold.allCases, Ending.allCases)
    func theUserWinsOverWhatTheGameHolds(hold: Hold, ending: Ending) throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try TemporaryFolder()
        let music = try server.startClient(role: "music")
        let demo = try startHolding(server, music, runtime, arguments: hold.arguments)
        defer { try? demo.send(#"{"cmd":"quit"}"#) }
        #expect(eventually { hold.isHeld(try? music.sinkInput()) }, "the game does not \(hold) the music app")

        let users: Double
        switch hold {
        case .duck:
            users = 0.3
            try server.pactl("set-sink-input-volume", String(music.sinkInputIndex), String(Int(users * 65536)))
        case .mute:
            users = 1
            try server.pactl("set-sink-input-mute", String(music.sinkInputIndex), "0")
        }
        #expect(music.staysAsItWas(volume: users), "the game took it back: \(String(describing: try? music.sinkInput()))")
        try letGo(demo, ending)
        #expect(music.staysAsItWas(volume: users), "after the game let go (\(ending)): \(String(describing: try? music.sinkInput()))")
        #expect(eventually { runtime.journals.isEmpty }, "a journal was left: \(runtime.journals)")

        try music.stop()
        let next = try server.startClient(role: "music")
        defer { try? next.stop() }
        let remembered = server.kind == .pulseaudio ? 1 : users
        #expect(next.staysAsItWas(volume: remembered), "a later music app: \(String(describing: try? next.sinkInput()))")
    }

    private func letGo(_ demo: DemoProcess, _ ending: Ending) throws {
        switch ending {
        case .release:
            try demo.send(#"{"cmd":"setSession","category":"playback","options":["mixWithOthers"],"id":"mix"}"#)
            #expect(try demo.result(id: #""mix""#)["ok"] as? Bool == true)
            try demo.send(#"{"cmd":"quit"}"#)
            #expect(demo.waitForExit() == 0)
        case .crash:
            let guardianProcess = guardian(of: demo.pid)
            #expect(guardianProcess != nil, "no guardian")
            demo.crash()
            #expect(eventually { guardianProcess.map(hasEnded) ?? true }, "the guardian did not end")
        }
    }
}
