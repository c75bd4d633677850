import SoundEngine

/// The demo's command line, parsed and checked before anything starts.
struct DemoOptions {
    var headless = false
    var session = SessionConfiguration()
    var files: [String] = []
    var seconds: Double? = nil
    var server: String? = nil
    var loop = false
    var latency: LatencyRequest = .default
    /// `--idle-cork`: seconds without sound before the stream is corked; nil: never.
    var idleCork: Duration? = PlatformInitSettings().idleCorkTimeout
    /// `--help`: print ``usage`` on stdout and exit 0, starting nothing.
    var helpRequested = false

    static let usage = """
        usage: IntegrationDemo [--headless] [--category C] [--options a,b] [--mode M]
                               [--play FILE]... [--loop] [--seconds N] [--server ADDRESS]
                               [--low-latency] [--idle-cork SECONDS|off]

          --headless        no menu: play, print one JSON object per event on stdout,
                            act on JSON commands read from stdin, exit
          --category C      \(Category.names.joined(separator: ", "))
          --options a,b     \(CategoryOptions.names.joined(separator: ", "))
          --mode M          \(Mode.names.joined(separator: ", "))
          --play FILE       a sound file to play (repeatable); default: the bundled chime
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
                guard let c = Category(named: name) else {
                    throw Invalid(message: "unknown category '\(name)'; expected one of \(Category.names.joined(separator: ", "))")
                }
                session.category = c
            case "--options":
                var options: CategoryOptions = []
                for name in try value(arg).split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    guard let o = CategoryOptions(named: name) else {
                        throw Invalid(message: "unknown option '\(name)'; expected \(CategoryOptions.names.joined(separator: ", "))")
                    }
                    options.insert(o)
                }
                session.categoryOptions = options
            case "--mode":
                let name = try value(arg)
                guard let m = Mode(named: name) else {
                    throw Invalid(message: "unknown mode '\(name)'; expected one of \(Mode.names.joined(separator: ", "))")
                }
                session.mode = m
            case "--play":
                let path = try value(arg)
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw Invalid(message: "--play \(path): no such readable file")
                }
                files.append(path)
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

import Foundation
