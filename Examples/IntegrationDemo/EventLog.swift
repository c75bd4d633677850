import Foundation

/// The session notifications the full-screen demo has seen, newest last,
/// with their time since the demo started. Holds at most ``capacity``
/// entries: the oldest go first.
struct EventLog: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        /// Seconds since the demo started.
        var t: Double
        var text: String

        /// `  12.345  text`: the time right-aligned, then the text.
        var line: String { String(format: "%8.3f  ", t) + text }
    }

    let capacity: Int
    private(set) var entries: [Entry] = []

    init(capacity: Int = 500) { self.capacity = max(1, capacity) }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// The last `count` entries (fewer when there are fewer).
    func last(_ count: Int) -> ArraySlice<Entry> { entries.suffix(max(0, count)) }
}
