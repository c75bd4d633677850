import Foundation
import Glibc
import SoundServerSupport
import Testing

/// The tool in a real pseudo-terminal (a tmux pane of 80×24), against a
/// fake game that speaks the documented protocol.
@Suite(.enabled(if: TmuxPane.isAvailable, "tmux is not installed"))
struct TopTerminalTests {
    @Test func listsTheGameAttachesAndFollowsVoicesAndRoutesThenRestoresTheTerminalOnControlC() throws {
        let runtime = try ScratchFolder()
        let game = try FakeGame(runtimeDirectory: runtime.path, program: "fakegame", picture: ProtocolLines.picture)
        defer { game.stop() }
        let pane = try TmuxPane(toolCommand([], runtime: runtime.path))

        // The list shows the game; Enter attaches; the session page shows the route the game sent.
        pane.waitFor("fakegame", "\(getpid())")
        try pane.send("Enter")
        pane.waitFor("Category", "playback", "Speaker", "uid speaker", "LIVE")

        // A new voice appears on the Voices page.
        #expect(eventually(within: 5) { game.openConnections == 1 })
        game.broadcast(ProtocolLines.voices(t: 1.0, [ProtocolLines.voice(id: 77, event: "Play_Footstep")]))
        try pane.send("2")
        pane.waitFor("Play_Footstep", "77", "1 active")

        // A session change with a new route shows the new route.
        game.broadcast(ProtocolLines.session(t: 1.5, output: ProtocolLines.port("Headphones", "USB Headphones", "usbhp")))
        try pane.send("1")
        pane.waitFor("USB Headphones", "uid usbhp")
        pane.waitUntilGone("uid speaker")

        // Ctrl-C: the main screen is back (the shell's marker) and the terminal is cooked again.
        try pane.quitTool(with: "C-c", runtime: runtime.path)
    }

    @Test func everyPageDrawsAt80x24AndTabCyclesThem() throws {
        let runtime = try ScratchFolder()
        let picture = ProtocolLines.picture + [ProtocolLines.notification]
        let game = try FakeGame(runtimeDirectory: runtime.path, picture: picture)
        defer { game.stop() }
        let pane = try TmuxPane(toolCommand(["--socket", game.socketPath], runtime: runtime.path))
        pane.waitFor("Category")
        try pane.send("Tab")
        pane.waitFor("sorted by gain")
        try pane.send("Tab")
        pane.waitFor("master", "sfx", "PEAK")
        try pane.send("Tab")
        pane.waitFor("Speed", "Weather", "Rain", "gravel")
        try pane.send("Tab")
        pane.waitFor("routeChange", "newDeviceAvailable")
        try pane.send("Tab")
        pane.waitFor("Render CPU", "42.0 ms", "Underflows")
        try pane.quitTool(with: "q", runtime: runtime.path)
    }

    @Test func aResizedWindowIsRedrawnAtItsNewSize() throws {
        let runtime = try ScratchFolder()
        let game = try FakeGame(runtimeDirectory: runtime.path, picture: ProtocolLines.picture)
        defer { game.stop() }
        let pane = try TmuxPane(toolCommand(["--socket", game.socketPath], runtime: runtime.path))
        pane.waitFor("Category")
        try pane.resize(width: 120, height: 40)
        var lines: [Substring] = []
        let redrawn = eventually(within: 5) {
            lines = pane.capture().split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 40 && lines[39].contains("q quit") && lines[0].hasSuffix("LIVE")
        }
        #expect(redrawn, "not redrawn at 120x40:\n\(lines.joined(separator: "\n"))")
        try pane.quitTool(with: "q", runtime: runtime.path)
    }

    @Test func aGameThatGoesAwayIsSaidAndTheListIsOffered() throws {
        let runtime = try ScratchFolder()
        let game = try FakeGame(runtimeDirectory: runtime.path, picture: ProtocolLines.picture)
        let pane = try TmuxPane(toolCommand(["--pid", "\(getpid())"], runtime: runtime.path))
        pane.waitFor("Category", "LIVE")
        game.stop()
        pane.waitFor("went away", "GONE")
        try pane.send("l")
        pane.waitFor("No running game")
        try pane.quitTool(with: "q", runtime: runtime.path)
    }

    @Test func aRecordedSessionReplaysWithPause() throws {
        let runtime = try ScratchFolder()
        let recording = runtime.path + "/session.rec"
        do {
            let game = try FakeGame(runtimeDirectory: runtime.path, picture: ProtocolLines.picture)
            defer { game.stop() }
            let pane = try TmuxPane(toolCommand(["--socket", game.socketPath, "--record", recording], runtime: runtime.path))
            pane.waitFor("Category", "REC")
            #expect(eventually(within: 5) { game.openConnections == 1 })
            game.broadcast(ProtocolLines.voices(t: 1.0, [ProtocolLines.voice(id: 5, event: "Play_Recorded")]))
            try pane.send("2")
            pane.waitFor("Play_Recorded")
            try pane.quitTool(with: "q", runtime: runtime.path)
        }
        let entries = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
        #expect(entries.first == "# soundengine-top recording 1")
        #expect(entries.contains { $0.contains(#""type":"hello""#) })
        #expect(entries.contains { $0.contains("Play_Recorded") })
        // A line a minute later keeps the replay going while the test pauses it.
        let later = "60.0 " + ProtocolLines.voices(t: 60, [ProtocolLines.voice(id: 6, event: "Play_Later")]) + "\n"
        let handle = try #require(FileHandle(forWritingAtPath: recording))
        handle.seekToEndOfFile()
        handle.write(Data(later.utf8))
        try handle.close()

        let pane = try TmuxPane(toolCommand(["--replay", recording], runtime: runtime.path))
        pane.waitFor("fakegame", "REPLAY", "Speaker")
        try pane.send("2")
        pane.waitFor("Play_Recorded")
        try pane.send("p")
        pane.waitFor("REPLAY PAUSED", "p play")
        #expect(!pane.capture().contains("Play_Later"))
        try pane.quitTool(with: "q", runtime: runtime.path)
    }

    @Test func asciiLocaleDrawsWithoutUnicode() throws {
        let runtime = try ScratchFolder()
        let game = try FakeGame(runtimeDirectory: runtime.path, picture: ProtocolLines.picture)
        defer { game.stop() }
        let pane = try TmuxPane(toolCommand(["--socket", game.socketPath], runtime: runtime.path, locale: "C"))
        pane.waitFor("Category")
        try pane.send("3")
        pane.waitFor("master", "#")
        #expect(!pane.capture().contains("█"))
        try pane.quitTool(with: "q", runtime: runtime.path)
    }

    @Test func aTerminationSignalRestoresTheTerminal() throws {
        let runtime = try ScratchFolder()
        let game = try FakeGame(runtimeDirectory: runtime.path, picture: ProtocolLines.picture)
        defer { game.stop() }
        // The tool writes its pid where the test can find it, then becomes the tool (exec).
        let pidFile = runtime.path + "/tool.pid"
        let command = toolCommand(["--socket", game.socketPath], runtime: runtime.path)
            .replacingOccurrences(of: "env XDG_RUNTIME_DIR", with: "sh -c 'echo $$ > \(pidFile); exec \"$@\"' sh env XDG_RUNTIME_DIR")
        let pane = try TmuxPane(command)
        pane.waitFor("Category")
        let pid = try #require(pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        kill(pid, SIGTERM)
        pane.waitFor("TOOL-EXITED")
        pane.waitUntilGone("Category")
        #expect(terminalWasRestored(runtime: runtime.path))
    }
}
