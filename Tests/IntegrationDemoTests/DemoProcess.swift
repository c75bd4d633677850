import CTestSupport  // reached through SoundServerSupport: pipe2(O_CLOEXEC), closefrom
import Foundation
import Glibc
@testable import IntegrationDemo
import Testing

/// The headless demo driven like a QA script drives it: commands written to
/// its stdin, stdout read line by line as it comes, every wait bounded by a
/// deadline (never a fixed sleep).
///
/// SoundServerSupport's `Subprocess` gives the child /dev/null as stdin, and
/// another change is under way there, so this keeps its own spawn (the same
/// posix_spawn path: no inherited descriptors, empty signal mask).
final class DemoProcess {
    let pid: pid_t
    private var input: Int32
    private let output: Int32
    private let errors: Int32
    private var pending = Data()
    private var atEndOfOutput = false
    private var status: Int32?
    /// Every stdout line so far, in order.
    private(set) var lines: [String] = []

    init(_ arguments: [String], server: String) throws {
        // A write to a demo that already exited must fail with EPIPE, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        for i in 0..<3 {
            let ok = i == 0 ? se_pipe_cloexec(&inPipe) : i == 1 ? se_pipe_cloexec(&outPipe) : se_pipe_cloexec(&errPipe)
            guard ok == 0 else { throw DemoProcessError("pipe2 failed: \(errno)") }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        se_spawn_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([demo] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.merging(["PULSE_SERVER": server]) { $1 }
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, demo, &actions, &attributes, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            [inPipe[1], outPipe[0], errPipe[0]].forEach { close($0) }
            throw DemoProcessError("cannot start \(demo): \(String(cString: strerror(result)))")
        }
        pid = child
        input = inPipe[1]
        output = outPipe[0]
        errors = errPipe[0]
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        }
        if input >= 0 { close(input) }
        close(output)
        close(errors)
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
        var raw: Int32 = 0
        while ContinuousClock.now < deadline {
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid {
                let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                status = code
                return code
            }
            if reaped < 0 && errno != EINTR { return nil }
            _ = poll(nil, 0, 10)  // stdout ended; the exit follows within moments
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        status = 128 + SIGKILL
        return nil
    }

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
