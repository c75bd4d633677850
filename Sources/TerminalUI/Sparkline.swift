/// A one-row chart of recent values, one character a value, as `top` and
/// the Wwise Profiler's performance graphs show CPU over time.
public struct Sparkline: Sendable {
    /// The glyphs to draw with (their ``Glyphs/sparkLevels``).
    public var glyphs: Glyphs

    /// A sparkline drawn with `glyphs`.
    public init(glyphs: Glyphs = .unicode) { self.glyphs = glyphs }

    /// The characters for the last `width` of `values` (right-aligned: the
    /// newest value is at the right; fewer values leave blanks at the left),
    /// scaled so `range` spans the lowest to the highest level. Without a
    /// range, 0 to the largest value shown.
    public func render(_ values: [Double], width: Int, range: ClosedRange<Double>? = nil) -> String {
        guard width > 0 else { return "" }
        let shown = values.suffix(width)
        let scale = range ?? 0...max(shown.max() ?? 1, .leastNonzeroMagnitude)
        let levels = glyphs.sparkLevels
        let span = scale.upperBound - scale.lowerBound
        let characters = shown.map { value -> Character in
            guard value.isFinite, span > 0 else { return levels[0] }
            let fraction = min(1, max(0, (value - scale.lowerBound) / span))
            return levels[Int((fraction * Double(levels.count - 1)).rounded())]
        }
        return String(repeating: " ", count: width - characters.count) + String(characters)
    }

    /// Draws ``render(_:width:range:)`` at `row`, `column`.
    public func draw(
        _ values: [Double], range: ClosedRange<Double>? = nil, in screen: inout Screen, row: Int, column: Int, width: Int,
        style: Style = .plain
    ) {
        screen.put(render(values, width: width, range: range), row: row, column: column, style: style, maxWidth: width)
    }
}
