/// Rows of text in columns, with a header row, the selected row in inverse
/// video, and every cell cut to its column (the cut marked with an ellipsis).
///
/// Fixed columns get their width; ``Column/Width/flexible(minimum:)`` columns
/// share what is left of the table's width. When the rows do not fit, the
/// table scrolls so the selected row stays visible.
public struct Table: Sendable {
    /// One column.
    public struct Column: Sendable {
        /// How wide a column is.
        public enum Width: Sendable {
            /// Exactly this many cells.
            case fixed(Int)
            /// A share of the width the fixed columns leave, at least `minimum`.
            case flexible(minimum: Int)
        }
        /// Which side of the column the text keeps to.
        public enum Alignment: Sendable { case left, right }

        /// The header text.
        public var title: String
        /// Its width.
        public var width: Width
        /// Its alignment.
        public var alignment: Alignment

        /// A column.
        public init(_ title: String, width: Width, alignment: Alignment = .left) {
            self.title = title
            self.width = width
            self.alignment = alignment
        }
    }

    /// The columns, left to right.
    public var columns: [Column]
    /// The rows, each with a text per column (missing ones are blank).
    public var rows: [[String]]
    /// The index of the selected row, drawn in inverse video; nil for none.
    public var selection: Int?
    /// The glyphs (the ellipsis for cut text).
    public var glyphs: Glyphs
    /// Cells between columns (default 1).
    public var spacing: Int

    /// A table.
    public init(columns: [Column], rows: [[String]], selection: Int? = nil, glyphs: Glyphs = .unicode, spacing: Int = 1) {
        self.columns = columns
        self.rows = rows
        self.selection = selection
        self.glyphs = glyphs
        self.spacing = spacing
    }

    /// The width of each column when the table is `width` cells wide.
    public func columnWidths(totalWidth width: Int) -> [Int] {
        let gaps = spacing * max(0, columns.count - 1)
        let fixed = columns.reduce(0) { total, column in
            if case .fixed(let w) = column.width { return total + w }
            return total
        }
        let flexibleCount = columns.filter { if case .flexible = $0.width { true } else { false } }.count
        let spare = max(0, width - gaps - fixed)
        var remainder = flexibleCount > 0 ? spare % flexibleCount : 0
        return columns.map { column in
            switch column.width {
            case .fixed(let w): return w
            case .flexible(let minimum):
                let extra = remainder > 0 ? 1 : 0
                remainder -= extra
                return max(minimum, spare / flexibleCount + extra)
            }
        }
    }

    /// The first row shown when `visibleRows` rows fit: 0, or what keeps the selection in view.
    public func firstVisibleRow(visibleRows: Int) -> Int {
        guard let selection, visibleRows > 0, selection >= visibleRows else { return 0 }
        return min(selection - visibleRows + 1, max(0, rows.count - visibleRows))
    }

    /// Draws the header at `row` and the rows below it, within `height` rows
    /// and `width` cells from `column`.
    public func draw(in screen: inout Screen, row: Int, column: Int, width: Int, height: Int) {
        guard height > 0 else { return }
        let widths = columnWidths(totalWidth: width)
        drawLine(columns.map(\.title), widths: widths, in: &screen, row: row, column: column, width: width, style: .bold)
        let visible = height - 1
        let first = firstVisibleRow(visibleRows: visible)
        for (offset, index) in (first..<min(rows.count, first + visible)).enumerated() {
            let style: Style = index == selection ? .reverse : .plain
            drawLine(rows[index], widths: widths, in: &screen, row: row + 1 + offset, column: column, width: width, style: style)
        }
    }

    private func drawLine(_ texts: [String], widths: [Int], in screen: inout Screen, row: Int, column: Int, width: Int, style: Style) {
        screen.fill(row: row, column: column, count: width, style: style)
        var x = column
        for (index, columnWidth) in widths.enumerated() {
            let text = glyphs.truncate(index < texts.count ? texts[index] : "", to: columnWidth)
            let start = columns[index].alignment == .right ? x + columnWidth - text.count : x
            screen.put(text, row: row, column: start, style: style, maxWidth: column + width - start)
            x += columnWidth + spacing
        }
    }
}
