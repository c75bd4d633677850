import Foundation

/// A TCP socket on loopback that accepts connections (the kernel completes
/// the handshake) and never answers: a "silent server", for proving that
/// connecting times out instead of hanging, and cleans up after itself.
public final class SilentListener: @unchecked Sendable {
    // @unchecked: both properties are immutable after init.
    /// The listening socket.
    public let fd: Int32
    /// The loopback port it listens on; address it as `tcp:127.0.0.1:PORT`.
    public let port: UInt16

    /// Binds an ephemeral port on 127.0.0.1 and listens.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0, listen(fd, 4) == 0 else {
            Glibc.close(fd)
            throw ServerError("cannot listen on loopback")
        }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        self.fd = fd
        port = UInt16(bigEndian: addr.sin_port)
    }

    /// The server address libpulse understands.
    public var address: String { "tcp:127.0.0.1:\(port)" }

    /// Waits up to `seconds` for a client to connect and accepts it; returns
    /// the connection (close it when done) or nil if nobody connected.
    public func acceptClient(within seconds: Double) -> Int32? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(seconds * 1000)) > 0 else { return nil }
        let client = accept(fd, nil, nil)
        return client >= 0 ? client : nil
    }

    /// Stops listening.
    public func close() { Glibc.close(fd) }
}
