import Foundation
import Glibc
import TerminalUI

/// The program's loop: polls the keyboard, the window size and the game's
/// link (or a recording's clock), feeds what comes to ``TopState``, performs
/// the ``TopAction``s it returns, and draws a frame.
final class TopApp {
    private let options: TopOptions
    private let directory: GameDirectory
    private var state: TopState
    private var keys = KeyDecoder()
    private var renderer = ScreenRenderer()
    private let view: TopView
    private var socket: ProfilerSocket?
    private var recorder: SessionRecording.Recorder?
    private var player: SessionRecording.Player?
    /// The newest raw line of each picture kind, so a recording started
    /// mid-session begins with the whole picture.
    private var pictures: [String: String] = [:]
    private var nextListRefresh = 0.0
    private var running = true
    private var recordOnAttach: Bool

    init(options: TopOptions, directory: GameDirectory) {
        self.options = options
        self.directory = directory
        let environment = ProcessInfo.processInfo.environment
        view = TopView(glyphs: options.ascii ? .ascii : Glyphs.forLocale(environment: environment))
        state = TopState(mode: options.replayPath != nil ? .replay : .list)
        state.folder = directory.folder
        recordOnAttach = options.recordPath != nil
    }

    /// Runs until the user quits; returns the exit status.
    func run() -> Int32 {
        // What can fail is checked before the full screen, so its message stays readable.
        if let path = options.replayPath {
            do {
                player = SessionRecording.Player(entries: try SessionRecording.read(path: path))
            } catch {
                return fail("cannot replay \(path): \(error)")
            }
        } else if let path = options.socketPath ?? options.pid.map({ "\(directory.folder)/\($0).sock" }) {
            do {
                try attach(path)
            } catch {
                return fail("\(error)")
            }
        } else {
            refreshList()
        }
        let terminal: RawTerminal
        do {
            terminal = try RawTerminal.enter()
        } catch {
            return fail("\(error)")
        }
        defer { terminal.leave() }
        var last = Self.now()
        while running {
            draw(on: terminal)
            waitForInput(terminal)
            let now = Self.now()
            if var player {
                let due = player.advance(by: now - last)
                state.isPaused = player.isPaused
                state.replayFinished = player.isFinished
                self.player = player
                for line in due { receive(line, now: now) }
            }
            last = now
            if state.mode == .list && now >= nextListRefresh { refreshList() }
        }
        return 0
    }

    private func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("soundengine-top: \(message)\n".utf8))
        return 1
    }

    private func draw(on terminal: RawTerminal) {
        let size = terminal.size
        var screen = Screen(width: size.columns, height: size.rows)
        view.render(state, into: &screen)
        let frame = renderer.frame(for: screen)
        if !frame.isEmpty { terminal.write(frame) }
    }

    /// Waits for a key, a resize or the link, at most until the next thing
    /// due (a replayed line, a list refresh, a lone Escape's timeout, a clock tick).
    private func waitForInput(_ terminal: RawTerminal) {
        var timeout = 250.0
        if keys.hasPending { timeout = 30 }
        if let next = player?.secondsToNext { timeout = min(timeout, next * 1000) }
        var fds = [
            pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: terminal.resizeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        if let socket { fds.append(pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), Int32(max(0, timeout.rounded(.up))))
        if ready == 0 && keys.hasPending {
            for key in keys.flush() { perform(state.handle(key)) }
        }
        guard ready > 0 else { return }
        if fds[1].revents != 0, terminal.takeResize() { renderer.invalidate() }
        if fds[0].revents != 0 {
            guard let bytes = terminal.readInput() else {
                running = false  // the terminal went away
                return
            }
            for key in keys.decode(bytes) where running { perform(state.handle(key)) }
        }
        if fds.count > 2, fds[2].revents != 0, let socket {
            let now = Self.now()
            guard let lines = socket.readLines() else {
                linkLost()
                return
            }
            for line in lines { receive(line, now: now) }
        }
    }

    private func receive(_ line: String, now: Double) {
        recorder?.record(line, now: now)
        guard let (time, message) = try? ProfilerMessage.decode(line) else {
            state.model.malformedLines += 1
            return
        }
        if let kind = message.pictureKind { pictures[kind] = line }
        state.model.apply(message, time: time)
        state.clampSelection()
    }

    private func perform(_ actions: [TopAction]) {
        for action in actions {
            switch action {
            case .quit: running = false
            case .attach(let path):
                do {
                    try attach(path)
                } catch {
                    state.status = "\(error)"
                }
            case .backToList:
                stopRecording()
                socket = nil
                state = TopState(mode: .list)
                state.folder = directory.folder
                refreshList()
            case .refreshList: refreshList()
            case .toggleRecording:
                if recorder != nil { stopRecording() } else { startRecording() }
            case .togglePause:
                player?.togglePause()
                state.isPaused = player?.isPaused ?? false
            case .send(let line):
                if socket?.send(line) != true { state.status = "could not send to the game" }
            }
        }
    }

    private func attach(_ path: String) throws {
        socket = try ProfilerSocket(path: path)
        pictures = [:]
        let folder = state.folder
        state = TopState(mode: .live)
        state.folder = folder
        if recordOnAttach {
            recordOnAttach = false
            startRecording()
        }
    }

    private func linkLost() {
        socket = nil
        stopRecording()
        state.linkLost = true
    }

    private func startRecording() {
        let path = options.recordPath ?? "soundengine-top-\(state.model.hello?.pid ?? 0)-\(Int(Date().timeIntervalSince1970)).rec"
        let now = Self.now()
        do {
            let recorder = try SessionRecording.Recorder(path: path, now: now)
            for kind in ProfilerMessage.pictureKinds { if let line = pictures[kind] { recorder.record(line, now: now) } }
            self.recorder = recorder
            state.recordingPath = path
            state.status = "recording to \(path)"
        } catch {
            state.status = "\(error)"
        }
    }

    private func stopRecording() {
        guard let recorder else { return }
        state.status = "recorded to \(recorder.path)"
        self.recorder = nil
        state.recordingPath = nil
    }

    private func refreshList() {
        state.games = directory.games()
        state.clampSelection()
        nextListRefresh = Self.now() + 2
    }

    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension ProfilerMessage {
    /// The kinds that each carry a whole picture, in the order a link sends them on connect.
    static let pictureKinds = ["hello", "session", "voices", "buses", "syncs", "performance"]

    /// This message's kind when it is a whole picture (the newest replaces the older).
    var pictureKind: String? {
        switch self {
        case .hello: "hello"
        case .session: "session"
        case .voices: "voices"
        case .buses: "buses"
        case .syncs: "syncs"
        case .performance: "performance"
        case .notification, .result, .unknown: nil
        }
    }
}
