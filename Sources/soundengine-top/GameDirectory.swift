import Foundation
import Glibc

/// The running games whose profiling link is on: the sockets in the folder
/// docs/profiling.md names, each asked for its `hello`.
struct GameDirectory: Sendable {
    /// A game that answered.
    struct Game: Equatable, Sendable {
        var socketPath: String
        var hello: ProfilerMessage.Hello
    }

    /// The folder the sockets are in.
    let folder: String

    /// `$XDG_RUNTIME_DIR/soundengine`, or `/tmp/soundengine-<uid>` without `XDG_RUNTIME_DIR`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            folder = runtime + "/soundengine"
        } else {
            folder = "/tmp/soundengine-\(getuid())"
        }
    }

    /// The pid a socket's name gives (`<pid>.sock`), nil for another name.
    static func pid(ofSocketNamed name: String) -> pid_t? {
        guard name.hasSuffix(".sock") else { return nil }
        return pid_t(name.dropLast(5))
    }

    /// Whether process `pid` exists (`kill(pid, 0)`; EPERM means it exists but is another user's).
    static func isAlive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// The games that answer now, by pid. Stale sockets (the process is
    /// gone, nobody listens, or no `hello` within `timeout` ms) are skipped.
    func games(timeout: Int32 = 500) -> [Game] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> (pid_t, String)? in
            guard let pid = Self.pid(ofSocketNamed: name), Self.isAlive(pid) else { return nil }
            return (pid, folder + "/" + name)
        }
        .sorted { $0.0 < $1.0 }
        .compactMap { _, path in Self.hello(at: path, timeout: timeout).map { Game(socketPath: path, hello: $0) } }
    }

    /// Connects to `path`, reads its first line, and returns it if it is a `hello`.
    static func hello(at path: String, timeout: Int32) -> ProfilerMessage.Hello? {
        guard let socket = try? ProfilerSocket(path: path), let line = socket.firstLine(within: timeout),
            case .hello(let hello)? = try? ProfilerMessage.decode(line).message
        else { return nil }
        return hello
    }
}
