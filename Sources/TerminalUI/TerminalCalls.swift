import Glibc

/// Every C call TerminalUI makes, in one place (the swift-system habit): the
/// rest of the layer speaks Swift types and never touches `termios` or
/// `ioctl` directly.
enum TerminalCalls {
    /// The terminal attributes of `descriptor` (`tcgetattr(3)`), nil when it is not a terminal.
    static func attributes(of descriptor: Int32) -> termios? {
        var attributes = termios()
        return tcgetattr(descriptor, &attributes) == 0 ? attributes : nil
    }

    /// `attributes` made raw as `cfmakeraw(3)` does (no echo, no canonical
    /// lines, no signals from keys, 8-bit), but output post-processing is kept
    /// off too and reads return at once with whatever is there (`VMIN` 0, `VTIME` 0).
    static func raw(_ attributes: termios) -> termios {
        var raw = attributes
        cfmakeraw(&raw)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// Sets `attributes` on `descriptor` after pending output is written (`TCSADRAIN`).
    @discardableResult
    static func set(_ attributes: termios, on descriptor: Int32) -> Bool {
        var copy = attributes
        return tcsetattr(descriptor, TCSADRAIN, &copy) == 0
    }

    /// The window size of `descriptor` (`ioctl(TIOCGWINSZ)`), nil when unknown or zero.
    static func windowSize(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        guard status == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes all of `bytes` to `descriptor` (`write(2)`, retried on `EINTR`
    /// and short writes); false when the descriptor refuses.
    @discardableResult
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if n > 0 {
                offset += n
            } else if !(n < 0 && errno == EINTR) {
                return false
            }
        }
        return true
    }

    /// Reads what is there on `descriptor` (`read(2)`), at most `limit` bytes;
    /// empty when nothing is, nil at end of file or on an error other than `EINTR`/`EAGAIN`.
    static func readAvailable(from descriptor: Int32, limit: Int = 4096) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n > 0 { return Array(buffer[0..<n]) }
            if n == 0 { return nil }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? [] : nil
        }
    }

    /// Installs `handler` for `signal` with `sigaction(2)`; `restart` sets `SA_RESTART`.
    static func install(_ handler: @convention(c) (Int32) -> Void, for signal: Int32, restart: Bool) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = restart ? SA_RESTART : 0
        sigaction(signal, &action, nil)
    }

    /// Puts back the default disposition of `signal` (`SIG_DFL`).
    static func resetToDefault(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// A pipe whose both ends are close-on-exec and non-blocking (`pipe(2)`, `fcntl(2)`).
    static func nonBlockingPipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// Whether `descriptor` is a terminal (`isatty(3)`).
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
}
