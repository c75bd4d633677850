import Foundation

/// A horizontal meter on a decibel scale, as a mixer or the Wwise
/// Profiler's meters show a bus: full at 0 dBFS, empty at ``floorDB``.
///
/// Green up to ``warningDB``, yellow up to ``hotDB``, red above; an optional
/// peak marker sits where the peak is.
public struct LevelBar: Sendable {
    /// The level the bar is empty at, in dB (default −60).
    public var floorDB: Double
    /// Where yellow starts, in dB (default −18).
    public var warningDB: Double
    /// Where red starts, in dB (default −6).
    public var hotDB: Double
    /// The glyphs to draw with.
    public var glyphs: Glyphs

    /// A bar with the default scale.
    public init(floorDB: Double = -60, warningDB: Double = -18, hotDB: Double = -6, glyphs: Glyphs = .unicode) {
        self.floorDB = floorDB
        self.warningDB = warningDB
        self.hotDB = hotDB
        self.glyphs = glyphs
    }

    /// `linear` amplitude in dB (−∞ for 0 or less).
    public static func decibels(_ linear: Double) -> Double {
        linear > 0 ? 20 * log10(linear) : -.infinity
    }

    /// How many of `width` cells `db` fills (0 at or below the floor, all at 0 dB or above).
    public func filledCells(_ db: Double, width: Int) -> Int {
        guard db.isFinite else { return db > 0 ? width : 0 }
        let fraction = min(1, max(0, (db - floorDB) / -floorDB))
        return Int((fraction * Double(width)).rounded())
    }

    /// The bar's cells for `level` and, if given, `peak` (both linear amplitudes).
    public func cells(level: Double, peak: Double? = nil, width: Int) -> [Cell] {
        guard width > 0 else { return [] }
        let filled = filledCells(Self.decibels(level), width: width)
        var cells = (0..<width).map { index -> Cell in
            guard index < filled else { return Cell(glyphs.barEmpty, style: .dim) }
            let db = floorDB + (Double(index) + 0.5) / Double(width) * -floorDB
            let color: Style.Color = db >= hotDB ? .red : db >= warningDB ? .yellow : .green
            return Cell(glyphs.barFull, style: Style(foreground: color))
        }
        if let peak {
            let position = filledCells(Self.decibels(peak), width: width) - 1
            if position >= filled, position < width { cells[position] = Cell(glyphs.peakMark, style: .bold) }
        }
        return cells
    }

    /// Draws the bar at `row`, `column`, `width` cells wide.
    public func draw(level: Double, peak: Double? = nil, in screen: inout Screen, row: Int, column: Int, width: Int) {
        for (offset, cell) in cells(level: level, peak: peak, width: width).enumerated() {
            screen[row, column + offset] = cell
        }
    }

    /// `linear` as text in dB with one decimal (`-12.0`), `-inf` for silence.
    public static func label(_ linear: Double) -> String {
        let db = decibels(linear)
        return db.isFinite ? String(format: "%.1f", db) : "-inf"
    }
}
