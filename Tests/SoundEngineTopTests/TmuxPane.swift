import Foundation
import Glibc
import SoundServerSupport
import Testing

/// A program in a private tmux server's pane of 80×24 (or another size): the
/// pseudo-terminal the terminal tests drive. Keys go in with `send-keys`, the
/// screen comes out with `capture-pane -p`; every wait polls the pane against
/// a deadline.
final class TmuxPane {
    /// The private server's socket name (`tmux -L`).
    let server: String

    /// Whether tmux is installed (the terminal tests need it).
    static let isAvailable: Bool = (try? Subprocess.run(["tmux", "-V"])) != nil

    /// Starts `command` (a shell command line) in a new detached session.
    init(_ command: String, width: Int = 80, height: Int = 24) throws {
        server = "se-top-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        _ = try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", command])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    private func tmux(_ arguments: [String]) throws -> String {
        try Subprocess.run(["tmux", "-L", server] + arguments)
    }

    /// The text on the pane now, one string a row.
    func capture() -> String { (try? tmux(["capture-pane", "-p"])) ?? "" }

    /// Resizes the pane's window (the program gets `SIGWINCH`).
    func resize(width: Int, height: Int) throws {
        _ = try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Sends keys, in tmux's names (`Enter`, `C-c`, `Down`, or literal text).
    func send(_ keys: String...) throws { _ = try tmux(["send-keys"] + keys) }

    /// Waits until the pane shows every one of `texts`, within `seconds`; the
    /// last capture is in the failure message.
    @discardableResult
    func waitFor(_ texts: String..., within seconds: Double = 5, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var screen = ""
        let shown = eventually(within: seconds) {
            screen = capture()
            return texts.allSatisfy { screen.contains($0) }
        }
        #expect(shown, "the pane did not show \(texts) within \(seconds) s; it shows:\n\(screen)", sourceLocation: sourceLocation)
        return shown
    }

    /// Sends `key` (`q`, `C-c`) to the tool and checks it exited as it should:
    /// the shell's marker shows, the tool's pages are gone (the alternate
    /// screen is left), and `stty` found the terminal cooked again.
    func quitTool(with key: String, runtime: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try send(key)
        waitFor("TOOL-EXITED", sourceLocation: sourceLocation)
        waitUntilGone("1 Session  2 Voices", sourceLocation: sourceLocation)
        #expect(terminalWasRestored(runtime: runtime), "stty -a after the tool exited", sourceLocation: sourceLocation)
    }

    /// Waits until the pane no longer shows `text`.
    @discardableResult
    func waitUntilGone(_ text: String, within seconds: Double = 5, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var screen = ""
        let gone = eventually(within: seconds) {
            screen = capture()
            return !screen.contains(text)
        }
        #expect(gone, "the pane still shows \(text); it shows:\n\(screen)", sourceLocation: sourceLocation)
        return gone
    }
}

/// The built tool, next to the test bundle.
let soundEngineTop = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("soundengine-top").path

/// A folder of the test's own, removed with its contents when released.
final class ScratchFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/se-top-test.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw FakeGameError("mkdtemp failed: \(errno)") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// `text` quoted for `sh`.
func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

/// The shell command the terminal tests run in a pane: the tool with
/// `arguments` in `runtime` as its `XDG_RUNTIME_DIR`, then, once it exited,
/// the terminal's settings into `runtime/stty` and a marker on the (main)
/// screen, then a `cat` that keeps the pane open.
func toolCommand(_ arguments: [String], runtime: String, locale: String = "C.UTF-8") -> String {
    let tool = ([soundEngineTop] + arguments).map(shellQuoted).joined(separator: " ")
    return "env XDG_RUNTIME_DIR=\(shellQuoted(runtime)) LANG=\(locale) LC_ALL= TERM=xterm-256color \(tool); "
        + "stty -a > \(shellQuoted(runtime + "/stty")); echo TOOL-EXITED; exec cat"
}

/// What `stty -a` wrote after the tool exited: whether the terminal is back to cooked mode.
func terminalWasRestored(runtime: String) -> Bool {
    guard let settings = try? String(contentsOfFile: runtime + "/stty", encoding: .utf8) else { return false }
    let words = Set(settings.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
    return words.contains("icanon") && words.contains("echo") && words.contains("isig") && !words.contains("-icanon")
}
