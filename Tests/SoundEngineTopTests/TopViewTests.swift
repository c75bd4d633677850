import TerminalUI
import Testing

@testable import soundengine_top

/// The pages rendered into a screen grid of 80×24 (and larger), read back as text,
/// and what each key does.
struct TopViewTests {
    static func attached(_ lines: [String]) -> TopState {
        var state = TopState(mode: .live)
        for line in lines { state.model.apply(line: line) }
        return state
    }

    static let hello =
        #"{"type":"hello","t":0,"protocol":1,"pid":99,"program":"viewgame","engine":"0.9.0","sampleRate":48000,"channels":2,"samplesPerFrame":512,"rate":30,"edits":true}"#

    func render(_ state: TopState, width: Int = 80, height: Int = 24, glyphs: Glyphs = .unicode) -> Screen {
        var screen = Screen(width: width, height: height)
        TopView(glyphs: glyphs).render(state, into: &screen)
        return screen
    }

    @Test(arguments: Page.allCases) func everyPageFits80x24(page: Page) {
        var state = Self.attached([Self.hello] + ProtocolLines.picture + [ProtocolLines.notification])
        state.page = page
        let screen = render(state)
        #expect(screen.lines[0].contains("viewgame (pid 99)"))
        #expect(screen.lines[1].contains("\(page.rawValue) \(page.title)"))
        #expect(screen.lines[23].contains("q quit"))
        #expect(screen.lines.allSatisfy { $0.count == 80 })
        #expect(render(state, width: 132, height: 50).lines[49].contains("q quit"))
    }

    @Test func sessionPageShowsTheRoute() {
        let screen = render(Self.attached([Self.hello, ProtocolLines.session()]))
        #expect(screen.contains("Category"))
        #expect(screen.contains("playback"))
        #expect(screen.contains("Speaker  [Speaker]  uid speaker"))
        #expect(screen.contains("LIVE"))
    }

    @Test func voicesSortByGainIdEventAndBus() {
        var state = Self.attached([
            Self.hello,
            ProtocolLines.voices([
                ProtocolLines.voice(id: 3, event: "B_event", bus: "zbus", gain: 0.1),
                ProtocolLines.voice(id: 1, event: "C_event", bus: "abus", gain: 0.9),
                ProtocolLines.voice(id: 2, event: "A_event", bus: "mbus", gain: 0.5),
            ]),
        ])
        state.page = .voices
        func order() -> [Int] { state.sortedVoices.map(\.playingID) }
        #expect(order() == [1, 2, 3])  // gain, loudest first
        _ = state.handle(.character("s"))
        #expect(state.voiceSort == .id && order() == [1, 2, 3])
        _ = state.handle(.character("s"))
        #expect(state.voiceSort == .event && order() == [2, 3, 1])
        _ = state.handle(.character("s"))
        #expect(state.voiceSort == .bus && order() == [1, 2, 3])
        let screen = render(state)
        #expect(screen.contains("sorted by bus"))
        #expect(screen.contains("C_event"))
        let rows = screen.lines.filter { $0.contains("_event") }
        #expect(rows.map { $0.contains("C_event") } == [true, false, false])
    }

    @Test func busesShowLevelBarsAndMuteSendsACommandWhenEditsAreOn() {
        var state = Self.attached([Self.hello, ProtocolLines.buses])
        state.page = .buses
        let screen = render(state, glyphs: .ascii)
        #expect(screen.contains(" sfx"))  // indented under master
        #expect(screen.lines.contains { $0.contains("master") && $0.contains("#") && $0.contains("-6.0") })
        #expect(screen.lines.contains { $0.contains("sfx") && $0.contains("M -") })
        #expect(screen.contains("m mute"))
        _ = state.handle(.down)
        #expect(state.handle(.character("m")) == [.send(#"{"cmd":"muteBus","bus":"sfx","mute":false}"#)])
        #expect(screen.contains("s solo"))
        #expect(state.handle(.character("s")) == [.send(#"{"cmd":"soloBus","bus":"sfx","solo":true}"#)])
        state.model.hello?.edits = false
        #expect(state.handle(.character("m")) == [])
        #expect(state.handle(.character("s")) == [])
    }

    @Test func keysChoosePagesAndActions() {
        var state = Self.attached([Self.hello])
        #expect(state.handle(.character("3")) == [] && state.page == .buses)
        _ = state.handle(.tab)
        #expect(state.page == .syncs)
        _ = state.handle(.backTab)
        _ = state.handle(.backTab)
        #expect(state.page == .voices)
        _ = state.handle(.character("6"))
        _ = state.handle(.tab)
        #expect(state.page == .session)
        #expect(state.handle(.character("r")) == [.toggleRecording])
        #expect(state.handle(.character("l")) == [.backToList])
        #expect(state.handle(.controlC) == [.quit])
        #expect(state.handle(.character("q")) == [.quit])
        state.linkLost = true
        #expect(state.handle(.character("r")) == [])
        #expect(render(state).contains("went away"))

        var replay = TopState(mode: .replay)
        #expect(replay.handle(.character("p")) == [.togglePause])
        #expect(replay.handle(.character("l")) == [])
    }

    @Test func theListAttachesToTheSelectedGame() {
        var state = TopState(mode: .list)
        #expect(state.handle(.enter) == [])
        #expect(render(state).contains("No running game"))
        let hello = ProfilerMessage.Hello(
            protocolVersion: 1, pid: 10, program: "one", engine: "0.9", sampleRate: 48000, channels: 2, samplesPerFrame: 512, rate: 30,
            edits: false)
        var other = hello
        other.pid = 11
        other.program = "two"
        state.games = [.init(socketPath: "/x/10.sock", hello: hello), .init(socketPath: "/x/11.sock", hello: other)]
        _ = state.handle(.down)
        _ = state.handle(.down)  // clamped at the last game
        #expect(state.handle(.enter) == [.attach("/x/11.sock")])
        let screen = render(state)
        #expect(screen.contains("one") && screen.contains("two"))
        #expect(render(state, glyphs: .ascii).contains("Up/Dn select"))
    }

    @Test func optionsParse() throws {
        #expect(try TopOptions(arguments: ["--pid", "12", "--record", "f"]).pid == 12)
        #expect(try TopOptions(arguments: ["--replay", "f"]).replayPath == "f")
        #expect(throws: TopOptions.Failure.self) { try TopOptions(arguments: ["--pid", "x"]) }
        #expect(throws: TopOptions.Failure.self) { try TopOptions(arguments: ["--pid", "1", "--socket", "s"]) }
        #expect(throws: TopOptions.Failure.self) { try TopOptions(arguments: ["--replay", "f", "--pid", "1"]) }
        #expect(throws: TopOptions.Failure.self) { try TopOptions(arguments: ["--what"]) }
    }

    @Test func aReplayPlaysAtRecordedSpeedAndPauses() {
        var player = SessionRecording.Player(entries: [
            .init(offset: 0, line: "a"), .init(offset: 1.0, line: "b"), .init(offset: 2.0, line: "c"),
        ])
        #expect(player.advance(by: 0) == ["a"])
        #expect(player.secondsToNext == 1.0)
        #expect(player.advance(by: 0.5) == [])
        player.togglePause()
        #expect(player.advance(by: 10) == [])
        #expect(player.secondsToNext == nil)
        player.togglePause()
        #expect(player.advance(by: 0.5) == ["b"])
        #expect(player.advance(by: 1.0) == ["c"])
        #expect(player.isFinished)
    }
}
