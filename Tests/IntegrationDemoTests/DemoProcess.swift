import CTestSupport  // reached through SoundServerSupport: pipe2(O_CLOEXEC)
import Foundation
import Glibc
import SoundServerSupport
@testable import IntegrationDemo
import Testing

/// The headless demo driven like a QA script drives it: commands written to
/// its stdin, stdout read line by line as it comes, every wait bounded by a
/// deadline (never a fixed sleep). Spawned by SoundServerSupport's
/// `Subprocess`, with a pipe of its own as the demo's stdin.
final class DemoProcess {
    private let child: Subprocess
    private var input: Int32
    private var output: Int32 { child.stdout }
    private var errors: Int32 { child.stderr }
    private var pending = Data()
    private var atEndOfOutput = false
    /// Every stdout line so far, in order.
    private(set) var lines: [String] = []

    /// Starts the demo on `server`; `environment` adds to the test's (a
    /// private `XDG_RUNTIME_DIR`: the demo's journal of what it holds lives there).
    init(_ arguments: [String], server: String, environment: [String: String] = [:]) throws {
        // A write to a demo that already exited must fail with EPIPE, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        var inPipe: [Int32] = [-1, -1]
        guard se_pipe_cloexec(&inPipe) == 0 else { throw DemoProcessError("pipe2 failed: \(errno)") }
        defer { close(inPipe[0]) }  // the child has its own copy
        do {
            child = try Subprocess(
                [demo] + arguments, extraEnvironment: environment.merging(["PULSE_SERVER": server]) { $1 },
                stdin: inPipe[0])
        } catch {
            close(inPipe[1])
            throw error
        }
        input = inPipe[1]
    }

    deinit {
        if input >= 0 { close(input) }
        // Subprocess's deinit kills and reaps a demo still running and closes its pipes.
    }

    /// Writes each line, newline-terminated, to the demo's stdin.
    func send(_ commands: String...) throws {
        var bytes = Array(commands.map { $0 + "\n" }.joined().utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes = bytes.dropFirst(n)
            } else if !(n < 0 && errno == EINTR) {
                throw DemoProcessError("cannot write to the demo's stdin: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Closes the demo's stdin: end of file, no more commands.
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Reads what stdout has until `deadline`; false at end of output or when time is up.
    @discardableResult
    private func readMore(until deadline: ContinuousClock.Instant) -> Bool {
        while !atEndOfOutput {
            let left = deadline - .now
            guard left > .zero else { return false }
            var pfd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ms = Int32(clamping: min(1000, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            let ready = poll(&pfd, 1, ms)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                atEndOfOutput = true
                return false
            }
            pending.append(contentsOf: chunk[0..<n])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
            return true
        }
        return false
    }

    /// Where the next stdout line will be: take it before sending a command,
    /// then look for what the command causes from there.
    var mark: Int { lines.count }

    /// The first stdout line at or after `start` that `match` accepts, within
    /// `timeout`. Events and results are not ordered with each other, so
    /// callers look from a mark rather than consuming lines.
    func firstLine(
        from start: Int = 0, within timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation, where match: ([String: Any]) -> Bool
    ) throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        var next = start
        while true {
            while next < lines.count {
                let object = try parse(lines[next], sourceLocation: sourceLocation)
                next += 1
                if match(object) { return object }
            }
            if !readMore(until: deadline) && next == lines.count {
                throw DemoProcessError(
                    "no matching line within \(timeout)\(atEndOfOutput ? " (stdout ended)" : ""); got:\n"
                        + lines.joined(separator: "\n") + "\nstderr: " + readErrors())
            }
        }
    }

    /// The result line of the command whose id is the JSON text `id` (ids are unique in a test).
    func result(id: String, within timeout: Duration = .seconds(10)) throws -> [String: Any] {
        try firstLine(within: timeout) { $0["event"] as? String == "result" && Self.idText($0) == id }
    }

    /// Reads stdout to its end and reaps the demo, within `timeout`; nil (and
    /// the demo killed) if it does not end by then.
    func waitForExit(within timeout: Duration = .seconds(15)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while !atEndOfOutput && ContinuousClock.now < deadline { readMore(until: deadline) }
        while ContinuousClock.now < deadline {
            if let code = child.tryWait() { return code }
            _ = poll(nil, 0, 10)  // stdout ended; the exit follows within moments
        }
        child.kill()
        return nil
    }

    /// The demo's process ID.
    var pid: pid_t { child.pid }

    /// Kills the demo at once (SIGKILL), as a crash would, and reaps it.
    func crash() { child.kill() }

    /// What the demo wrote on stderr (call after it exited).
    func readErrors() -> String {
        var flags = fcntl(errors, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(errors, F_SETFL, flags)
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            data.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The `id` of a parsed result line as JSON text (`"x"`, `2`), nil without one.
    static func idText(_ object: [String: Any]) -> String? {
        guard let id = object["id"] else { return nil }
        if let s = id as? String { return JSONLine.quote(s) }
        if id is NSNull { return "null" }
        if let n = id as? NSNumber { return "\(n)" }
        return nil
    }

    private func parse(_ line: String, sourceLocation: SourceLocation) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)",
            sourceLocation: sourceLocation)
    }
}

struct DemoProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
