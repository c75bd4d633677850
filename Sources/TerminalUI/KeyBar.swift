/// The keys of the page, shown at the bottom of the screen the way `htop`
/// and `nano` do: each key in inverse video, its action after it in plain text.
public struct KeyBar: Sendable {
    /// One key and what it does.
    public struct Hint: Sendable, Hashable {
        /// The key's label (`"q"`, `"1-6"`, `"Tab"`).
        public var key: String
        /// What it does (`"quit"`).
        public var action: String

        /// A hint.
        public init(_ key: String, _ action: String) {
            self.key = key
            self.action = action
        }
    }

    /// The hints, left to right; those that do not fit are left out from the end.
    public var hints: [Hint]

    /// A key bar.
    public init(_ hints: [Hint]) { self.hints = hints }

    /// Draws the hints along `row`.
    public func draw(in screen: inout Screen, row: Int) {
        screen.fill(row: row, column: 0, count: screen.width)
        var x = 0
        for hint in hints {
            let needed = hint.key.count + 1 + hint.action.count + 2
            guard x + needed <= screen.width else { break }
            x = screen.put(hint.key, row: row, column: x, style: .reverse)
            x = screen.put(" " + hint.action + "  ", row: row, column: x)
        }
    }
}
