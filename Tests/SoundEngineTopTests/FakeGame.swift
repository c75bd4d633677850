import Foundation
import Glibc
import Synchronization

/// A stand-in for a game with its profiling link on: listens where the
/// engine would (`<runtime>/soundengine/<pid>.sock`, the test's own pid, so
/// the tool sees a live process), sends every connection a `hello` and the
/// scripted picture lines, then whatever the test ``broadcast(_:)``s; answers
/// each command line with an `ok` result and keeps it in ``commands``.
///
/// The protocol as docs/profiling.md writes it, from scripted lines: the
/// tool is tested against the contract, not against the engine's code.
final class FakeGame: Sendable {
    let socketPath: String
    private let listener: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private let state: Mutex<State>

    private struct State {
        var clients: [Int32] = []
        var picture: [String]
        var commands: [String] = []
        var connections = 0
        var pending: [Int32: [UInt8]] = [:]
    }

    /// Listens in `runtimeDirectory`; `picture` is sent after the `hello` to each connection.
    init(runtimeDirectory: String, program: String = "fakegame", edits: Bool = false, picture: [String]) throws {
        let folder = runtimeDirectory + "/soundengine"
        mkdir(folder, 0o700)
        socketPath = "\(folder)/\(getpid()).sock"
        unlink(socketPath)
        let hello =
            #"{"type":"hello","t":0.0,"protocol":1,"pid":\#(getpid()),"program":"\#(program)","engine":"0.9.0","sampleRate":48000,"channels":2,"samplesPerFrame":512,"rate":30,"edits":\#(edits)}"#
        state = Mutex(State(picture: [hello] + picture))
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.enumerated() where i < raw.count - 1 { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 8) == 0 else {
            throw FakeGameError("cannot listen on \(socketPath): \(String(cString: strerror(errno)))")
        }
        self.listener = listener
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw FakeGameError("pipe failed") }
        stopPipe = (ends[0], ends[1])
        Thread { [self] in serve() }.start()
    }

    /// Sends `line` to every connection now open.
    func broadcast(_ line: String) {
        state.withLock { state in
            for client in state.clients { Self.write(line, to: client) }
        }
    }

    /// How many connections the fake accepted so far (the tool's list probes count too).
    var connections: Int { state.withLock { $0.connections } }
    /// How many connections are open now.
    var openConnections: Int { state.withLock { $0.clients.count } }
    /// The command lines the tool sent.
    var commands: [String] { state.withLock { $0.commands } }

    /// The game goes away: every connection closes and the socket is removed.
    func stop() {
        var byte: UInt8 = 1
        _ = Glibc.write(stopPipe.write, &byte, 1)
        while state.withLock({ $0.clients.count }) > 0 || !finished.withLock({ $0 }) { _ = poll(nil, 0, 5) }
    }

    private let finished = Mutex(false)

    deinit {
        close(stopPipe.read)
        close(stopPipe.write)
    }

    private func serve() {
        defer {
            state.withLock { state in
                for client in state.clients { close(client) }
                state.clients = []
            }
            close(listener)
            unlink(socketPath)
            finished.withLock { $0 = true }
        }
        while true {
            let clients = state.withLock { $0.clients }
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
            fds += clients.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 1000) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            if fds[0].revents != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    state.withLock { state in
                        state.connections += 1
                        state.clients.append(client)
                        for line in state.picture { Self.write(line, to: client) }
                    }
                }
            }
            for pfd in fds.dropFirst(2) where pfd.revents != 0 { readCommands(from: pfd.fd) }
        }
    }

    private func readCommands(from client: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
        state.withLock { state in
            guard n > 0 else {
                close(client)
                state.clients.removeAll { $0 == client }
                state.pending[client] = nil
                return
            }
            var pending = state.pending[client, default: []] + buffer[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                state.commands.append(line)
                Self.write(#"{"type":"result","t":1.0,"ok":true}"#, to: client)
            }
            state.pending[client] = pending
        }
    }

    private static func write(_ line: String, to client: Int32) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { bytes = bytes.dropFirst(n) } else if !(n < 0 && errno == EINTR) { return }
        }
    }
}

struct FakeGameError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Protocol lines as docs/profiling.md writes them, for the fake to send.
enum ProtocolLines {
    static func port(_ type: String, _ name: String, _ uid: String) -> String {
        #"{"portType":"\#(type)","portName":"\#(name)","uid":"\#(uid)"}"#
    }

    static func session(t: Double = 0.1, category: String = "playback", output: String = port("Speaker", "Speaker", "speaker")) -> String {
        #"{"type":"session","t":\#(t),"category":"\#(category)","options":["mixWithOthers"],"mode":"default","active":true,"interrupted":false,"interruptionReason":null,"otherAudioPlaying":false,"secondaryAudioShouldBeSilenced":false,"engineState":"running","route":{"outputs":[\#(output)],"inputs":[]}}"#
    }

    static func voice(id: Int, event: String?, sound: String = "footstep", bus: String = "sfx", gain: Double = 0.5) -> String {
        let eventText = event.map { "\"\($0)\"" } ?? "null"
        return #"{"playingID":\#(id),"event":\#(eventText),"gameObject":1,"sound":"\#(sound)","bus":"\#(bus)","position":[1,0,0],"gain":\#(gain),"audibleDB":-12.5,"virtual":false,"state":"playing"}"#
    }

    static func voices(t: Double = 0.2, _ voices: [String]) -> String {
        #"{"type":"voices","t":\#(t),"voices":[\#(voices.joined(separator: ","))],"active":\#(voices.count),"virtual":0}"#
    }

    static let buses =
        #"{"type":"buses","t":0.2,"buses":[{"id":1,"name":"master","parent":null,"volume":1,"muted":false,"solo":false,"peak":[0.5,0.5],"rms":[0.25,0.25]},{"id":2,"name":"sfx","parent":1,"volume":0.5,"muted":true,"solo":false,"peak":[0.1,0.1],"rms":[0.05,0.05]}]}"#
    static let syncs =
        #"{"type":"syncs","t":0.2,"rtpcs":[{"name":"Speed","gameObject":null,"value":42.5}],"states":[{"group":"Weather","state":"Rain"}],"switches":[{"group":"Surface","gameObject":1,"switch":"gravel"}]}"#
    static func performance(t: Double = 0.2, cpu: Double = 0.05) -> String {
        #"{"type":"performance","t":\#(t),"quanta":1200,"renderCPU":{"last":\#(cpu),"mean":\#(cpu),"max":\#(cpu)},"latencyMs":42.0,"underflows":3,"starvations":0,"voicesActive":1,"voicesVirtual":0,"commandsRejected":0,"dropped":0}"#
    }
    static let notification =
        #"{"type":"notification","t":2.5,"name":"routeChange","reason":"newDeviceAvailable","currentRoute":{"outputs":[{"portType":"Headphones","portName":"USB Headphones","uid":"usbhp"}],"inputs":[]}}"#

    /// The whole picture a link sends after `hello`.
    static var picture: [String] { [session(), voices([]), buses, syncs, performance()] }
}
