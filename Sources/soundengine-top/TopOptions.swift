/// The command line (`soundengine-top --help`).
struct TopOptions: Equatable, Sendable {
    var pid: Int?
    var socketPath: String?
    var recordPath: String?
    var replayPath: String?
    var listOnly = false
    var ascii = false
    var help = false

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = """
        usage: soundengine-top [--pid N | --socket PATH] [--record FILE] [--ascii]
               soundengine-top --replay FILE [--ascii]
               soundengine-top --list

        Shows, live, what SoundEngine is doing in a running game whose profiling
        link is on (SOUNDENGINE_PROFILER=1; docs/profiling.md).

          (no option)     list the running games; Enter attaches to one
          --pid N         attach to the game with process ID N
          --socket PATH   attach to the profiling socket at PATH
          --record FILE   record the session (the raw lines and their arrival times) to FILE
          --replay FILE   replay a recording at the speed it was recorded (p pauses)
          --list          print the running games and exit (no full screen)
          --ascii         draw with ASCII only (the default when the locale is not UTF-8)
          -h, --help      this text

        Keys: 1-6 or Tab pages, s sort voices, arrows select, r record, p pause a
        replay, m / s mute / solo the selected bus (when the game allows edits), l back to
        the list, q or Ctrl-C quit.
        """

    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw Failure(description: "\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--pid":
                let text = try value(argument)
                guard let pid = Int(text), pid > 0 else { throw Failure(description: "--pid needs a process ID, not \(text)") }
                self.pid = pid
            case "--socket": socketPath = try value(argument)
            case "--record": recordPath = try value(argument)
            case "--replay": replayPath = try value(argument)
            case "--list": listOnly = true
            case "--ascii": ascii = true
            case "-h", "--help": help = true
            default: throw Failure(description: "unknown argument \(argument)")
            }
        }
        if pid != nil && socketPath != nil { throw Failure(description: "--pid and --socket both name a game: give one") }
        if replayPath != nil && (pid != nil || socketPath != nil || recordPath != nil) {
            throw Failure(description: "--replay plays a file: it takes no game and records nothing")
        }
    }
}
