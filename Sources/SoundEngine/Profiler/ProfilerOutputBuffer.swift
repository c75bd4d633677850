/// The bytes waiting to be written to one connection: a fixed capacity
/// chosen when it connects, never grown, so a tool that stops reading costs
/// the game at most that much memory. A message that does not fit whole is
/// dropped (never cut: every line the tool reads is whole JSON) and counted.
struct ProfilerOutputBuffer {
    /// The bytes held; `start` is the first not yet written.
    private var storage: [UInt8]
    private var start = 0
    let capacity: Int
    /// Messages dropped because they did not fit (the `performance` message's `dropped`).
    private(set) var dropped: UInt64 = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// Bytes waiting.
    var count: Int { storage.count - start }
    var isEmpty: Bool { count == 0 }

    /// Appends `line` and a `\n`, or drops it (and counts it) when it does not fit whole.
    @discardableResult
    mutating func append(line: some Collection<UInt8>) -> Bool {
        guard count + line.count + 1 <= capacity else {
            dropped += 1
            return false
        }
        if storage.count + line.count + 1 > capacity {  // room only if the written part goes
            storage.removeSubrange(0..<start)
            start = 0
        }
        storage.append(contentsOf: line)
        storage.append(UInt8(ascii: "\n"))
        return true
    }

    /// Counts `count` messages lost before they reached this buffer.
    mutating func countDropped(_ count: UInt64) { dropped += count }

    /// Hands the waiting bytes to `write`, which returns how many it took
    /// (0: none now); forgets those.
    mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int) {
        while !isEmpty {
            let taken = storage.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[start...])) }
            guard taken > 0 else { return }
            start += taken
        }
        storage.removeAll(keepingCapacity: true)
        start = 0
    }
}
