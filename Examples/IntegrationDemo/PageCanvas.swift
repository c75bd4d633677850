import TerminalUI

/// A region of the screen a page writes into line by line, clipped to its rows.
struct PageCanvas {
    var screen: Screen
    let bottom: Int
    let glyphs: Glyphs
    let left: Int
    var row: Int

    init(screen: Screen, top: Int, bottom: Int, glyphs: Glyphs, left: Int = 1) {
        self.screen = screen
        self.bottom = bottom
        self.glyphs = glyphs
        self.left = left
        row = top
    }

    var width: Int { max(0, screen.width - left - 1) }

    mutating func line(_ text: String, style: Style = .plain) {
        put(text, column: 0, style: style)
        skip()
    }

    /// Writes on the current line without moving down.
    mutating func put(_ text: String, column: Int, style: Style = .plain) {
        guard row < bottom, column < width else { return }
        screen.put(glyphs.truncate(text, to: width - column), row: row, column: left + column, style: style)
    }

    mutating func skip() { row += 1 }

    /// `Label      value      keys`.
    mutating func pair(_ label: String, _ value: String, keys: String) {
        put(label, column: 0, style: .bold)
        put(value, column: 13)
        if !keys.isEmpty { put(keys, column: 36, style: .dim) }
        skip()
    }

    /// A bus meter: the name, a level bar, peak and RMS in dB; `-` for a bus that does not exist.
    mutating func meter(_ name: String, _ level: EngineSnapshot.Level?) {
        put(name, column: 0, style: .bold)
        guard let level else {
            put("(no bus '\(name)')", column: 8, style: .dim)
            return skip()
        }
        let barWidth = max(4, min(40, width - 34))
        if row < bottom {
            LevelBar(glyphs: glyphs).draw(level: level.rms, peak: level.peak, in: &screen, row: row,
                                          column: left + 8, width: barWidth)
        }
        put("rms \(LevelBar.label(level.rms)) peak \(LevelBar.label(level.peak)) dB", column: 9 + barWidth)
        skip()
    }

    mutating func table(_ table: Table) {
        guard row < bottom else { return }
        table.draw(in: &screen, row: row, column: left, width: width, height: bottom - row)
        row = bottom
    }
}
