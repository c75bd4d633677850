import Foundation
import SoundServerSupport
import Testing

/// The interactive demo as a person sees it: run in a tmux pane (a real
/// pseudo-terminal, 80×24) against a private sound server, driven with
/// `send-keys`, read with `capture-pane`. Every wait polls with a deadline.
/// Skipped when tmux is not installed.
@Suite(.enabled(if: TmuxPane.tmux != nil, "tmux is not installed"))
struct FullScreenDemoTests {
    /// The media.role of the demo's stream (the only one on the private server).
    func streamRole(_ server: PrivateSoundServer) -> String? {
        (try? server.sinkInputs())?.first?.properties["media.role"]
    }

    @Test func theSessionPageShowsTheCategoryAndAKeyChangesIt() throws {
        let run = try FullScreenRun()
        let (server, pane) = (run.server, run.pane)

        let first = pane.waitForScreen { $0.contains("Category     soloAmbient") }
        #expect(first != nil, "the session page did not show the category:\n\(pane.capture())")
        #expect(first?.contains("1 Session") == true)
        #expect(first?.contains("q quit") == true)
        #expect(eventually { streamRole(server) == "game" })

        try pane.send("c")
        let changed = pane.waitForScreen { $0.contains("Category     playback") }
        #expect(changed != nil, "the new category is not shown:\n\(pane.capture())")
        #expect(changed?.contains("ok: changeAudioSessionProperties(playback") == true)
        // The engine applied it: its stream on the server now has playback's role.
        #expect(eventually { streamRole(server) == "music" },
                "the server's stream did not take the playback category's role")
        // And the notification it caused is in the log strip.
        #expect(pane.waitForScreen { $0.contains("route changed (categoryChange)") } != nil)

        try pane.send("q")
        #expect(run.settingsAfterExit() != nil)
        #expect(run.exitStatus() == "0")
    }

    @Test func pluggingUSBHeadphonesShowsTheNewRoute() throws {
        let run = try FullScreenRun()
        let (server, pane) = (run.server, run.pane)
        #expect(pane.waitForScreen { $0.contains("engine running") } != nil, "\(pane.capture())")
        try pane.send("2")
        let before = pane.waitForScreen { screen in
            screen.split(separator: "\n").contains { $0.contains("route out") && $0.contains("speaker") }
        }
        #expect(before != nil, "the route page did not show the speaker:\n\(pane.capture())")

        let headphones = try server.addOutput(name: "usbhp", properties: DemoSessionScenarioTests.usbHeadphones)
        defer { try? headphones.remove() }
        let after = pane.waitForScreen { screen in
            screen.split(separator: "\n").contains { $0.contains("route out") && $0.contains("usbhp") }
        }
        #expect(after != nil, "the new route is not shown:\n\(pane.capture())")
        #expect(after?.contains("USB Headphones") == true)
        #expect(after?.contains("newDeviceAvailable") == true, "the route change is not in the log strip")
        try pane.send("q")
        #expect(run.settingsAfterExit() != nil)
    }

    @Test(arguments: ["q", "C-c"])
    func theTerminalIsRestoredOnLeaving(_ key: String) throws {
        let run = try FullScreenRun()
        let pane = run.pane
        #expect(pane.waitForScreen { $0.contains("Category") } != nil, "\(pane.capture())")
        try pane.send("3")  // not on the first page: leaving works from anywhere
        #expect(pane.waitForScreen { $0.contains("play the chime") } != nil)
        try pane.send(key)
        let settings = try #require(run.settingsAfterExit(), "the demo did not exit after \(key)")
        #expect(settings.contains("icanon") && !settings.contains("-icanon"), "\(settings)")
        #expect(settings.contains("echo") && !settings.contains("-echo"), "\(settings)")
        #expect(settings.contains("isig") && !settings.contains("-isig"), "\(settings)")
        #expect(run.exitStatus() == "0")
    }
}

/// One full-screen demo in a tmux pane on its own private server; after the
/// demo exits, the pane's shell writes its status and `stty -a` into a
/// temporary folder. Everything is stopped and removed when this goes away.
final class FullScreenRun {
    let server: PrivateSoundServer
    let directory: URL
    let pane: TmuxPane

    init() throws {
        let server = try PrivateSoundServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fullscreen-demo-\(UUID().uuidString)")
        self.server = server
        self.directory = directory
        do {
            let runtime = directory.appendingPathComponent("runtime")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
            func path(_ name: String) -> String { Self.quoted(directory.appendingPathComponent(name).path) }
            let command = "PULSE_SERVER=\(Self.quoted(server.address)) XDG_RUNTIME_DIR=\(Self.quoted(runtime.path)) "
                + "LANG=C.UTF-8 \(Self.quoted(demo)) 2>\(path("stderr")); echo $? >\(path("status")); "
                + "stty -a >\(path("stty.tmp")); mv \(path("stty.tmp")) \(path("stty"))"
            pane = try TmuxPane(command: command)
        } catch {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        pane.kill()
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The words of `stty -a` as the pane's shell saw the terminal after the demo, once written.
    func settingsAfterExit() -> [String]? {
        var text: String?
        _ = eventually {
            text = try? String(contentsOf: directory.appendingPathComponent("stty"), encoding: .utf8)
            return text != nil
        }
        return text.map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    }

    /// The demo's exit status as the shell printed it (after ``settingsAfterExit()``).
    func exitStatus() -> String? {
        try? String(contentsOf: directory.appendingPathComponent("status"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A detached tmux session on a private server socket (`tmux -L`), one pane
/// running a command; the server is killed when this goes away.
final class TmuxPane {
    /// The tmux executable, nil when not installed.
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    let socket = "soundengine-demo-\(getpid())-\(UUID().uuidString.prefix(8))"

    init(command: String, width: Int = 80, height: Int = 24) throws {
        try tmux("-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", command)
    }

    deinit { kill() }

    /// Ends the session and its private tmux server (and so the pane's processes).
    func kill() { _ = try? tmux("kill-server") }

    @discardableResult
    func tmux(_ arguments: String...) throws -> String {
        guard let tmux = Self.tmux else { throw ServerError("tmux is not installed") }
        return try Subprocess.run([tmux, "-L", socket] + arguments)
    }

    /// Types `keys` (tmux key names: `"q"`, `"C-c"`, `"Up"`).
    func send(_ keys: String...) throws {
        for key in keys { try tmux("send-keys", "-t", "0", key) }
    }

    /// The pane's text now (empty once the pane has gone).
    func capture() -> String { (try? tmux("capture-pane", "-p", "-t", "0")) ?? "" }

    /// The first screen `condition` accepts within `seconds`, polled; nil when none did.
    func waitForScreen(within seconds: Double = 10, _ condition: (String) -> Bool) -> String? {
        var screen: String?
        _ = eventually(within: seconds) {
            let now = capture()
            guard condition(now) else { return false }
            screen = now
            return true
        }
        return screen
    }
}
