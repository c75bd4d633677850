import Foundation
import Glibc
import SoundServerSupport
import Testing

/// soundengine-top attached to the real engine: the IntegrationDemo,
/// headless, with `SOUNDENGINE_PROFILER=1`, on a private sound server, the
/// tool in a tmux pane. Issue 19: the screen shows the new route when a
/// null sink is plugged, a voice appears when an event is posted, and the
/// terminal is restored after Ctrl-C.
///
/// Skipped (passing trivially) when the demo opens no profiling socket
/// within 5 s: a build without the engine side of the link.
@Suite(.serialized, .enabled(if: TmuxPane.isAvailable, "no tmux (Scripts/install-deps installs it)"))
struct LiveTopTests {
    static let usbHeadphones = ["device.description": "USB Headphones", "device.bus": "usb", "device.form_factor": "headphone"]

    @Test func theScreenShowsTheNewRouteWhenUSBHeadphonesArePlugged() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try ScratchFolder()
        let demo = try LiveDemo(["--headless", "--loop", "--category", "playback"], server: server.address, runtime: runtime.path)
        defer { demo.quit() }
        #expect(demo.waitForSocket(within: 10), "the demo opened no profiling socket")

        let pane = try TmuxPane(toolCommand(["--pid", "\(demo.pid)"], runtime: runtime.path))
        pane.waitFor("Category", "playback", "uid speaker", "LIVE", within: 10)

        let headphones = try server.addOutput(name: "usbhp", properties: Self.usbHeadphones)
        defer { try? headphones.remove() }
        pane.waitFor("uid usbhp", within: 5)
        pane.waitUntilGone("uid speaker")
        try pane.send("5")
        pane.waitFor("routeChange", "newDeviceAvailable")

        try pane.quitTool(with: "C-c", runtime: runtime.path)
    }

    @Test func aVoiceAppearsWhenAnEventIsPosted() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let runtime = try ScratchFolder()
        let demo = try LiveDemo(["--headless", "--bank", LiveDemo.bank], server: server.address, runtime: runtime.path)
        defer { demo.quit() }
        #expect(demo.waitForSocket(within: 10), "the demo opened no profiling socket")

        let pane = try TmuxPane(toolCommand(["--socket", demo.socketPath], runtime: runtime.path))
        pane.waitFor("Category", "LIVE", within: 10)
        try pane.send("2")
        pane.waitFor("No voices playing")

        try demo.send(#"{"cmd":"postEvent","event":"Play_Engine","id":"engine"}"#)  // a loop: the voice stays
        let result = try #require(demo.line(within: 10) { $0.contains(#""id":"engine""#) && $0.contains(#""event":"result""#) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any])
        let playingID = try #require(object["playingID"] as? Int, "\(result)")
        pane.waitFor("Play_Engine", " \(playingID) ", "1 active", within: 5)

        try pane.quitTool(with: "C-c", runtime: runtime.path)
    }
}

/// The IntegrationDemo, headless, its profiling link on, in a runtime folder
/// of the test's own, commands written to its stdin, stdout read as lines.
final class LiveDemo {
    /// The built demo, next to the test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("IntegrationDemo").path
    /// The demo bank of the source tree.
    static let bank = PrivateSoundServer.repositoryRoot + "/Examples/Banks/demo/demo.json"

    private let child: Subprocess
    private var input: Int32
    private var pending = Data()
    private(set) var lines: [String] = []
    let runtime: String

    init(_ arguments: [String], server: String, runtime: String) throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw FakeGameError("pipe failed: \(errno)") }
        defer { close(ends[0]) }  // the child has its copy; Subprocess closes the rest of ours in the child
        do {
            child = try Subprocess(
                [Self.executable] + arguments,
                extraEnvironment: ["PULSE_SERVER": server, "SOUNDENGINE_PROFILER": "1", "XDG_RUNTIME_DIR": runtime], stdin: ends[0])
        } catch {
            close(ends[1])
            throw error
        }
        input = ends[1]
        self.runtime = runtime
    }

    deinit { quit() }

    var pid: pid_t { child.pid }
    /// Where docs/profiling.md puts the demo's socket.
    var socketPath: String { "\(runtime)/soundengine/\(pid).sock" }

    /// Whether the socket exists within `seconds`.
    func waitForSocket(within seconds: Double) -> Bool {
        eventually(within: seconds) {
            var info = stat()
            return stat(socketPath, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
        }
    }

    /// Writes `line` and a newline to the demo's stdin.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw FakeGameError("cannot write to the demo: \(errno)") }
    }

    /// The first stdout line `match` accepts, reading as lines come, within `seconds`.
    func line(within seconds: Double, where match: (String) -> Bool) -> String? {
        var next = 0
        var found: String?
        _ = eventually(within: seconds) {
            readAvailable()
            while next < lines.count {
                defer { next += 1 }
                if match(lines[next]) {
                    found = lines[next]
                    return true
                }
            }
            return false
        }
        return found
    }

    private func readAvailable() {
        var fd = pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0)
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while poll(&fd, 1, 0) > 0 {
            let n = chunk.withUnsafeMutableBytes { read(child.stdout, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            pending.append(contentsOf: chunk[0..<n])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
    }

    /// Asks the demo to quit, then makes sure it is gone (killed if it does not end in 5 s).
    func quit() {
        guard input >= 0 else { return }
        try? send(#"{"cmd":"quit","id":"quit"}"#)
        close(input)
        input = -1
        if !eventually(within: 5, { readAvailable(); return child.tryWait() != nil }) { child.kill() }
    }
}
