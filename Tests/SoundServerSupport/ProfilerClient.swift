import Foundation
import Glibc

/// A tool attached to a game's profiler link (docs/profiling.md), as the
/// tests drive it: connects to the socket, sends command lines, and reads the
/// engine's messages as they come, each with the moment it was read. Every
/// wait has a deadline. One thread at a time.
public final class ProfilerClient: @unchecked Sendable {
    // @unchecked: used by one thread at a time (the test's, or a reader
    // thread it starts and joins).
    private let fd: Int32
    private var pending: [UInt8] = []
    /// Set when the engine closed the connection (or it failed).
    public private(set) var closed = false
    /// Every message read so far, with the moment it was read.
    public private(set) var messages: [(at: ContinuousClock.Instant, object: [String: Any])] = []
    /// The first message ``next(within:where:)`` has not looked at.
    private var cursor = 0

    /// The socket of the process `pid` under `runtimeDirectory` (its `XDG_RUNTIME_DIR`).
    public static func socketPath(runtimeDirectory: String, pid: pid_t) -> String {
        runtimeDirectory + "/soundengine/\(pid).sock"
    }

    /// Connects to `path`; throws when connect(2) fails.
    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ServerError("connect \(path): \(String(cString: strerror(code)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Sends raw bytes (a command line needs its own `\n`); false when the socket refused them.
    @discardableResult
    public func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        let deadline = ContinuousClock.now + .seconds(5)
        while !bytes.isEmpty && ContinuousClock.now < deadline {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                bytes = bytes.dropFirst(n)
            } else if n < 0 && errno != EAGAIN {
                return false
            } else {
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, 100)
            }
        }
        return bytes.isEmpty
    }

    /// The first message not yet looked at that `match` accepts, within
    /// `timeout`; the messages before it are passed over for good. Throws
    /// when none comes.
    public func next(
        within timeout: Duration = .seconds(5), where match: ([String: Any]) -> Bool = { _ in true }
    ) throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            while cursor < messages.count {
                defer { cursor += 1 }
                if match(messages[cursor].object) { return messages[cursor].object }
            }
            guard readMore(until: deadline) else {
                throw ServerError("no matching profiler message within \(timeout)\(closed ? " (the link closed)" : "")")
            }
        }
    }

    /// The next message of `type`.
    public func next(_ type: String, within timeout: Duration = .seconds(5)) throws -> [String: Any] {
        try next(within: timeout) { $0["type"] as? String == type }
    }

    /// Reads until the engine closes the connection, within `timeout`; whether it did.
    public func waitForClose(within timeout: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !closed && readMore(until: deadline) {}
        return closed
    }

    /// Reads what arrives before `deadline`; false when nothing more can come by then.
    private func readMore(until deadline: ContinuousClock.Instant) -> Bool {
        while !closed {
            let left = deadline - .now
            guard left > .zero else { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&pfd, 1, min(ms, 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 {
                if n < 0 && errno == EAGAIN { continue }
                closed = true
                return false
            }
            let now = ContinuousClock.now
            pending += chunk[..<n]
            var got = false
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                    messages.append((now, object))
                    got = true
                }
            }
            if got { return true }
        }
        return false
    }
}
