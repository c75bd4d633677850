import Foundation
import SoundEngine

/// The demo's command line, parsed and checked before anything starts.
struct DemoOptions {
    var headless = false
    var session = AudioSession.Configuration()
    var files: [String] = []
    /// `--bank FILE`, in order; checked to exist here, parsed and loaded at start.
    var banks: [String] = []
    /// `--post EVENT[@SECONDS]`, in order: an event to post on the default
    /// game object that long after start.
    var posts: [ScheduledPost] = []
    var seconds: Double? = nil
    var server: String? = nil
    var loop = false
    var latency: PlatformInitSettings.Latency = .default
    /// `--idle-cork`: seconds without sound before the stream is corked; nil: never.
    var idleCork: Duration? = PlatformInitSettings().idleCorkTimeout
    /// `--help`: print ``usage`` on stdout and exit 0, starting nothing.
    var helpRequested = false

    static let usage = """
        usage: IntegrationDemo [--headless] [--category C] [--options a,b] [--mode M]
                               [--play FILE]... [--loop] [--seconds N] [--server ADDRESS]
                               [--low-latency] [--idle-cork SECONDS|off]
                               [--bank FILE]... [--post EVENT[@SECONDS]]...

          --headless        no menu: play, print one JSON object per event on stdout,
                            act on JSON commands read from stdin, exit
          --category C      \(AudioSession.Category.names.joined(separator: ", "))
          --options a,b     \(AudioSession.CategoryOptions.names.joined(separator: ", "))
          --mode M          \(AudioSession.Mode.names.joined(separator: ", "))
          --play FILE       a sound file to play (repeatable); default: the bundled chime
                            (headless, when there is no --bank either)
          --bank FILE       a bank file to load (repeatable); interactive default: the demo bank
          --post E[@S]      post event E on game object 1, S seconds after start (default 0;
                            repeatable); E must be in a --bank
          --loop            loop the sounds (headless: until --seconds, or 10 s after stdin ends)
          --seconds N       run for N seconds (headless default: until stdin ends and the sounds end)
          --server ADDRESS  PulseAudio server, e.g. unix:/run/user/1000/pulse/native
          --low-latency     ask for about 10 ms of buffering instead of 20 ms
          --idle-cork S     cork the stream after S seconds with nothing playing, so the
                            device can sleep (default 10); off: keep it running
        """

    /// The platform settings these options ask for.
    var platformSettings: PlatformInitSettings {
        var platform = SoundEngine.defaultPlatformInitSettings()
        platform.applicationName = "SoundEngine IntegrationDemo"
        platform.applicationID = "org.soundengine.IntegrationDemo"
        platform.audioSession = session
        platform.serverAddress = server
        platform.latency = latency
        platform.idleCorkTimeout = idleCork
        return platform
    }

    /// A bad command line: the message goes to stderr and the demo exits 2.
    struct Invalid: Error {
        let message: String
    }

    init(arguments: [String]) throws(Invalid) {
        var rest = arguments[...]
        func value(_ flag: String) throws(Invalid) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") else { throw Invalid(message: "\(flag) needs a value") }
            return v
        }
        while let arg = rest.popFirst() {
            switch arg {
            case "--headless": headless = true
            case "--loop": loop = true
            case "--low-latency": latency = .low
            case "--category":
                let name = try value(arg)
                guard let c = AudioSession.Category(named: name) else {
                    throw Invalid(message: "unknown category '\(name)'; expected one of \(AudioSession.Category.names.joined(separator: ", "))")
                }
                session.category = c
            case "--options":
                var options: AudioSession.CategoryOptions = []
                for name in try value(arg).split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    guard let o = AudioSession.CategoryOptions(named: name) else {
                        throw Invalid(message: "unknown option '\(name)'; expected \(AudioSession.CategoryOptions.names.joined(separator: ", "))")
                    }
                    options.insert(o)
                }
                session.categoryOptions = options
            case "--mode":
                let name = try value(arg)
                guard let m = AudioSession.Mode(named: name) else {
                    throw Invalid(message: "unknown mode '\(name)'; expected one of \(AudioSession.Mode.names.joined(separator: ", "))")
                }
                session.mode = m
            case "--play":
                let path = try value(arg)
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw Invalid(message: "--play \(path): no such readable file")
                }
                files.append(path)
            case "--bank":
                let path = try value(arg)
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw Invalid(message: "--bank \(path): no such readable file")
                }
                banks.append(path)
            case "--post":
                posts.append(try ScheduledPost(parsing: try value(arg)))
            case "--seconds":
                let text = try value(arg)
                guard let s = Double(text), s.isFinite, s > 0, s <= 86_400 else {
                    throw Invalid(message: "--seconds \(text): expected a number of seconds above 0, at most 86400")
                }
                seconds = s
            case "--server":
                let address = try value(arg)
                guard !address.isEmpty else { throw Invalid(message: "--server needs an address") }
                server = address
            case "--idle-cork":
                let text = try value(arg)
                if text == "off" {
                    idleCork = nil
                } else {
                    guard let s = Double(text), s.isFinite, s >= 0.1, s <= 86_400 else {
                        throw Invalid(message: "--idle-cork \(text): expected seconds from 0.1 to 86400, or off")
                    }
                    idleCork = .milliseconds(Int64(s * 1000))
                }
            case "--help", "-h":
                helpRequested = true
                return
            default:
                throw Invalid(message: "unknown argument '\(arg)'\n\(Self.usage)")
            }
        }
        do {
            try session.validate()
        } catch {
            throw Invalid(message: "--category/--options/--mode: \(error)")
        }
    }
}

/// One `--post EVENT[@SECONDS]`.
struct ScheduledPost: Equatable {
    var event: String
    /// Seconds after start, 0…86400.
    var at: Double

    init(event: String, at: Double = 0) {
        self.event = event
        self.at = at
    }

    /// `Play_Footstep`, `Play_Footstep@1.5`: the time is after the last `@`.
    init(parsing text: String) throws(DemoOptions.Invalid) {
        var event = text
        var at = 0.0
        if let sign = text.lastIndex(of: "@") {
            let time = String(text[text.index(after: sign)...])
            guard let s = Double(time), s.isFinite, s >= 0, s <= 86_400 else {
                throw DemoOptions.Invalid(message: "--post \(text): expected EVENT or EVENT@SECONDS, seconds from 0 to 86400")
            }
            event = String(text[..<sign])
            at = s
        }
        guard !event.isEmpty else { throw DemoOptions.Invalid(message: "--post \(text): the event name is empty") }
        self.init(event: event, at: at)
    }
}
