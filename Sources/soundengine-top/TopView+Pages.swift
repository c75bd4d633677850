import Foundation
import TerminalUI

/// The six pages of an attached session.
extension TopView {
    func drawSession(_ state: TopState, in screen: inout Screen, rows: Range<Int>) {
        var row = rows.lowerBound + 1
        guard let session = state.model.session else {
            screen.put("No session picture yet.", row: row, column: 2)
            return
        }
        func field(_ name: String, _ value: String, style: Style = .plain) {
            screen.put(name, row: row, column: 2, style: .dim)
            screen.put(value, row: row, column: 26, style: style, maxWidth: screen.width - 27)
            row += 1
        }
        let yes = { (flag: Bool) in flag ? "yes" : "no" }
        field("Category", session.category, style: .bold)
        field("Options", session.options.isEmpty ? "(none)" : session.options.joined(separator: ", "))
        field("Mode", session.mode)
        field("Active", yes(session.active))
        field(
            "Interrupted", session.interrupted ? "yes (\(session.interruptionReason ?? "no reason"))" : "no",
            style: session.interrupted ? Style(.bold, foreground: .red) : .plain)
        field("Engine state", session.engineState, style: session.engineState == "running" ? Style(foreground: .green) : Style(foreground: .yellow))
        field("Other audio playing", yes(session.otherAudioPlaying))
        field("Secondary silenced", yes(session.secondaryAudioShouldBeSilenced))
        row += 1
        for (title, ports) in [("Route outputs", session.outputs), ("Route inputs", session.inputs)] where row < rows.upperBound {
            screen.put(title, row: row, column: 2, style: .bold)
            row += 1
            if ports.isEmpty {
                screen.put("(none)", row: row, column: 4, style: .dim)
                row += 1
            }
            for port in ports where row < rows.upperBound {
                screen.put("\(port.name)  [\(port.type)]  uid \(port.uid)", row: row, column: 4, maxWidth: screen.width - 5)
                row += 1
            }
        }
    }

    func drawVoices(_ state: TopState, in screen: inout Screen, rows: Range<Int>) {
        let voices = state.sortedVoices
        let counts = "\(state.model.voices.active) active, \(state.model.voices.virtual) virtual · sorted by \(state.voiceSort.rawValue)"
        screen.put(counts, row: rows.lowerBound, column: 1, style: .dim)
        let table = Table(
            columns: [
                .init("ID", width: .fixed(6), alignment: .right), .init("EVENT", width: .flexible(minimum: 8)),
                .init("SOUND", width: .flexible(minimum: 8)), .init("BUS", width: .fixed(10)), .init("OBJ", width: .fixed(6)),
                .init("VOL dB", width: .fixed(7), alignment: .right), .init("HEARD", width: .fixed(6), alignment: .right),
                .init("STATE", width: .fixed(8)),
            ],
            rows: voices.map { voice in
                [
                    voice.playingID == 0 ? "-" : "\(voice.playingID)", voice.event ?? "-", voice.sound, voice.bus, voice.gameObject ?? "-",
                    LevelBar.label(voice.volume ?? voice.gain), voice.audibleDB.map { String(format: "%.1f", $0) } ?? "-",
                    voice.isVirtual ? "virtual" : voice.state,
                ]
            },
            selection: voices.isEmpty ? nil : state.selection, glyphs: glyphs)
        table.draw(in: &screen, row: rows.lowerBound + 1, column: 1, width: screen.width - 2, height: rows.count - 1)
        if voices.isEmpty { screen.put("No voices playing.", row: rows.lowerBound + 3, column: 2, style: .dim) }
    }

    func drawBuses(_ state: TopState, in screen: inout Screen, rows: Range<Int>) {
        let nameWidth = 14
        let numbers = 22
        let barWidth = max(10, screen.width - nameWidth - numbers - 12)
        screen.put("BUS", row: rows.lowerBound, column: 1, style: .bold)
        screen.put("VOL dB", row: rows.lowerBound, column: nameWidth + 2, style: .bold)
        screen.put("M S", row: rows.lowerBound, column: nameWidth + 9, style: .bold)
        screen.put("LEVEL (RMS bar, peak |, -60…0 dB)", row: rows.lowerBound, column: nameWidth + 13, style: .bold)
        screen.put("PEAK   RMS", row: rows.lowerBound, column: nameWidth + 14 + barWidth, style: .bold)
        let bar = LevelBar(glyphs: glyphs)
        for (index, bus) in state.model.buses.enumerated() {
            let row = rows.lowerBound + 1 + index
            guard row < rows.upperBound else { break }
            let style: Style = index == state.selection ? .reverse : .plain
            let depth = depth(of: bus, in: state.model.buses)
            screen.fill(row: row, column: 0, count: nameWidth + 13, style: style)
            screen.put(glyphs.truncate(String(repeating: " ", count: depth) + bus.name, to: nameWidth), row: row, column: 1, style: style)
            screen.put(LevelBar.label(bus.volume).leftPadded(to: 6), row: row, column: nameWidth + 2, style: style)
            screen.put((bus.muted ? "M" : "-") + " " + (bus.solo ? "S" : "-"), row: row, column: nameWidth + 9, style: style)
            let peak = bus.peak.max() ?? 0
            let rms = bus.rms.max() ?? 0
            bar.draw(level: rms, peak: peak, in: &screen, row: row, column: nameWidth + 13, width: barWidth)
            screen.put(LevelBar.label(peak).leftPadded(to: 5) + " " + LevelBar.label(rms).leftPadded(to: 5), row: row, column: nameWidth + 14 + barWidth)
        }
        if state.model.buses.isEmpty { screen.put("No buses yet.", row: rows.lowerBound + 2, column: 2, style: .dim) }
    }

    /// How deep `bus` is under the master bus (for indenting its name).
    private func depth(of bus: ProfilerMessage.BusInfo, in buses: [ProfilerMessage.BusInfo]) -> Int {
        var depth = 0
        var parent = bus.parent
        while let id = parent, depth < 8, let next = buses.first(where: { $0.id == id }) {
            depth += 1
            parent = next.parent
        }
        return depth
    }

    func drawSyncs(_ state: TopState, in screen: inout Screen, rows: Range<Int>) {
        let syncs = state.model.syncs
        let sections: [(String, [Table.Column], [[String]])] = [
            ("RTPCs", [.init("NAME", width: .flexible(minimum: 10)), .init("GAME OBJECT", width: .fixed(14)), .init("VALUE", width: .fixed(12), alignment: .right)],
             syncs.rtpcs.map { [$0.name, $0.gameObject ?? "global", String(format: "%.3f", $0.value)] }),
            ("States", [.init("GROUP", width: .flexible(minimum: 10)), .init("STATE", width: .flexible(minimum: 10))],
             syncs.states.map { [$0.group, $0.state] }),
            ("Switches", [.init("GROUP", width: .flexible(minimum: 10)), .init("GAME OBJECT", width: .fixed(14)), .init("SWITCH", width: .flexible(minimum: 10))],
             syncs.switches.map { [$0.group, $0.gameObject ?? "-", $0.value] }),
        ]
        var row = rows.lowerBound
        for (title, columns, tableRows) in sections where row < rows.upperBound - 1 {
            screen.put("\(title) (\(tableRows.count))", row: row, column: 1, style: .bold)
            let height = min(tableRows.count + 1, max(1, (rows.upperBound - row - 1) / 2))
            Table(columns: columns, rows: tableRows, glyphs: glyphs).draw(in: &screen, row: row + 1, column: 3, width: screen.width - 4, height: height)
            row += height + 2
        }
    }

    func drawLog(_ state: TopState, in screen: inout Screen, rows: Range<Int>) {
        let log = state.model.log
        let visible = rows.count
        guard !log.isEmpty else {
            screen.put("No notifications yet.", row: rows.lowerBound + 1, column: 2, style: .dim)
            return
        }
        let end = max(0, log.count - state.logScroll)
        let start = max(0, end - visible)
        for (offset, entry) in log[start..<end].enumerated() {
            let row = rows.lowerBound + offset
            screen.put(String(format: "%9.3f", entry.time), row: row, column: 0, style: .dim)
            let x = screen.put(entry.name, row: row, column: 10, style: .bold)
            screen.put(entry.details.joined(separator: " "), row: row, column: x + 1, maxWidth: screen.width - x - 1)
        }
    }

    func drawPerformance(_ state: TopState, in screen: inout Screen, rows: Range<Int>) {
        let p = state.model.performance
        let spark = Sparkline(glyphs: glyphs)
        let graphWidth = max(10, screen.width - 36)
        var row = rows.lowerBound + 1
        func graph(_ title: String, _ value: String, _ history: [Double], range: ClosedRange<Double>?) {
            screen.put(title, row: row, column: 1, style: .bold)
            screen.put(value, row: row, column: 14)
            spark.draw(history, range: range, in: &screen, row: row, column: 34, width: graphWidth, style: Style(foreground: .cyan))
            row += 2
        }
        graph(
            "Render CPU", String(format: "%5.1f%% max", p.cpuMax * 100), state.model.cpuHistory,
            range: 0...max(0.25, state.model.cpuHistory.max() ?? 0))
        screen.put(String(format: "last %.1f%%  mean %.1f%% of a quantum", p.cpuLast * 100, p.cpuMean * 100), row: row - 1, column: 14, style: .dim)
        graph("Latency", String(format: "%6.1f ms", p.latencyMs), state.model.latencyHistory, range: nil)
        graph("Voices", "\(p.voicesActive) (+\(p.voicesVirtual) virt)", state.model.voiceHistory, range: nil)
        let counters: [(String, Int)] = [
            ("Quanta rendered", p.quanta), ("Underflows", p.underflows), ("Starvations", p.starvations),
            ("Commands rejected", p.commandsRejected), ("Dropped (this link)", p.dropped),
        ]
        for (name, value) in counters where row < rows.upperBound {
            screen.put(name, row: row, column: 1, style: .dim)
            screen.put("\(value)", row: row, column: 22, style: value > 0 && name != "Quanta rendered" ? Style(.bold, foreground: .yellow) : .plain)
            row += 1
        }
    }
}

extension String {
    /// The string with spaces before it up to `width` characters.
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
