import Glibc

// The C calls of waiting for input (kept beside TerminalCalls, its own file so
// that file stays as its author wrote it).
extension TerminalCalls {
    /// Waits until one of `descriptors` is readable or `milliseconds` pass
    /// (`poll(2)`, retried on `EINTR` with the full timeout, which only
    /// shortens nothing: a signal here is a resize, and its pipe is polled too).
    /// Returns the descriptors that are readable (or hung up).
    static func waitForReadable(_ descriptors: [Int32], milliseconds: Int32) -> [Int32] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return [] }
            return fds.filter { $0.revents != 0 }.map(\.fd)
        }
    }

    /// Writes one byte to `descriptor` (`write(2)`); a full pipe already
    /// holds a wake-up, so failure is ignored.
    static func writeByte(to descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// `close(2)`.
    static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
}
