import Foundation
import TerminalUI

/// The pages of an attached session, in the order of their keys (1–6).
enum Page: Int, CaseIterable, Sendable {
    case session = 1, voices, buses, syncs, log, performance

    var title: String {
        switch self {
        case .session: "Session"
        case .voices: "Voices"
        case .buses: "Buses"
        case .syncs: "Game syncs"
        case .log: "Event log"
        case .performance: "Performance"
        }
    }
}

/// What the Voices page is sorted by (`s` cycles through them).
enum VoiceSort: String, CaseIterable, Sendable {
    case gain, id, event, bus

    func ordered(_ voices: [ProfilerMessage.Voice]) -> [ProfilerMessage.Voice] {
        switch self {
        case .gain: voices.sorted { ($0.gain, $1.playingID) > ($1.gain, $0.playingID) }
        case .id: voices.sorted { $0.playingID < $1.playingID }
        case .event: voices.sorted { ($0.event ?? "", $0.playingID) < ($1.event ?? "", $1.playingID) }
        case .bus: voices.sorted { ($0.bus, $0.playingID) < ($1.bus, $1.playingID) }
        }
    }

    var next: VoiceSort {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

/// What the loop must do after a key: the state decides, the loop performs
/// (so every key's meaning is a plain unit test).
enum TopAction: Equatable, Sendable {
    case quit
    /// Attach to the game at this socket path.
    case attach(String)
    case backToList
    case refreshList
    case toggleRecording
    case togglePause
    /// Send this command line to the game.
    case send(String)
}

/// Everything on screen, as a value: the mode, the page, the selection and
/// the model of the attached game.
struct TopState: Sendable {
    enum Mode: Equatable, Sendable {
        /// The list of running games.
        case list
        /// Attached to a live game.
        case live
        /// Replaying a recording.
        case replay
    }

    var mode: Mode
    var page = Page.session
    var voiceSort = VoiceSort.gain
    /// The selected row of the list, the Voices or the Buses page.
    var selection = 0
    /// How many rows the event log is scrolled up from its newest line.
    var logScroll = 0
    var games: [GameDirectory.Game] = []
    /// The folder the list of games comes from.
    var folder = ""
    var model = ProfilerModel()
    /// The live game closed its link (quit or crashed).
    var linkLost = false
    /// The file being recorded to, if any.
    var recordingPath: String?
    var isPaused = false
    var replayFinished = false
    /// A line for the status bar (an error, a result).
    var status: String?

    init(mode: Mode) { self.mode = mode }

    /// Whether the game allows live edits now.
    var canEdit: Bool { mode == .live && !linkLost && model.hello?.edits == true }

    var sortedVoices: [ProfilerMessage.Voice] { voiceSort.ordered(model.voices.voices) }

    /// How many rows the current selection moves over.
    private var selectableCount: Int {
        switch mode {
        case .list: games.count
        case .live, .replay:
            switch page {
            case .voices: model.voices.voices.count
            case .buses: model.buses.count
            default: 0
            }
        }
    }

    /// Keeps the selection on a row that exists.
    mutating func clampSelection() {
        selection = max(0, min(selection, selectableCount - 1))
    }

    mutating func handle(_ key: Key) -> [TopAction] {
        if key == .character("q") || key == .controlC { return [.quit] }
        switch key {
        case .up: selection -= 1
        case .down: selection += 1
        case .home: selection = 0
        case .end: selection = selectableCount - 1
        default: break
        }
        defer { clampSelection() }
        return mode == .list ? handleInList(key) : handleAttached(key)
    }

    private mutating func handleInList(_ key: Key) -> [TopAction] {
        switch key {
        case .enter:
            guard games.indices.contains(selection) else { return [] }
            return [.attach(games[selection].socketPath)]
        case .character("r"): return [.refreshList]
        default: return []
        }
    }

    private mutating func handleAttached(_ key: Key) -> [TopAction] {
        switch key {
        case .character(let c) where c.isWholeNumber:
            if let number = c.wholeNumberValue, let page = Page(rawValue: number) { show(page) }
        case .tab, .right: show(Page(rawValue: page.rawValue % Page.allCases.count + 1) ?? .session)
        case .backTab, .left: show(Page(rawValue: (page.rawValue + Page.allCases.count - 2) % Page.allCases.count + 1) ?? .session)
        case .character("s") where page == .voices: voiceSort = voiceSort.next
        case .pageUp:
            if page == .log { logScroll = min(logScroll + 10, max(0, model.log.count - 1)) } else { selection -= 10 }
        case .pageDown:
            if page == .log { logScroll = max(0, logScroll - 10) } else { selection += 10 }
        case .character("r") where mode == .live && !linkLost: return [.toggleRecording]
        case .character("p"), .character(" "):
            if mode == .replay { return [.togglePause] }
        case .character("m") where page == .buses && canEdit:
            guard model.buses.indices.contains(selection) else { return [] }
            let bus = model.buses[selection]
            return [.send(#"{"cmd":"muteBus","bus":\#(jsonString(bus.name)),"mute":\#(!bus.muted)}"#)]
        case .character("s") where page == .buses && canEdit:
            guard model.buses.indices.contains(selection) else { return [] }
            let bus = model.buses[selection]
            return [.send(#"{"cmd":"soloBus","bus":\#(jsonString(bus.name)),"solo":\#(!bus.solo)}"#)]
        case .character("l"), .escape, .backspace:
            if mode == .live { return [.backToList] }
        default: break
        }
        return []
    }

    private mutating func show(_ page: Page) {
        if page != self.page { selection = 0 }
        self.page = page
    }

    /// `text` as a JSON string literal.
    private func jsonString(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
