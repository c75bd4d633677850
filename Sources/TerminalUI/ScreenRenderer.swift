/// Turns ``Screen`` frames into the ANSI text that puts them on a terminal,
/// writing only the rows that changed since the last frame.
///
/// The first frame, a frame of another size, and a frame after
/// ``invalidate()`` are written whole (clear, then every row). Output is
/// plain ANSI: cursor moves (`CSI row;col H`), SGR attributes and colours.
public struct ScreenRenderer: Sendable {
    private var previous: Screen?

    /// A renderer that will write the first frame whole.
    public init() {}

    /// Forgets the last frame, so the next is written whole (after a resize,
    /// or when something else may have drawn on the terminal).
    public mutating func invalidate() { previous = nil }

    /// The text that changes the terminal from the last frame to `screen`;
    /// empty when nothing changed.
    public mutating func frame(for screen: Screen) -> String {
        let last = previous.flatMap { $0.width == screen.width && $0.height == screen.height ? $0 : nil }
        var out = last == nil ? ANSI.sgr(.plain) + ANSI.clearScreen : ""
        for row in 0..<screen.height {
            let range = (row * screen.width)..<((row + 1) * screen.width)
            if let last, last.cells[range] == screen.cells[range] { continue }
            out += ANSI.moveTo(row: row, column: 0)
            var style: Style?
            for cell in screen.cells[range] {
                if cell.style != style {
                    out += ANSI.sgr(cell.style)
                    style = cell.style
                }
                out.append(cell.character)
            }
        }
        if !out.isEmpty { out += ANSI.sgr(.plain) }
        previous = screen
        return out
    }
}
