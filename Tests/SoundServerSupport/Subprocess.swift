import CTestSupport
import Foundation
import Glibc

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Foundation's `Process.waitUntilExit` depends on SIGCHLD bookkeeping that
/// can miss a child when many come and go (seen hanging here once); this is
/// the plain POSIX path. The child gets stdin from /dev/null (or a given
/// descriptor), stdout (and
/// optionally stderr) on pipes, no other descriptor of ours
/// (`closefrom(3)`), and an empty signal mask (a test runner blocks SIGTERM,
/// and children inherit the mask).
public final class Subprocess: @unchecked Sendable {
    // @unchecked: `pid` is set once in init; `reaped`/`status` are only
    // touched by wait(), which callers use from one task.
    public let pid: pid_t
    /// Read end of the child's stdout.
    public let stdout: Int32
    /// Read end of the child's stderr, or -1 when it goes to /dev/null.
    public let stderr: Int32
    private var status: Int32?

    /// Starts `arguments[0]` (looked up in PATH) with `extraEnvironment` added.
    /// `stdin`, when given, becomes the child's standard input (the caller
    /// keeps its own copy and closes it); otherwise the child reads /dev/null.
    public init(
        _ arguments: [String], extraEnvironment: [String: String] = [:], captureStderr: Bool = true,
        stdin: Int32? = nil
    ) throws {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard se_pipe_cloexec(&outPipe) == 0 else { throw ServerError("pipe2 failed: \(errno)") }
        if captureStderr, se_pipe_cloexec(&errPipe) != 0 { throw ServerError("pipe2 failed: \(errno)") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        if captureStderr {
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
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

        let environment = ProcessInfo.processInfo.environment.merging(extraEnvironment) { $1 }
            .map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp) }
        }
        close(outPipe[1])
        if captureStderr { close(errPipe[1]) }
        guard result == 0 else {
            close(outPipe[0])
            if captureStderr { close(errPipe[0]) }
            throw ServerError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        pid = child
        stdout = outPipe[0]
        stderr = captureStderr ? errPipe[0] : -1
    }

    deinit {
        if status == nil { Glibc.kill(pid, SIGKILL); _ = wait() }
        close(stdout)
        if stderr >= 0 { close(stderr) }
    }

    /// Reaps the child and returns its exit status (128 + signal if killed).
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = code
        return code
    }

    /// Reaps the child if it has exited, without waiting; `nil` while it runs.
    public func tryWait() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &raw, WNOHANG) } while reaped < 0 && errno == EINTR
        guard reaped == pid else { return nil }
        let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = code
        return code
    }

    /// Kills the child with SIGKILL and reaps it.
    public func kill() {
        if status == nil { Glibc.kill(pid, SIGKILL) }
        wait()
    }

    /// Reads `fd` to end of file.
    public static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: buffer[0..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return data
    }

    /// Runs a program to completion; returns stdout, throws with stderr on a non-zero exit.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let child = try Subprocess(arguments, extraEnvironment: environment)
        var out = Data()
        var err = Data()
        var fds = [pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: child.stderr, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16_384)
        // Drain both pipes together so a chatty child never blocks on a full one.
        while fds.contains(where: { $0.fd >= 0 }) {
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    if i == 0 { out.append(contentsOf: buffer[0..<n]) } else { err.append(contentsOf: buffer[0..<n]) }
                } else if n == 0 || errno != EINTR {
                    fds[i].fd = -1
                }
            }
        }
        let status = child.wait()
        guard status == 0 else {
            throw ServerError("\(arguments.joined(separator: " ")) exited \(status): \(String(decoding: err, as: UTF8.self))")
        }
        return String(decoding: out, as: UTF8.self)
    }
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

