/// A one-row bar across the screen in inverse video, text at the left and
/// at the right: a title bar at the top, a status line at the bottom.
public struct StatusBar: Sendable {
    /// The text at the left.
    public var left: String
    /// The text at the right (cut first when both do not fit).
    public var right: String
    /// The style of the whole row (default inverse video).
    public var style: Style

    /// A bar.
    public init(left: String, right: String = "", style: Style = .reverse) {
        self.left = left
        self.right = right
        self.style = style
    }

    /// Draws the bar across `row`.
    public func draw(in screen: inout Screen, row: Int) {
        screen.fill(row: row, column: 0, count: screen.width, style: style)
        screen.put(" " + left, row: row, column: 0, style: style)
        let room = screen.width - left.count - 3
        guard room > 0, !right.isEmpty else { return }
        let shown = String(right.suffix(room))
        screen.put(shown, row: row, column: screen.width - shown.count - 1, style: style)
    }
}
