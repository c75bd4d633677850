import Dispatch
import Foundation
import SoundEngine
import Synchronization

/// `--headless`: initialize, play, print one JSON object per line for every
/// session notification and engine state change, act on the JSON commands
/// read from stdin (answering each with one `result` line), terminate. The
/// lines are a contract for QA scripts (docs/integration-demo.md).
///
/// One input stream drives the run: stdin lines and their end, SIGINT and
/// SIGTERM, voices ending, and the time limits. Commands run one at a time,
/// in the order they were read, on the task that runs the demo.
struct HeadlessDemo {
    let options: DemoOptions
    /// The `--bank` files, parsed (main refused bad ones and unknown `--post` events).
    let banks: DemoBanks

    /// With no `--seconds`: how long the run may go on after stdin ends while
    /// a looping voice still plays (`--loop`'s old 10 s).
    static let loopingGrace: Duration = .seconds(10)
    /// ... and while only voices that end by themselves play (a safety net,
    /// e.g. for voices held by a paused engine).
    static let voiceGrace: Duration = .seconds(3600)

    /// Runs the demo; returns the exit status (0 ok, 1 the engine or a `--play` sound failed).
    func run() async -> Int32 {
        do {
            try SoundEngine.initialize(SoundEngine.defaultInitSettings(), options.platformSettings)
        } catch {
            Self.complain("cannot start the sound engine: \(error)")
            return 1
        }
        let out = LineWriter()

        // The stream starts with the engine's current state; the output line
        // follows it, so the first line is always engineState. Commands wait
        // for both, so no result line comes before them.
        let events = SoundEngine.events()
        let granted: SoundEngine.OutputStream
        do { granted = try SoundEngine.outputStream } catch { return 1 }
        let (firstLines, firstLinesWritten) = AsyncStream<Never>.makeStream()
        let printer = Task {
            var first = true
            for await event in events {
                out.emit { t in
                    first ? [JSONLine.event(event, t: t), Self.outputLine(granted, t: t)] : [JSONLine.event(event, t: t)]
                }
                if first { firstLinesWritten.finish() }
                first = false
                // The façade's stream spans engines; this run's ends with its terminate.
                if case .engineState(.stopped) = event { break }
            }
            firstLinesWritten.finish()
        }

        let (inputs, input) = AsyncStream<RunInput>.makeStream()
        let signals = [SIGINT, SIGTERM].map { sig -> any DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig)
            source.setEventHandler { input.yield(.signal) }
            source.resume()
            return source
        }
        var timers: [Task<Void, Never>] = []
        func after(_ delay: Duration, _ item: RunInput = .timeUp) {
            timers.append(Task {
                guard (try? await Task.sleep(for: delay)) != nil else { return }
                input.yield(item)
            })
        }
        defer {
            signals.forEach { $0.cancel() }
            timers.forEach { $0.cancel() }
        }

        var status: Int32 = 0
        let runner: CommandRunner
        do {
            runner = try CommandRunner(out: out, input: input, banks: banks)
        } catch {
            Self.complain("cannot create the sfx and music buses: \(error)")
            SoundEngine.terminate()
            await printer.value
            return 1
        }
        if let failure = banks.load() {
            Self.complain("bank \(failure.path): \(failure.error)")
            SoundEngine.terminate()
            await printer.value
            return 1
        }
        do {
            try SoundEngine.registerGameObject(DemoBanks.defaultGameObject, name: DemoBanks.defaultGameObjectName)
            try SoundEngine.setPosition(DemoBanks.defaultGameObject, .zero)
        } catch {
            Self.complain("\(error)")
            SoundEngine.terminate()
            await printer.value
            return 1
        }
        // The chime plays only when nothing else was asked for.
        let defaultSounds = banks.isEmpty && options.posts.isEmpty ? [Self.chimePath] : []
        for path in options.files.isEmpty ? defaultSounds : options.files {
            do {
                try runner.play(path, loop: options.loop, on: .master)
            } catch {
                Self.complain("\(path): \(error)")
                status = 1
            }
        }
        if let seconds = options.seconds { after(.milliseconds(Int(seconds * 1000))) }
        var pendingPosts = options.posts.count
        for (index, post) in options.posts.enumerated() {
            after(.nanoseconds(Int64((post.at * 1e9).rounded())), .post(index))
        }
        Self.readStandardInput(into: input)

        for await _ in firstLines {}
        var stdinOpen = true
        run: for await item in inputs {
            switch item {
            case .line(let text):
                guard !text.allSatisfy(\.isWhitespace) else { continue run }
                if runner.handle(text) == .quit { break run }
            case .endOfInput:
                stdinOpen = false
                if options.seconds == nil { after(runner.hasLoopingVoice ? Self.loopingGrace : Self.voiceGrace) }
            case .voiceEnded(let token):
                runner.voiceEnded(token)
            case .post(let index):
                pendingPosts -= 1
                let event = options.posts[index].event
                do {
                    try runner.postScheduled(event)
                    // A looping posting that starts after stdin ended gets --loop's limit too.
                    if !stdinOpen && options.seconds == nil && banks.mayLoop(event: event) { after(Self.loopingGrace) }
                } catch {
                    Self.complain("--post \(event): \(error)")
                    status = 1
                }
            case .eventEnded(let playing):
                runner.eventEnded(playing)
            case .marker(let playing, let name, let sound):
                runner.markerCrossed(playing, name: name, sound: sound)
            case .signal, .timeUp:
                break run
            }
            // Without --seconds the run ends once nothing can happen any more:
            // no more commands can come, every voice and posting has ended and
            // no --post is still to come.
            if options.seconds == nil && !stdinOpen && !runner.hasLiveVoices && pendingPosts == 0 { break run }
        }
        SoundEngine.terminate()
        input.finish()
        await printer.value
        return status
    }

    /// Reads stdin line by line on its own thread (a blocking read must not
    /// hold one of the few cooperative threads). The thread is left blocked
    /// in `read` when the run ends first; exit ends it.
    static func readStandardInput(into input: AsyncStream<RunInput>.Continuation) {
        let reader = Thread {
            while let line = readLine(strippingNewline: true) { input.yield(.line(line)) }
            input.yield(.endOfInput)
        }
        reader.name = "IntegrationDemo stdin"
        reader.start()
    }

    static func complain(_ message: String) {
        FileHandle.standardError.write(Data("IntegrationDemo: \(message)\n".utf8))
    }

    static func outputLine(_ granted: SoundEngine.OutputStream, t: Double) -> JSONLine {
        var line = JSONLine(t: t, event: "output")
        line.add("server", string: "\(granted.serverName) \(granted.serverVersion)")
        line.add("device", string: granted.deviceName)
        line.add("sampleFormat", string: granted.format.sampleFormat.rawValue)
        line.add("channels", int: granted.format.channelCount)
        line.add("sampleRate", int: granted.format.sampleRate)
        line.add("bufferFrames", int: granted.buffer.targetLength)
        line.add("requestFrames", int: granted.buffer.minimumRequest)
        return line
    }

    static var chimePath: String {
        Bundle.module.url(forResource: "Resources/chime", withExtension: "ogg")!.path
    }
}

/// What the headless run waits for.
enum RunInput: Sendable {
    /// A line of stdin, without its newline.
    case line(String)
    /// stdin reached end of file (at once for `/dev/null`).
    case endOfInput
    /// SIGINT or SIGTERM.
    case signal
    /// The voice the demo numbered `token` ended (played out, stopped, failed).
    case voiceEnded(Int)
    /// The time of `options.posts[index]` has come.
    case post(Int)
    /// A posting ended (its end-of-event callback).
    case eventEnded(SoundEngine.PlayingID)
    /// A voice of a posting crossed a marker of its sound.
    case marker(SoundEngine.PlayingID, name: String, sound: String)
    /// `--seconds` elapsed, or the grace after the end of stdin.
    case timeUp
}

/// The headless demo's stdout. Event lines (the printer task) and result
/// lines (the command loop) come from different tasks: one lock writes whole
/// lines, and `t` is read under it, so times never go backwards down the output.
final class LineWriter: Sendable {
    private let started = ContinuousClock.now
    private let lock = Mutex(())

    /// Writes, together, the lines `make` builds for the current time.
    func emit(_ make: (_ t: Double) -> [JSONLine]) {
        lock.withLock { _ in
            let d = ContinuousClock.now - started
            let t = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            Self.write(make(t).map { $0.text + "\n" }.joined())
        }
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes = bytes.dropFirst(n)
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return  // stdout is gone; nobody is reading the lines
            }
        }
    }
}

/// Acts on stdin commands for one headless run and answers each with its
/// result line. Used only by the run's task.
final class CommandRunner {
    let out: LineWriter
    let input: AsyncStream<RunInput>.Continuation
    let buses: [DemoBus: SoundEngine.BusID]
    /// Loaded sounds by path: playing a file again reuses it.
    private var sounds: [String: SoundEngine.SoundID] = [:]
    /// The voices that have not ended, by token, and whether they loop.
    private var live: [Int: Bool] = [:]
    private var nextToken = 0
    /// The banks loaded (`--bank` and `loadBank`), to know which events may loop.
    private var banks: DemoBanks
    /// The postings that have not ended: the event's name as posted and whether it may loop.
    private var postings: [SoundEngine.PlayingID: (name: String, loops: Bool)] = [:]

    enum Answer: Equatable {
        case done
        case quit
    }

    /// Creates the `sfx` and `music` buses under master; `music` is flagged
    /// mute-for-background-music.
    init(out: LineWriter, input: AsyncStream<RunInput>.Continuation, banks: DemoBanks) throws(SoundEngineError) {
        self.out = out
        self.input = input
        self.banks = banks
        let sfx = try SoundEngine.createBus(name: DemoBus.sfx.rawValue)
        let music = try SoundEngine.createBus(name: DemoBus.music.rawValue)
        try SoundEngine.setBus(music, mutedForBackgroundMusic: true)
        buses = [.sfx: sfx, .music: music]
    }

    var hasLiveVoices: Bool { !live.isEmpty || !postings.isEmpty }
    var hasLoopingVoice: Bool { live.values.contains(true) || postings.values.contains { $0.loops } }

    func voiceEnded(_ token: Int) { live[token] = nil }

    /// Posts `event`; its end comes back as `.eventEnded` (always after this
    /// returns, as the run loop handles it: the result line comes first).
    func post(_ event: String, on object: SoundEngine.GameObjectID) throws(SoundEngineError) -> SoundEngine.PlayingID {
        let input = input
        let playing = try SoundEngine.postEvent(.init(event), on: object) { callback in
            switch callback {
            case .endOfEvent(let id): input.yield(.eventEnded(id))
            case .marker(let id, let name, let sound): input.yield(.marker(id, name: name, sound: sound))
            case .voiceFailed, .duration: break  // the engine logs a failure; the posting's end follows
            }
        }
        postings[playing] = (event, banks.mayLoop(event: event))
        return playing
    }

    /// A `--post`: posts on the default game object and writes its `posted` line.
    func postScheduled(_ event: String) throws(SoundEngineError) {
        let object = DemoBanks.defaultGameObject
        let playing = try post(event, on: object)
        out.emit { t in [JSONLine.posted(event, playing, on: object, t: t)] }
    }

    /// Writes the `marker` line of a posting of this run.
    func markerCrossed(_ playing: SoundEngine.PlayingID, name: String, sound: String) {
        guard postings[playing] != nil else { return }
        out.emit { t in [JSONLine.marker(playing, name: name, sound: sound, t: t)] }
    }

    /// Writes the `endOfEvent` line of a posting of this run.
    func eventEnded(_ playing: SoundEngine.PlayingID) {
        guard let posting = postings.removeValue(forKey: playing) else { return }
        out.emit { t in [JSONLine.endOfEvent(playing, name: posting.name, t: t)] }
    }

    /// Loads `path` (once) and plays it; the voice's end comes back as `.voiceEnded`.
    func play(_ path: String, loop: Bool, on bus: SoundEngine.BusID) throws(SoundEngineError) {
        let sound: SoundEngine.SoundID
        if let loaded = sounds[path] {
            sound = loaded
        } else {
            sound = try SoundEngine.loadSound(path: path)
            sounds[path] = sound
        }
        let token = nextToken
        nextToken += 1
        let input = input
        try SoundEngine.play(sound, on: bus, .init(loop: loop)) { info in
            if case .endOfEvent = info { input.yield(.voiceEnded(token)) }
        }
        live[token] = loop
    }

    /// Parses and performs one stdin line, and writes its result line (after
    /// the `route` line for `route`). Nothing here ends the run but `quit`.
    func handle(_ text: String) -> Answer {
        let received = ReceivedCommand(parsing: text)
        func answer(
            _ failure: (error: String, code: String)?, extra: [(String, String)] = [],
            before: (Double) -> [JSONLine] = { _ in [] }
        ) {
            out.emit { t in
                before(t) + [JSONLine.result(cmd: received.cmd, id: received.id, failure: failure, extra: extra, t: t)]
            }
        }
        let command: DemoCommand
        switch received.command {
        case .failure(let invalid):
            answer((invalid.message, "invalidCommand"))
            return .done
        case .success(let c):
            command = c
        }
        do {
            switch command {
            case .route:
                let session = try SoundEngine.audioSession
                answer(nil) { t in [JSONLine.routeReport(session, t: t)] }
            case .quit:
                answer(nil)
                return .quit
            case .postEvent(let event, let object):
                let playing = try post(event, on: object ?? DemoBanks.defaultGameObject)
                answer(nil, extra: [("playingID", String(playing.rawValue))])
            default:
                try perform(command)
                answer(nil)
            }
        } catch {
            // The engine's idNotFound reason is only what was not found ("event 'X'").
            if case .idNotFound = error { answer(("not found: \(error.reason)", error.caseName)) }
            else { answer((error.reason, error.caseName)) }
        }
        return .done
    }

    private func perform(_ command: DemoCommand) throws(SoundEngineError) {
        switch command {
        case .setActive(let active, let options):
            try SoundEngine.audioSession.setActive(active, options: options)
        case .setSession(let category, let options, let mode):
            var configuration = try SoundEngine.audioSession.configuration
            if let category { configuration.category = category }
            if let options { configuration.categoryOptions = options }
            if let mode { configuration.mode = mode }
            try SoundEngine.changeAudioSessionProperties(configuration)
        case .overrideOutputAudioPort(let port):
            try SoundEngine.audioSession.overrideOutputAudioPort(port)
        case .setPreferredInput(let uid):
            try setPreferredInput(uid: uid)
        case .appState(let state):
            try SoundEngine.setApplicationState(state)
        case .suspend(let renderAnyway):
            // The contract's `fadeOut` is a Bool (SPEC 6.1); either way the
            // engine fades over one quantum, the shortest fade that does not
            // click (it never cuts hard: decision 0013).
            try SoundEngine.suspend(renderAnyway: renderAnyway)
        case .wakeup:
            try SoundEngine.wakeupFromSuspend()
        case .play(let file, let loop, let bus):
            // Buses are made at start; the dictionary has every DemoBus.
            try play(file ?? HeadlessDemo.chimePath, loop: loop, on: buses[bus]!)
        case .stopAll(let fade):
            try SoundEngine.stopAll(fade: fade)
        case .muteBackgroundMusic(let mute):
            try SoundEngine.muteBackgroundMusic(mute)
        case .stopPlayingID(let playing, let fade):
            try SoundEngine.stop(playing, fade: fade)
        case .setRTPC(let name, let value, let object, let ramp):
            try SoundEngine.setRTPCValue(.init(name), value, on: object, ramp: ramp)
        case .setState(let group, let state):
            try SoundEngine.setState(.init(group), .init(state))
        case .setSwitch(let group, let value, let object):
            try SoundEngine.setSwitch(.init(group), .init(value), on: object ?? DemoBanks.defaultGameObject)
        case .setPosition(let object, let position):
            try SoundEngine.setPosition(object ?? DemoBanks.defaultGameObject, position)
        case .registerGameObject(let object, let name):
            try SoundEngine.registerGameObject(object, name: name)
        case .loadBank(let file):
            try SoundEngine.loadBank(path: file)
            banks.record(path: file)
        case .postEvent, .route, .quit:
            break  // answered by handle
        }
    }

    /// Prefers the present input whose uid is `uid` (`nil`: the default rule).
    private func setPreferredInput(uid: String?) throws(SoundEngineError) {
        let session = try SoundEngine.audioSession
        guard let uid else { return try session.setPreferredInput(nil) }
        guard let port = session.availableInputs.first(where: { $0.uid == uid }) else {
            let present = session.availableInputs.map(\.uid).joined(separator: ", ")
            throw .invalidParameter("setPreferredInput: no input the session may use has uid '\(uid)'; present: \(present)")
        }
        try session.setPreferredInput(port)
    }
}
