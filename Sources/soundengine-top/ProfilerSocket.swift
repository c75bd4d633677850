import Glibc

/// A connection to a game's profiling socket (a Unix-domain stream socket):
/// non-blocking, read as newline-delimited lines, written a command a line.
final class ProfilerSocket {
    /// Why a connection could not be made or broke.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The longest line the tool accepts before it gives up on the link (a
    /// `voices` picture of thousands of voices fits; a runaway line does not).
    static let maximumLineLength = 8 << 20

    let descriptor: Int32
    let path: String
    private var pending: [UInt8] = []

    /// Connects to the socket at `path`.
    init(path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw Failure(description: "socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot connect to \(path): \(reason)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// The complete lines that arrived, in order (empty when none did); nil
    /// when the game closed the link (it quit or crashed) or a line was too long.
    func readLines() -> [String]? {
        var lines: [String] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if n == 0 { return lines.isEmpty ? nil : lines }  // the rest is taken on the next call, which sees EOF again
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return lines }
                return lines.isEmpty ? nil : lines
            }
            pending.append(contentsOf: chunk[0..<n])
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[start..<newline], as: UTF8.self))
                start = newline + 1
            }
            pending.removeFirst(start)
            if pending.count > Self.maximumLineLength { return nil }
        }
    }

    /// Waits up to `milliseconds` for the first complete line (the `hello`).
    func firstLine(within milliseconds: Int32) -> String? {
        var deadline = milliseconds
        while deadline > 0 {
            var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let started = Self.nowMilliseconds()
            let ready = poll(&fd, 1, deadline)
            deadline -= Int32(clamping: Self.nowMilliseconds() - started)
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            guard let lines = readLines() else { return nil }
            if let first = lines.first { return first }
        }
        return nil
    }

    /// Sends `line` and a newline; false when the link is gone.
    @discardableResult
    func send(_ line: String) -> Bool {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                bytes = bytes.dropFirst(n)
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var fd = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                guard poll(&fd, 1, 1000) > 0 else { return false }
            } else {
                return false
            }
        }
        return true
    }

    static func nowMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
