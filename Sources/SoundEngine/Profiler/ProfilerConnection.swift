/// One tool attached to the link: its socket, what it has sent so far, what
/// waits to be written to it, and what it was last sent of the messages
/// sent only on change. Used by the link's thread only.
final class ProfilerConnection {
    let fd: Int32
    var reader = ProfilerLineReader()
    var output: ProfilerOutputBuffer
    /// Samples per second of `voices`, `buses`, `performance` (1…30).
    var rate: Int
    var nextSample = ContinuousClock.now
    /// Cleared when the tool hangs up, the socket fails, or a line is too long.
    var isOpen = true
    private var lastSession: Substring?
    private var lastSyncs: Substring?

    init(fd: Int32, capacity: Int, rate: Int) {
        self.fd = fd
        output = ProfilerOutputBuffer(capacity: capacity)
        self.rate = rate
    }

    /// Queues `line`, or drops it (counted) when the buffer is full.
    func send(_ line: String) {
        output.append(line: line.utf8)
    }

    /// Queues a `performance` message with this connection's drop count.
    func send(performance: ProfilerMessage) {
        var message = performance
        message.add("dropped", json: String(output.dropped))
        send(message.line)
    }

    /// Queues `session` when it differs from the last one queued (its time aside).
    func sendIfChanged(session: String) {
        if Self.body(session) != lastSession, output.append(line: session.utf8) { lastSession = Self.body(session) }
    }

    /// Queues `syncs` when it differs from the last one queued (its time aside).
    func sendIfChanged(syncs: String) {
        if Self.body(syncs) != lastSyncs, output.append(line: syncs.utf8) { lastSyncs = Self.body(syncs) }
    }

    /// Writes what the socket takes now.
    func flush() {
        guard isOpen else { return }
        output.flush { bytes in
            switch ProfilerSystem.write(fd, bytes) {
            case .bytes(let n): return n
            case .wouldBlock: return 0
            case .closed:
                isOpen = false
                return 0
            }
        }
    }

    func close() { ProfilerSystem.close(fd) }

    /// A message without its `"t"`: what follows the first field after it.
    private static func body(_ line: String) -> Substring {
        guard let tField = line.range(of: ",\"t\":"), let comma = line[tField.upperBound...].firstIndex(of: ",") else {
            return Substring(line)
        }
        return line[comma...]
    }
}
