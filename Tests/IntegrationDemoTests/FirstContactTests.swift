import Foundation
import SoundServerSupport
import Synchronization
import Testing

/// What someone new meets first: the README's first example and the set-up
/// scripts.
@Suite struct FirstContactTests {
    static let root = PrivateSoundServer.repositoryRoot

    /// The lines of the README's first ```swift block.
    static func readmeFirstExample() throws -> [Substring] {
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "```swift"), "the README has no swift block")
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"), "the README's swift block does not end")
        return Array(lines[(start + 1)..<end])
    }

    @Test func theReadmesFirstExampleIsTheFirstSoundTargetWordForWord() throws {
        let source = try String(contentsOfFile: Self.root + "/Examples/FirstSound/main.swift", encoding: .utf8)
        // The file is the README's code after a header of `//` lines.
        var code = Array(source.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("//") })
        while code.last?.isEmpty == true { code.removeLast() }
        #expect(code == (try Self.readmeFirstExample()))
    }

    @Test func theFirstExamplePlaysTheChimeUntilItEnds() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let recorder = try server.record()
        defer { recorder.stop() }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("FirstSound").path
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build the FirstSound product first")
        let started = ContinuousClock.now
        // Run where the README says: in the repository root.
        let example = try Subprocess(
            ["/bin/sh", "-c", #"cd "$0" && exec "$1""#, Self.root, binary],
            extraEnvironment: ["PULSE_SERVER": server.address])
        let exit = Mutex<(status: Int32, ran: Duration)?>(nil)
        let waiter = Thread {
            let status = example.wait()
            exit.withLock { $0 = (status, ContinuousClock.now - started) }
        }
        waiter.start()
        // The chime is above 0.01 per channel for its first 0.85 s.
        let heard = recorder.waitForLevel(windows: 8) { $0.allSatisfy { $0 > 0.01 } }
        #expect(heard.met, "the example played nothing: monitor RMS \(heard.rms)")
        guard eventually(within: 10, { exit.withLock { $0 } != nil }) else {
            kill(example.pid, SIGKILL)  // the waiter thread reaps it
            Issue.record("the example did not end")
            return
        }
        let stderr = String(decoding: Subprocess.readAll(example.stderr), as: UTF8.self)
        guard let (status, ran) = exit.withLock({ $0 }) else { return }
        #expect(status == 0, "stderr: \(stderr)")
        // It waits for the 1.45 s chime (its last frames render up to a
        // buffer early) and then ends, without lingering.
        #expect(ran > .seconds(1.4) && ran < .seconds(5), "the example ran for \(ran)")
    }

    /// The set-up scripts run against stubs (apt-get, dpkg-query, sudo,
    /// swift, pactl and a demo that print like the real ones) in front of
    /// PATH: their own chatter must go to stderr, stdout carries only what
    /// the program they run prints.
    @Test func setUpScriptsKeepStdoutForTheProgramsOutput() throws {
        let stubs = FileManager.default.temporaryDirectory.appendingPathComponent("setup-stubs-\(UUID())").path
        try FileManager.default.createDirectory(atPath: stubs + "/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: stubs) }
        let scripts: [String: String] = [
            // Nothing is installed: install-deps installs everything, as on a first run.
            "dpkg-query": "exit 1",
            "apt-get": #"echo "Reading package lists... Done"; echo "Setting up $*""#,
            "sudo": #"exec "$@""#,
            "pactl": "exit 0",  // a server is running: the demo runs directly
            "swift": """
                case "$*" in
                "build --show-bin-path") echo "\(stubs)/bin" ;;
                build*) echo "Building for debugging..."; echo "Build complete!" ;;
                test*) echo "TEST RESULTS $*" ;;
                esac
                """,
            "bin/IntegrationDemo": #"echo "{\"event\":\"engineState\",\"args\":\"$*\"}""#,
        ]
        for (name, body) in scripts {
            let path = stubs + "/" + name
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        let path = stubs + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        func run(_ script: String, _ arguments: String...) throws -> (stdout: String, stderr: String) {
            let child = try Subprocess([Self.root + "/Scripts/" + script] + arguments, extraEnvironment: ["PATH": path])
            let out = Subprocess.readAll(child.stdout)
            let err = Subprocess.readAll(child.stderr)
            let status = child.wait()
            let result = (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
            #expect(status == 0, "\(script): \(result)")
            return result
        }

        let deps = try run("install-deps")
        #expect(deps.stdout.isEmpty, "install-deps printed on stdout: \(deps.stdout)")
        #expect(deps.stderr.contains("Reading package lists"), "apt-get's log went nowhere: \(deps.stderr)")

        let demo = try run("demo", "--headless", "--seconds", "1")
        #expect(demo.stdout == #"{"event":"engineState","args":"--headless --seconds 1"}"# + "\n", "demo's stdout: \(demo.stdout)")
        #expect(demo.stderr.contains("Reading package lists") && demo.stderr.contains("Build complete"), "\(demo.stderr)")

        let test = try run("test", "--filter", "X")
        #expect(test.stdout == "TEST RESULTS test --filter X\n", "test's stdout: \(test.stdout)")
    }
}
