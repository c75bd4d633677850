import Foundation
import SoundEngine
import TerminalUI

/// The demo a person drives, like Wwise's Integration Demo. On a terminal
/// (stdin and stdout both), the full-screen pages of ``FullScreenDemo``;
/// otherwise (piped, redirected) this numbered line menu: a page per area
/// (playback, audio session, engine, output, and on the demo bank footsteps,
/// RTPC, 3D positioning, background music), session events printed as they
/// happen.
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
        do {
            try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
        } catch {
            FileHandle.standardError.write(Data("IntegrationDemo: cannot start the sound engine: \(error)\n".utf8))
            return 1
        }
        if let terminal = try? RawTerminal.enter() {
            await FullScreenDemo(terminal: terminal, banks: banks, files: options.files).run()
            return 0
        }
        let printer = Task { [self] in
            for await event in SoundEngine.events() {
                say("  » \(Self.describe(event))")
                if case .engineState(.stopped) = event { break }  // the stream spans engines
            }
        }
        let music = try? SoundEngine.createBus(name: "music")
        if let music { try? SoundEngine.setBus(music, mutedForBackgroundMusic: true) }

        say("SoundEngine Integration Demo")
        showOutput()
        let content = prepareContent()
        for path in options.files { play(path, on: .master) }

        menu: while true {
            say("""

                ── main ── session: \(Self.describe { try SoundEngine.audioSession.configuration }) \
                ── engine: \(Self.describe { try SoundEngine.status })
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
            case "1": play(HeadlessDemo.chimePath, on: .master)
            case "2":
                if let path = ask("file: "), !path.isEmpty { play(path, on: .master) }
            case "3": play(HeadlessDemo.chimePath, on: music ?? .master, loop: true)
            case "4": report { try SoundEngine.stopAll(fade: .milliseconds(50)) }
            case "5": sessionPage()
            case "6":
                if (try? SoundEngine.status) == .running {
                    report { try SoundEngine.suspend() }
                } else {
                    report { try SoundEngine.wakeupFromSuspend() }
                }
            case "7": report { try SoundEngine.muteBackgroundMusic(!SoundEngine.isBackgroundMusicMuted) }
            case "8": showOutput()
            case "f" where content: footstepsPage()
            case "r" where content: enginePage()
            case "p" where content: positioningPage()
            case "b" where content: musicPage()
            case "0", "q", "quit": break menu
            case "": continue
            default: say("  ? choose a number from the menu")
            }
        }
        SoundEngine.terminate()
        await printer.value
        return 0
    }

    func play(_ path: String, on bus: SoundEngine.BusID, loop: Bool = false) {
        report {
            let sound = try SoundEngine.loadSound(path: path, streaming: loop)
            let playing = try SoundEngine.play(sound, on: bus, SoundEngine.PlayParameters(loop: loop))
            say("  playing \(URL(fileURLWithPath: path).lastPathComponent) as \(playing)")
        }
    }

    func sessionPage() {
        guard var session = try? SoundEngine.audioSession.configuration else { return }
        say("  categories: \(AudioSession.Category.names.joined(separator: ", "))")
        if let c = ask("  category [\(session.category)]: "), !c.isEmpty {
            guard let category = AudioSession.Category(named: c) else { return say("  ? unknown category '\(c)'") }
            session.category = category
            session.categoryOptions = []  // options do not carry over a category change (iOS)
        }
        say("  options: \(AudioSession.CategoryOptions.names.joined(separator: ", ")) (comma-separated, '-' for none)")
        if let o = ask("  options [\(session.categoryOptions)]: "), !o.isEmpty {
            var set: AudioSession.CategoryOptions = []
            for name in o.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where name != "-" {
                guard let option = AudioSession.CategoryOptions(named: name) else { return say("  ? unknown option '\(name)'") }
                set.insert(option)
            }
            session.categoryOptions = set
        }
        say("  modes: \(AudioSession.Mode.names.joined(separator: ", "))")
        if let m = ask("  mode [\(session.mode)]: "), !m.isEmpty {
            guard let mode = AudioSession.Mode(named: m) else { return say("  ? unknown mode '\(m)'") }
            session.mode = mode
        }
        report {
            try SoundEngine.changeAudioSessionProperties(session)
            say("  session is now \(try SoundEngine.audioSession.configuration)")
        }
    }

    func showOutput() {
        guard let g = try? SoundEngine.outputStream, let s = try? SoundEngine.statistics else { return }
        say("""
              server \(g.serverName) \(g.serverVersion), device \(g.deviceName), \(g.format)
              buffer \(g.buffer.targetLength) frames + device, requests of \(g.buffer.minimumRequest) frames
              rendered \(s.framesRendered) frames in \(s.quantaRendered) quanta, \(s.underflows) underflows
            """)
    }

    /// What `read` answers, or the error it throws, for a menu line.
    static func describe(_ read: () throws -> some CustomStringConvertible) -> String {
        do { return try read().description } catch { return "\(error)" }
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
