/// One character cell: what is drawn there and how.
public struct Cell: Hashable, Sendable {
    /// The character (one column wide: TerminalUI does not lay out East
    /// Asian wide characters or emoji; use text that is one column a character).
    public var character: Character
    /// How it is drawn.
    public var style: Style

    /// A cell; by default a plain space.
    public init(_ character: Character = " ", style: Style = .plain) {
        self.character = character
        self.style = style
    }
}

/// A grid of cells the program draws a whole frame into, then hands to
/// ``ScreenRenderer`` to put on the terminal. Drawing off the grid is
/// clipped, never a crash, so widgets need not check bounds.
///
/// Tests render into a `Screen` and read ``lines`` (the text of each row) or
/// ``text``: no terminal needed.
public struct Screen: Hashable, Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Row-major cells, `width * height` of them.
    public private(set) var cells: [Cell]

    /// A blank screen of `width` × `height` cells (at least 1×1).
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    /// The cell at `row`, `column`; a blank cell off the grid.
    public subscript(row: Int, column: Int) -> Cell {
        get { contains(row: row, column: column) ? cells[row * width + column] : Cell() }
        set { if contains(row: row, column: column) { cells[row * width + column] = newValue } }
    }

    /// Whether `row`, `column` is on the grid.
    public func contains(row: Int, column: Int) -> Bool { row >= 0 && row < height && column >= 0 && column < width }

    /// Writes `text` from `row`, `column`, one character a cell, clipped at
    /// the right edge or after `maxWidth` cells. Returns the column after the last cell written.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        var x = column
        let limit = min(width, column + (maxWidth ?? width))
        for character in text where x < limit {
            let printable: Character = character.isNewline || character == "\t" ? " " : character
            self[row, x] = Cell(printable, style: style)
            x += 1
        }
        return x
    }

    /// Sets `count` cells from `row`, `column` to `character` in `style`.
    public mutating func fill(row: Int, column: Int, count: Int, with character: Character = " ", style: Style = .plain) {
        guard count > 0 else { return }
        for x in column..<(column + count) { self[row, x] = Cell(character, style: style) }
    }

    /// Blanks the whole grid.
    public mutating func clear() {
        cells = Array(repeating: Cell(), count: width * height)
    }

    /// The text of each row (styles dropped), trailing spaces kept.
    public var lines: [String] {
        (0..<height).map { row in String(cells[(row * width)..<((row + 1) * width)].map(\.character)) }
    }

    /// All rows, trailing spaces trimmed, joined with newlines: what a test reads.
    public var text: String {
        lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n")
    }

    /// Whether any row contains `needle`.
    public func contains(_ needle: String) -> Bool { lines.contains { $0.contains(needle) } }
}
