import Foundation
import TerminalUI

/// Draws a ``TopState`` into a ``Screen``: a title bar, the page tabs, the
/// page, a status line and the keys of the page. Pure: the same state gives
/// the same screen, which is how the tests read it.
struct TopView {
    let glyphs: Glyphs

    func render(_ state: TopState, into screen: inout Screen) {
        screen.clear()
        let body = 2..<(screen.height - 2)
        switch state.mode {
        case .list:
            StatusBar(left: "soundengine-top — running games", right: state.folder).draw(in: &screen, row: 0)
            drawList(state, in: &screen, rows: 1..<(screen.height - 2))
        case .live, .replay:
            drawTitle(state, in: &screen)
            drawTabs(state, in: &screen)
            switch state.page {
            case .session: drawSession(state, in: &screen, rows: body)
            case .voices: drawVoices(state, in: &screen, rows: body)
            case .buses: drawBuses(state, in: &screen, rows: body)
            case .syncs: drawSyncs(state, in: &screen, rows: body)
            case .log: drawLog(state, in: &screen, rows: body)
            case .performance: drawPerformance(state, in: &screen, rows: body)
            }
        }
        drawStatus(state, in: &screen)
        KeyBar(keyHints(state)).draw(in: &screen, row: screen.height - 1)
    }

    private func drawTitle(_ state: TopState, in screen: inout Screen) {
        let hello = state.model.hello
        let left =
            hello.map { "\($0.program) (pid \($0.pid)) · SoundEngine \($0.engine) · \($0.sampleRate) Hz \($0.channels) ch" }
            ?? "waiting for hello…"
        var right = String(format: "t %.1f s", state.model.time)
        switch state.mode {
        case .replay: right += state.replayFinished ? " · REPLAY END" : state.isPaused ? " · REPLAY PAUSED" : " · REPLAY"
        case .live: right += state.linkLost ? " · GONE" : " · LIVE"
        case .list: break
        }
        if state.recordingPath != nil { right += " · REC" }
        StatusBar(left: left, right: right).draw(in: &screen, row: 0)
    }

    private func drawTabs(_ state: TopState, in screen: inout Screen) {
        var x = 0
        for page in Page.allCases {
            let label = " \(page.rawValue) \(page.title) "
            x = screen.put(label, row: 1, column: x, style: page == state.page ? .reverse : .plain)
        }
    }

    private func drawStatus(_ state: TopState, in screen: inout Screen) {
        let row = screen.height - 2
        if state.mode == .live && state.linkLost {
            screen.put("The game went away (its link closed). l: back to the list, q: quit", row: row, column: 0, style: Style(.bold, foreground: .red))
        } else if let status = state.status {
            screen.put(status, row: row, column: 0, style: .bold)
        } else if let result = state.model.lastResult, !result.ok {
            screen.put("refused: \(result.error ?? result.code ?? "?")", row: row, column: 0, style: Style(foreground: .yellow))
        }
    }

    func keyHints(_ state: TopState) -> [KeyBar.Hint] {
        switch state.mode {
        case .list:
            return [.init("↑↓", "select"), .init("Enter", "attach"), .init("r", "refresh"), .init("q", "quit")].map(ascii)
        case .live, .replay:
            var hints = [KeyBar.Hint("1-6", "page"), .init("Tab", "next")]
            if state.page == .voices { hints.append(.init("s", "sort:\(state.voiceSort.rawValue)")) }
            if state.page == .voices || state.page == .buses { hints.append(.init("↑↓", "select")) }
            if state.page == .log { hints.append(.init("PgUp/PgDn", "scroll")) }
            if state.page == .buses && state.canEdit { hints += [.init("m", "mute"), .init("s", "solo")] }
            if state.mode == .live && !state.linkLost { hints.append(.init("r", state.recordingPath == nil ? "record" : "stop rec")) }
            if state.mode == .replay { hints.append(.init("p", state.isPaused ? "play" : "pause")) }
            if state.mode == .live { hints.append(.init("l", "list")) }
            hints.append(.init("q", "quit"))
            return hints.map(ascii)
        }
    }

    /// Arrows in key names become `Up/Dn` when the glyphs are ASCII.
    private func ascii(_ hint: KeyBar.Hint) -> KeyBar.Hint {
        glyphs.isUnicode ? hint : KeyBar.Hint(hint.key.replacingOccurrences(of: "↑↓", with: "Up/Dn"), hint.action)
    }

    // MARK: - The list of games

    private func drawList(_ state: TopState, in screen: inout Screen, rows: Range<Int>) {
        guard !state.games.isEmpty else {
            screen.put("No running game has its profiling link on.", row: rows.lowerBound + 1, column: 2)
            screen.put("Start a game with SOUNDENGINE_PROFILER=1 (docs/profiling.md); this list refreshes itself.",
                row: rows.lowerBound + 2, column: 2, style: .dim)
            return
        }
        let table = Table(
            columns: [
                .init("PID", width: .fixed(8), alignment: .right), .init("PROGRAM", width: .flexible(minimum: 10)),
                .init("ENGINE", width: .fixed(10)), .init("RATE", width: .fixed(12)), .init("EDITS", width: .fixed(5)),
                .init("SOCKET", width: .flexible(minimum: 10)),
            ],
            rows: state.games.map {
                ["\($0.hello.pid)", $0.hello.program, $0.hello.engine, "\($0.hello.sampleRate) Hz", $0.hello.edits ? "yes" : "no",
                 $0.socketPath]
            },
            selection: state.selection, glyphs: glyphs)
        table.draw(in: &screen, row: rows.lowerBound + 1, column: 1, width: screen.width - 2, height: rows.count - 1)
    }
}
