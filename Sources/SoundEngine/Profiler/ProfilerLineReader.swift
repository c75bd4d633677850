/// Splits what a tool sends into lines (the protocol's commands, one per
/// `\n`), refusing a line longer than ``limit`` bytes: nothing the protocol
/// sends is that long, so such a line means the peer is not speaking it, and
/// the link closes the connection rather than buffer without end.
struct ProfilerLineReader {
    /// The longest line taken, without its `\n` (docs/profiling.md: 4096).
    static let limit = 4096

    /// Bytes of a line whose `\n` has not come yet (at most ``limit``).
    private var partial: [UInt8] = []

    init() { partial.reserveCapacity(Self.limit) }

    /// What a chunk of input held.
    enum Outcome: Equatable {
        /// These complete lines (possibly none), in order, without their `\n`.
        case lines([[UInt8]])
        /// A line grew past ``limit``: close the connection.
        case oversized
    }

    /// Takes `bytes`, as they came off the socket.
    mutating func take(_ bytes: some Sequence<UInt8>) -> Outcome {
        var lines: [[UInt8]] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                lines.append(partial)
                partial.removeAll(keepingCapacity: true)
            } else if partial.count == Self.limit {
                return .oversized
            } else {
                partial.append(byte)
            }
        }
        return .lines(lines)
    }
}
