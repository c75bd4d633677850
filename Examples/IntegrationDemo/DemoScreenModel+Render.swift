import Foundation
import SoundEngine
import TerminalUI

// Drawing the full-screen demo: a title bar, the page tabs, the page, a strip
// of the latest session notifications (every page but the log), the status
// line and the key bar. Fits 80×24; larger terminals get more log and rows.
extension DemoScreenModel {
    /// The frame for `engine`'s state on a `width` × `height` terminal.
    func render(engine: EngineSnapshot, width: Int, height: Int, glyphs: Glyphs = .unicode) -> Screen {
        var screen = Screen(width: width, height: height)
        let session = engine.configuration
        StatusBar(
            left: "SoundEngine Integration Demo - \(page.title)",
            right: "engine \(engine.status) | \(session.category) \(engine.isActive ? "active" : "inactive")"
        ).draw(in: &screen, row: 0)
        drawTabs(in: &screen, row: 1)

        let stripRows = page == .log ? 0 : max(1, min(10, 4 + (height - 24) / 3))
        let bodyEnd = height - 2 - (stripRows > 0 ? stripRows + 1 : 0)
        var body = PageCanvas(screen: screen, top: 3, bottom: bodyEnd, glyphs: glyphs)
        if page.needsBank && !hasContent {
            body.line("No bank loaded: this page plays the demo bank (--bank FILE, or", style: .dim)
            body.line("Examples/Banks/demo/demo.json in the source tree).", style: .dim)
        } else {
            drawPage(engine: engine, on: &body)
        }
        screen = body.screen

        if stripRows > 0 {
            screen.put("── session notifications ".padding(toLength: width, withPad: "─", startingAt: 0),
                       row: bodyEnd, column: 0, style: .dim)
            for (offset, entry) in log.last(stripRows).enumerated() {
                screen.put(glyphs.truncate(entry.line, to: width), row: bodyEnd + 1 + offset, column: 0)
            }
        }
        if let prompt {
            let shown = "file to play (Enter plays, Esc cancels): " + prompt + "_"
            screen.put(String(shown.suffix(width)), row: height - 2, column: 0, style: .bold)
        } else {
            let style: Style = message.hasPrefix("!") ? Style(.bold, foreground: .red) : .plain
            screen.put(glyphs.truncate(message, to: width), row: height - 2, column: 0, style: style)
        }
        KeyBar([.init("1-8", "page"), .init("Tab", "next"), .init("q", "quit")] + pageHints).draw(in: &screen, row: height - 1)
        return screen
    }

    private func drawTabs(in screen: inout Screen, row: Int) {
        var x = 0
        for tab in DemoPage.allCases {
            let label = " \(tab.rawValue) \(tab.title) "
            let style: Style = tab == page ? .reverse : (tab.needsBank && !hasContent ? .dim : .plain)
            x = screen.put(label, row: row, column: x, style: style)
        }
    }

    /// The page's keys that fit in the key bar after the global ones.
    private var pageHints: [KeyBar.Hint] {
        switch page {
        case .session: [.init("c", "category"), .init("m", "mode"), .init("a", "activate")]
        case .route: [.init("o", "speaker"), .init("a", "activate")]
        case .playback: [.init("c", "chime"), .init("f", "file"), .init("s", "stop")]
        case .footsteps: [.init("<>", "surface"), .init("Spc", "step"), .init("w", "walk")]
        case .rtpc: [.init("e", "engine"), .init("+/-", "RPM")]
        case .positioning: [.init("arrows", "move"), .init("p", "play")]
        case .music: [.init("m", "music"), .init("d", "dialogue")]
        case .log: []
        }
    }

    private func drawPage(engine: EngineSnapshot, on body: inout PageCanvas) {
        switch page {
        case .session: drawSession(engine, on: &body)
        case .route: drawRoute(engine, on: &body)
        case .playback: drawPlayback(engine, on: &body)
        case .footsteps: drawFootsteps(on: &body)
        case .rtpc: drawRPM(engine, on: &body)
        case .positioning: drawPositioning(engine, on: &body)
        case .music: drawMusic(engine, on: &body)
        case .log:
            let rows = body.bottom - body.row
            if log.entries.isEmpty { body.line("No session notification yet.", style: .dim) }
            for entry in log.last(rows) { body.line(entry.line) }
        }
    }

    private func drawSession(_ engine: EngineSnapshot, on body: inout PageCanvas) {
        let session = engine.configuration
        body.pair("Category", "\(session.category)", keys: "c / C  next / prev (options cleared)")
        body.pair("Mode", "\(session.mode)", keys: "m / M  next / previous")
        body.pair("Active", engine.isActive ? "yes" : "no", keys: "a  \(engine.isActive ? "deactivate" : "activate")")
        body.pair("Interrupted", engine.isInterrupted ? "yes" : "no", keys: "")
        body.pair("Override", engine.speakerOverride ? "speaker" : "none",
                  keys: "o  \(engine.speakerOverride ? "none" : "speaker") (overrideOutputAudioPort)")
        body.pair("Output", engine.outputs.map(\.name).joined(separator: ", "), keys: "")
        body.skip()
        body.line("Options (key toggles; applied with changeAudioSessionProperties):", style: .bold)
        let half = max(1, body.width / 2)
        let entries = Self.optionKeys.compactMap { entry in
            AudioSession.CategoryOptions(named: entry.name).map { (entry, session.categoryOptions.isSuperset(of: $0)) }
        }
        for pairStart in stride(from: 0, to: entries.count, by: 2) {
            var column = 0
            for (entry, on) in entries[pairStart..<min(entries.count, pairStart + 2)] {
                let text = "[\(on ? "x" : " ")] \(entry.key)  \(entry.name)"
                body.put(body.glyphs.truncate(text, to: half - 1), column: column, style: on ? .bold : .plain)
                column += half
            }
            body.skip()
        }
    }

    private func drawRoute(_ engine: EngineSnapshot, on body: inout PageCanvas) {
        body.line("Other audio playing: \(engine.otherAudioPlaying ? "yes" : "no")    "
                  + "secondary audio should be silenced: \(engine.secondaryAudioShouldBeSilenced ? "yes" : "no")")
        body.line("Speaker override: \(engine.speakerOverride ? "speaker" : "none") (o)    "
                  + "session \(engine.isActive ? "active" : "inactive") (a)")
        func rows(_ label: String, _ ports: [EngineSnapshot.Port]) -> [[String]] {
            ports.isEmpty ? [[label, "-", "", ""]] : ports.map { [label, $0.type, $0.name, $0.uid] }
        }
        let table = Table(
            columns: [.init("", width: .fixed(13)), .init("port type", width: .fixed(18)),
                      .init("name", width: .flexible(minimum: 10)), .init("uid", width: .flexible(minimum: 8))],
            rows: rows("route out", engine.outputs) + rows("route in", engine.inputs)
                + rows("available out", engine.availableOutputs) + rows("available in", engine.availableInputs),
            glyphs: body.glyphs)
        body.skip()
        body.table(table)
    }

    private func drawPlayback(_ engine: EngineSnapshot, on body: inout PageCanvas) {
        body.line("Engine \(engine.status)   voices \(engine.voices)   underflows \(engine.underflows)")
        body.meter("master", engine.master)
        body.meter("music", engine.music)
        body.line("Looping music \(loopingMusic ? "playing" : "stopped")   background music "
                  + "\(engine.backgroundMusicMuted ? "muted" : "not muted")   other audio "
                  + "\(engine.otherAudioPlaying ? "playing" : "not playing")")
        body.skip()
        body.line("c  play the chime               f  play a file...")
        body.line("l  looping music on bus 'music' (muted for background music): start / stop")
        body.line("s  stop all                     z  \(engine.isRunning ? "suspend" : "wake up")")
        body.line("x  \(engine.backgroundMusicMuted ? "unmute" : "mute") background music")
    }

    private func drawFootsteps(on body: inout PageCanvas) {
        let surfaces = FootstepsModel.surfaces.map { $0 == footsteps.surface ? "<\($0)>" : " \($0) " }
        body.line("Surface  " + surfaces.joined(separator: " ") + "   (switch Surface on the player)")
        body.line("Walking  " + (footsteps.walking ? "yes, a step every 0.5 s" : "no"))
        body.skip()
        body.line("Left / Right  surface (setSwitch)")
        body.line("Space         one step (postEvent Play_Footstep)")
        body.line("w             walk / stop walking")
    }

    private func drawRPM(_ engine: EngineSnapshot, on body: inout PageCanvas) {
        body.line("Car engine  " + (rpm.running ? "running" : "off"))
        let gaugeWidth = max(10, min(50, body.width - 24))
        let filled = Int((rpm.rpm / EngineModel.range.upperBound * Double(gaugeWidth)).rounded())
        let gauge = String(repeating: body.glyphs.barFull, count: filled)
            + String(repeating: body.glyphs.barEmpty, count: max(0, gaugeWidth - filled))
        body.line(String(format: "RPM set   %5d  ", Int(rpm.rpm)) + gauge + "  0-8000")
        body.line("in force  " + (engine.rpmInForce.map { String(format: "%5d", Int($0)) } ?? "    ?")
                  + "  (rtpcValue; setRTPCValue ramps over 300 ms)")
        body.skip()
        body.line("e        start / stop the engine (Play_Engine / Stop_Engine)")
        body.line("+ / -    RPM up / down by 500 (also Up / Down)")
    }

    private func drawPositioning(_ engine: EngineSnapshot, on body: inout PageCanvas) {
        let mapRows = max(3, min(11, body.bottom - body.row) | 1)
        let mapColumns = mapRows * 2 + 1
        let top = body.row
        let centerRow = top + mapRows / 2, centerColumn = mapColumns / 2
        for row in 0..<mapRows {
            body.screen.put(String(repeating: ".", count: mapColumns), row: top + row, column: body.left, style: .dim)
        }
        body.screen.put("L", row: centerRow, column: body.left + centerColumn, style: .bold)
        let scale = Float(mapRows / 2) / EmitterModel.limit
        let emitterRow = centerRow - Int((emitter.z * scale).rounded())
        let emitterColumn = centerColumn + Int((emitter.x * scale * 2).rounded())
        body.screen.put("E", row: emitterRow, column: body.left + emitterColumn, style: Style(.bold, foreground: .cyan))

        var side = PageCanvas(screen: body.screen, top: top, bottom: body.bottom, glyphs: body.glyphs,
                              left: body.left + mapColumns + 2)
        side.line("Emitter " + (emitter.playing ? "playing" : "stopped") + (emitter.orbiting ? ", orbiting" : ""))
        side.line(String(format: "x %.1f m  z %.1f m", emitter.x, emitter.z))
        side.line(String(format: "%.1f m, %d deg", emitter.distance, Int(emitter.degrees))
                  + " (\(OrbitModel.side(degrees: emitter.degrees)))")
        side.meter("world", engine.world)
        side.skip()
        side.line("p       play / stop (Play_Emitter)")
        side.line("arrows  move 1 m (up: forward)")
        side.line("o       orbit / stop orbiting")
        side.line("h       back to 8 m in front")
        side.line("L listener, E emitter", style: .dim)
        body.screen = side.screen
        body.row = top + mapRows
    }

    private func drawMusic(_ engine: EngineSnapshot, on body: inout PageCanvas) {
        body.line("Music (Play_Music, bus 'music')  " + (musicPlaying ? "playing" : "stopped"))
        body.meter("music", engine.music)
        body.line("Other audio playing      " + (engine.otherAudioPlaying ? "yes" : "no"))
        body.line("Background music muted   " + (engine.backgroundMusicMuted ? "yes" : "no"))
        body.skip()
        body.line("m  start / stop the music (Play_Music / Stop_Music)")
        body.line("d  a line of dialogue (Play_Dialogue: the music ducks by 12 dB)")
        body.line("x  \(engine.backgroundMusicMuted ? "unmute" : "mute") background music (muteBackgroundMusic)")
    }
}
