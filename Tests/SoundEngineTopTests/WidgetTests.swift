import TerminalUI
import Testing

/// The TerminalUI widgets and the screen model, read back as text.
struct WidgetTests {
    @Test func screenClipsAndReadsBack() {
        var screen = Screen(width: 10, height: 2)
        let end = screen.put("hello world, clipped", row: 0, column: 2)
        #expect(end == 10)
        screen.put("off", row: 5, column: 0)  // off the grid: ignored
        screen.put("x", row: 1, column: -1)
        #expect(screen.lines == ["  hello wo", "          "])
        #expect(screen.text == "  hello wo\n")
        #expect(screen.contains("hello"))
    }

    @Test func rendererWritesWholeFramesThenOnlyChangedRows() {
        var renderer = ScreenRenderer()
        var screen = Screen(width: 4, height: 3)
        screen.put("ab", row: 0, column: 0)
        let first = renderer.frame(for: screen)
        #expect(first.contains(ANSI.clearScreen))
        #expect(first.contains(ANSI.moveTo(row: 2, column: 0)))
        #expect(renderer.frame(for: screen).isEmpty)
        screen.put("cd", row: 1, column: 0, style: .bold)
        let second = renderer.frame(for: screen)
        #expect(second.contains(ANSI.moveTo(row: 1, column: 0) + ANSI.sgr(.bold) + "cd"))
        #expect(!second.contains(ANSI.moveTo(row: 0, column: 0)))
        #expect(!second.contains(ANSI.clearScreen))
        renderer.invalidate()
        #expect(renderer.frame(for: screen).contains(ANSI.clearScreen))
    }

    @Test func levelBarFollowsTheDecibelScale() {
        let bar = LevelBar(floorDB: -60, glyphs: .ascii)
        #expect(bar.filledCells(0, width: 60) == 60)
        #expect(bar.filledCells(-30, width: 60) == 30)
        #expect(bar.filledCells(-80, width: 60) == 0)
        #expect(bar.filledCells(-.infinity, width: 60) == 0)
        let cells = bar.cells(level: 0.001, peak: 0.1, width: 20)  // −60 dB and −20 dB
        let text = String(cells.map(\.character))
        #expect(text == "------------|-------")  // the peak marks the last cell −20 dB fills
        #expect(String(bar.cells(level: 1, width: 4).map(\.character)) == "####")
        #expect(bar.cells(level: 1, width: 10).last?.style.foreground == .red)
        #expect(bar.cells(level: 1, width: 10).first?.style.foreground == .green)
        #expect(LevelBar.label(0.5) == "-6.0")
        #expect(LevelBar.label(0) == "-inf")
    }

    @Test func sparklineScalesAndFallsBackToASCII() {
        #expect(Sparkline(glyphs: .unicode).render([0, 0.5, 1], width: 5, range: 0...1) == "  ▁▅█")
        #expect(Sparkline(glyphs: .ascii).render([0, 1], width: 2, range: 0...1) == "_@")
        #expect(Sparkline(glyphs: .ascii).render(Array(repeating: 1, count: 10), width: 3) == "@@@")
        #expect(Sparkline().render([], width: 0).isEmpty)
    }

    @Test func glyphsFollowTheLocale() {
        #expect(Glyphs.forLocale(environment: ["LANG": "en_US.UTF-8"]).isUnicode)
        #expect(Glyphs.forLocale(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"]) == .ascii)
        #expect(Glyphs.forLocale(environment: ["LC_CTYPE": "C.utf8"]).isUnicode)
        #expect(Glyphs.forLocale(environment: [:]) == .ascii)
        #expect(Glyphs.ascii.truncate("abcdef", to: 4) == "abc~")
        #expect(Glyphs.unicode.truncate("abc", to: 4) == "abc")
    }

    @Test func tableTruncatesAlignsAndKeepsTheSelectionInView() {
        let table = Table(
            columns: [.init("ID", width: .fixed(3), alignment: .right), .init("NAME", width: .flexible(minimum: 4))],
            rows: (1...10).map { ["\($0)", "name-number-\($0)"] }, selection: 7, glyphs: .ascii)
        #expect(table.columnWidths(totalWidth: 12) == [3, 8])
        var screen = Screen(width: 12, height: 4)
        table.draw(in: &screen, row: 0, column: 0, width: 12, height: 4)
        #expect(screen.lines == [" ID NAME    ", "  6 name-nu~", "  7 name-nu~", "  8 name-nu~"])
        #expect(screen[3, 0].style == .reverse)
    }

    @Test func barsShowTextAndKeys() {
        var screen = Screen(width: 30, height: 2)
        StatusBar(left: "title", right: "right").draw(in: &screen, row: 0)
        KeyBar([.init("q", "quit"), .init("1-6", "page"), .init("x", "too far to fit at all")]).draw(in: &screen, row: 1)
        #expect(screen.lines[0] == " title                  right ")
        #expect(screen.lines[1].hasPrefix("q quit  1-6 page"))
        #expect(!screen.contains("too far"))
        #expect(screen[0, 10].style == .reverse)
    }
}
