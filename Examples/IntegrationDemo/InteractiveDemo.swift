import Foundation
import SoundEngine

/// The menu a person drives from a terminal, like Wwise's Integration Demo:
/// a page per area (playback, audio session, engine, output, and on the demo
/// bank footsteps, RTPC, 3D positioning, background music). Session events
/// are printed as they happen.
struct InteractiveDemo {
    let options: DemoOptions
    let banks: DemoBanks

    func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func ask(_ prompt: String) -> String? {
        FileHandle.standardOutput.write(Data(prompt.utf8))
        return readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces)
    }

    func run() async -> Int32 {
        let platform = options.platformSettings
        let engine: SoundEngineInstance
        do {
            try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
            engine = try SoundEngine.current
        } catch {
            FileHandle.standardError.write(Data("IntegrationDemo: cannot start the sound engine: \(error)\n".utf8))
            return 1
        }
        let printer = Task { [self] in
            for await event in engine.events() { say("  » \(Self.describe(event))") }
        }
        let music = try? engine.createBus(name: "music")
        if let music { try? engine.setBus(music, mutedForBackgroundMusic: true) }

        say("SoundEngine Integration Demo")
        showOutput(engine)
        let content = prepareContent()
        for path in options.files { play(path, on: .master, engine) }

        menu: while true {
            say("""

                ── main ── session: \(engine.audioSessionConfiguration) ── engine: \(engine.status)
                  1  play the chime               2  play a file…
                  3  play looping music (bus 'music', muted for background music)
                  4  stop all                     5  audio session…
                  6  suspend / wake up            7  mute / unmute background music
                  8  output and statistics        0  quit
                \(content ? """
                  f  footsteps (switch, events)   r  RTPC: car engine RPM
                  p  3D positioning               b  background music and dialogue
                """ : "  (content pages: no bank loaded)")
                """)
            guard let choice = ask("> ") else { break }
            switch choice {
            case "1": play(HeadlessDemo.chimePath, on: .master, engine)
            case "2":
                if let path = ask("file: "), !path.isEmpty { play(path, on: .master, engine) }
            case "3": play(HeadlessDemo.chimePath, on: music ?? .master, engine, loop: true)
            case "4": report { try engine.stopAll(fadeOut: .milliseconds(50)) }
            case "5": sessionPage(engine)
            case "6":
                if engine.status == .running {
                    report { try engine.suspend() }
                } else {
                    report { try engine.wakeupFromSuspend() }
                }
            case "7": report { try engine.muteBackgroundMusic(!engine.isBackgroundMusicMuted) }
            case "8": showOutput(engine)
            case "f" where content: footstepsPage()
            case "r" where content: enginePage()
            case "p" where content: positioningPage(engine)
            case "b" where content: musicPage(engine)
            case "0", "q", "quit": break menu
            case "": continue
            default: say("  ? choose a number from the menu")
            }
        }
        SoundEngine.terminate()
        await printer.value
        return 0
    }

    func play(_ path: String, on bus: BusID, _ engine: SoundEngineInstance, loop: Bool = false) {
        report {
            let sound = try engine.loadSound(path: path, streaming: loop)
            let voice = try engine.play(sound, on: bus, VoiceParameters(loop: loop))
            say("  playing \(URL(fileURLWithPath: path).lastPathComponent) as \(voice)")
        }
    }

    func sessionPage(_ engine: SoundEngineInstance) {
        var session = engine.audioSessionConfiguration
        say("  categories: \(Category.names.joined(separator: ", "))")
        if let c = ask("  category [\(session.category)]: "), !c.isEmpty {
            guard let category = Category(named: c) else { return say("  ? unknown category '\(c)'") }
            session.category = category
            session.categoryOptions = []  // options do not carry over a category change (iOS)
        }
        say("  options: \(CategoryOptions.names.joined(separator: ", ")) (comma-separated, '-' for none)")
        if let o = ask("  options [\(session.categoryOptions)]: "), !o.isEmpty {
            var set: CategoryOptions = []
            for name in o.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where name != "-" {
                guard let option = CategoryOptions(named: name) else { return say("  ? unknown option '\(name)'") }
                set.insert(option)
            }
            session.categoryOptions = set
        }
        say("  modes: \(Mode.names.joined(separator: ", "))")
        if let m = ask("  mode [\(session.mode)]: "), !m.isEmpty {
            guard let mode = Mode(named: m) else { return say("  ? unknown mode '\(m)'") }
            session.mode = mode
        }
        report {
            try engine.changeAudioSessionProperties(session)
            say("  session is now \(engine.audioSessionConfiguration), stream role \(session.mediaRole)")
        }
    }

    func showOutput(_ engine: SoundEngineInstance) {
        let g = engine.grantedStream
        let s = engine.statistics
        say("""
              server \(g.serverName) \(g.serverVersion), device \(g.deviceName), \(g.format)
              buffer \(g.buffer.targetLength) frames + device, requests of \(g.buffer.minimumRequest) frames
              rendered \(s.output.framesRendered) frames in \(s.output.renderCalls) callbacks, \(s.output.underflows) underflows
            """)
    }

    func report(_ body: () throws -> Void) {
        do { try body() } catch { say("  ! \(error)") }
    }

    static func describe(_ event: SessionEvent) -> String {
        switch event {
        case .engineState(let status): "engine \(status)"
        case .interruption(let i): i.type == .began ? "interruption began" : "interruption ended (shouldResume: \(i.shouldResume))"
        case .routeChange(let change): "route changed (\(change.reason)): \(change.previousRoute) → \(change.currentRoute)"
        case .otherAudioPlaying(let playing): playing ? "other audio started" : "other audio stopped"
        case .silenceSecondaryAudioHint(let type): "silence secondary audio hint: \(type)"
        case .mediaServicesWereLost: "media services were lost"
        case .mediaServicesWereReset: "media services were reset"
        case .backgroundMusicMuted(let muted): muted ? "background music muted" : "background music unmuted"
        }
    }
}
