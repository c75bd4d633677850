import Foundation
import SoundEngine
import Synchronization
import TerminalUI

/// The interactive demo on a terminal, full screen: pages like Wwise's
/// Integration Demo, redrawn the moment a key is pressed or a session
/// notification arrives, and on a timer for levels and positions.
///
/// One loop on one task owns the terminal and the model: it draws a frame,
/// waits (``RawTerminal/waitForInput(timeout:wake:)``) for a key, a resize,
/// a notification or the next tick, and performs what the model asks. Engine
/// calls return at once (the engine does its server work on its own threads),
/// so the loop never waits on the engine and the engine never on the loop.
/// Notifications come from the engine's stream on another task, through a
/// ``NotificationInbox`` that wakes the loop.
struct FullScreenDemo {
    /// Redraws a second at least, for meters and the orbiting emitter.
    static let frameInterval: Duration = .milliseconds(50)

    let terminal: RawTerminal
    let banks: DemoBanks
    let files: [String]

    /// Runs until `q` or Ctrl-C (or the terminal goes away), then restores
    /// the terminal and stops the engine.
    func run() async {
        let start = ContinuousClock.now
        let inbox = NotificationInbox()
        let listener = Task {
            for await event in SoundEngine.events() {
                inbox.deliver(EventLog.Entry(t: Self.seconds(since: start), text: Self.logText(event)))
                if case .engineState(.stopped) = event { break }  // the stream spans engines
            }
        }
        let music = try? SoundEngine.createBus(name: "music")
        if let music { try? SoundEngine.setBus(music, mutedForBackgroundMusic: true) }
        let problem = InteractiveDemo.loadContent(banks)
        let buses = Buses(music: music, world: (try? SoundEngine.bus(named: "world")) ?? nil)
        var performer = DemoActionPerformer(musicBus: music ?? .master)
        var model = DemoScreenModel(hasContent: problem == nil)
        model.message = problem ?? "Ready. Keys are listed on each page; 1-8 or Tab change page, q quits."
        for path in files { performer.run([.playFile(path)], into: &model, quiet: false) }

        let glyphs = Glyphs.forLocale(environment: ProcessInfo.processInfo.environment)
        var renderer = ScreenRenderer()
        var decoder = KeyDecoder()
        while !model.quitRequested {
            for entry in inbox.take() { model.log.append(entry) }
            var engine = buses.read(content: model.hasContent)
            let size = terminal.size
            terminal.write(renderer.frame(for: model.render(engine: engine, width: size.columns, height: size.rows, glyphs: glyphs)))

            let ready = terminal.waitForInput(timeout: Self.frameInterval, wake: inbox.wake)
            if ready.woken { inbox.wake?.drain() }
            if ready.resize, terminal.takeResize() { renderer.invalidate() }
            var keys: [Key] = []
            if ready.input {
                guard let bytes = terminal.readInput() else { break }  // the terminal went away
                keys = decoder.decode(bytes)
            } else if !ready.woken, decoder.hasPending {
                keys = decoder.flush()  // a lone Escape: nothing followed it within a tick
            }
            for key in keys {
                performer.run(model.handle(key, engine: engine, now: Self.seconds(since: start)), into: &model, quiet: false)
                engine = buses.read(content: model.hasContent)  // the next key sees what this one did
            }
            performer.run(model.tick(now: Self.seconds(since: start)), into: &model, quiet: true)
        }
        terminal.leave()
        SoundEngine.terminate()
        await listener.value
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// A notification as the event log shows it: one short line.
    static func logText(_ event: SessionEvent) -> String {
        guard case .routeChange(let change) = event else { return InteractiveDemo.describe(event) }
        func outputs(_ route: AudioSession.RouteDescription) -> String {
            route.outputs.isEmpty ? "none" : route.outputs.map { "\($0.portName) (\($0.portType.rawValue))" }.joined(separator: ", ")
        }
        return "route changed (\(change.reason)): \(outputs(change.previousRoute)) -> \(outputs(change.currentRoute))"
    }

    /// The demo's buses whose levels the pages show.
    struct Buses {
        let music: SoundEngine.BusID?
        let world: SoundEngine.BusID?

        /// The engine's state now, from the snapshots it publishes.
        func read(content: Bool) -> EngineSnapshot {
            var snapshot = EngineSnapshot()
            if let status = try? SoundEngine.status {
                snapshot.status = status.description
                if case .running = status { snapshot.isRunning = true }
            }
            if let session = try? SoundEngine.audioSession {
                func ports(_ list: [AudioSession.PortDescription]) -> [EngineSnapshot.Port] {
                    list.map { EngineSnapshot.Port(type: $0.portType.rawValue, name: $0.portName, uid: $0.uid) }
                }
                snapshot.configuration = session.configuration
                snapshot.isActive = session.isActive
                snapshot.isInterrupted = session.isInterrupted
                snapshot.speakerOverride = session.outputPortOverride == .speaker
                let route = session.currentRoute
                snapshot.outputs = ports(route.outputs)
                snapshot.inputs = ports(route.inputs)
                snapshot.availableOutputs = ports(session.availableOutputs)
                snapshot.availableInputs = ports(session.availableInputs)
                snapshot.otherAudioPlaying = session.isOtherAudioPlaying
                snapshot.secondaryAudioShouldBeSilenced = session.secondaryAudioShouldBeSilencedHint
            }
            snapshot.backgroundMusicMuted = (try? SoundEngine.isBackgroundMusicMuted) ?? false
            if content { snapshot.rpmInForce = try? SoundEngine.rtpcValue("RPM", on: PageObject.car) }
            func level(_ bus: SoundEngine.BusID) -> EngineSnapshot.Level? {
                (try? SoundEngine.meter(bus)).map { EngineSnapshot.Level(peak: Double($0.peak), rms: Double($0.rms)) }
            }
            snapshot.master = level(.master) ?? EngineSnapshot.Level()
            snapshot.music = music.flatMap(level)
            snapshot.world = world.flatMap(level)
            if let statistics = try? SoundEngine.statistics {
                snapshot.underflows = statistics.underflows
                snapshot.voices = statistics.voicesActive
            }
            return snapshot
        }
    }
}

/// Session notifications on their way from the engine's stream to the UI
/// loop: appended under a lock by the listening task, taken by the loop,
/// which the ``WakeSignal`` wakes at once.
final class NotificationInbox: Sendable {
    private let pending = Mutex<[EventLog.Entry]>([])
    /// Signalled on every delivery; nil when no pipe could be made (the loop then sees it at its next tick).
    let wake = WakeSignal()

    func deliver(_ entry: EventLog.Entry) {
        pending.withLock { $0.append(entry) }
        wake?.signal()
    }

    func take() -> [EventLog.Entry] {
        pending.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}

/// Performs the model's ``DemoAction``s on the engine and remembers the one
/// voice it must stop by ID (the looping music).
struct DemoActionPerformer {
    let musicBus: SoundEngine.BusID
    private(set) var musicLoop: SoundEngine.PlayingID?

    init(musicBus: SoundEngine.BusID) { self.musicBus = musicBus }

    /// Performs `actions` in order; each one's outcome goes to the model's
    /// status line (failures always, successes unless `quiet`: the timer's
    /// steps and positions would hide everything else).
    mutating func run(_ actions: [DemoAction], into model: inout DemoScreenModel, quiet: Bool) {
        for action in actions {
            do {
                try perform(action)
                if !quiet { model.message = "ok: " + action.description }
            } catch {
                model.message = "! \(action.description): \(error)"
            }
        }
    }

    mutating func perform(_ action: DemoAction) throws(SoundEngineError) {
        switch action {
        case .setSession(let configuration): try SoundEngine.changeAudioSessionProperties(configuration)
        case .setActive(let active): try SoundEngine.audioSession.setActive(active)
        case .overrideOutput(let port): try SoundEngine.audioSession.overrideOutputAudioPort(port)
        case .playFile(let path): _ = try SoundEngine.play(SoundEngine.loadSound(path: path))
        case .loopMusic(true):
            let sound = try SoundEngine.loadSound(path: HeadlessDemo.chimePath, streaming: true)
            musicLoop = try SoundEngine.play(sound, on: musicBus, SoundEngine.PlayParameters(loop: true))
        case .loopMusic(false):
            guard let playing = musicLoop else { return }
            musicLoop = nil
            try SoundEngine.stop(playing, fade: .milliseconds(50))
        case .stopAll:
            musicLoop = nil
            try SoundEngine.stopAll(fade: .milliseconds(50))
        case .suspend(true): try SoundEngine.suspend()
        case .suspend(false): try SoundEngine.wakeupFromSuspend()
        case .muteBackgroundMusic(let mute): try SoundEngine.muteBackgroundMusic(mute)
        case .setSwitch(let group, let value, let object): try SoundEngine.setSwitch(.init(group), .init(value), on: object)
        case .post(let event, let object): _ = try SoundEngine.postEvent(.init(event), on: object)
        case .setRPM(let rpm): try SoundEngine.setRTPCValue("RPM", rpm, on: PageObject.car, ramp: EngineModel.ramp)
        case .setPosition(let object, let position): try SoundEngine.setPosition(object, position)
        }
    }
}
