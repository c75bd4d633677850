import Foundation
import SoundEngine
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
    /// The longest wait between frames: 20 a second at least, for meters and the orbiting emitter.
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
