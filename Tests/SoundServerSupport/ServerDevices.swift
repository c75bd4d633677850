import Foundation
import Glibc

// What tests add to a private server (devices, a second application) and what
// they read back from it (sinks, sources, modules, defaults). All through
// pactl/pacat/parec against the real server.

/// A sink or source as the server lists it (`pactl --format=json list sinks|sources`).
public struct Endpoint: Sendable {
    /// A port of the device.
    public struct Port: Sendable, Equatable {
        /// `analog-output-speaker`, …
        public var name: String
        /// The port type pactl prints (`Speaker`, `Headphones`, `Mic`, …), or nil.
        public var type: String?
        /// `available`, `not available` or `availability unknown`.
        public var availability: String?
    }

    public var index: Int
    public var name: String
    public var description: String
    /// `device.form_factor`, `device.class`, `media.class`, …
    public var properties: [String: String]
    public var ports: [Port]
    /// Name of the active port, or nil (null devices have no ports).
    public var activePort: String?
    /// `RUNNING`, `IDLE` or `SUSPENDED`.
    public var state: String

    init(_ json: [String: Any]) {
        index = jsonInt(json["index"]) ?? -1
        name = json["name"] as? String ?? ""
        description = json["description"] as? String ?? ""
        properties = jsonProperties(json)
        ports = (json["ports"] as? [[String: Any]] ?? []).map {
            Port(name: $0["name"] as? String ?? "", type: $0["type"] as? String, availability: $0["availability"] as? String)
        }
        activePort = json["active_port"] as? String
        state = json["state"] as? String ?? ""
    }
}

/// A client connection as the server lists it (`pactl --format=json list clients`).
public struct ServerClient: Sendable {
    public var index: Int
    /// `application.name`, `application.process.id`, …
    public var properties: [String: String]
}

/// A loaded module (`pactl list short modules`).
public struct ServerModule: Sendable {
    public var index: Int
    public var name: String
    /// The module's argument string ("" for none).
    public var argument: String
}

extension PrivateSoundServer {
    /// The server's sinks.
    public func sinks() throws -> [Endpoint] { try jsonList("sinks").map(Endpoint.init) }

    /// The server's sources, monitors included (their `device.class` is `monitor`).
    public func sources() throws -> [Endpoint] { try jsonList("sources").map(Endpoint.init) }

    /// The connected clients (every libpulse context, pactl's own included).
    public func clients() throws -> [ServerClient] {
        try jsonList("clients").map { ServerClient(index: jsonInt($0["index"]) ?? -1, properties: jsonProperties($0)) }
    }

    /// The loaded modules. From the short list: pactl's JSON omits the index.
    /// pipewire-pulse prints multi-line arguments; a line that does not start
    /// with "INDEX<tab>" continues the previous module's argument.
    public func modules() throws -> [ServerModule] {
        var modules: [ServerModule] = []
        for line in try pactl(arguments: ["list", "short", "modules"]).split(separator: "\n", omittingEmptySubsequences: false) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count >= 2, let index = Int(fields[0]) {
                // INDEX, NAME, ARGUMENT, USAGE; the argument may be cut by newlines.
                modules.append(ServerModule(index: index, name: fields[1], argument: fields.count > 2 ? fields[2] : ""))
            } else if !modules.isEmpty, !line.isEmpty {
                let continued = fields.count > 1 ? fields.dropLast().joined(separator: "\t") : String(line)
                modules[modules.count - 1].argument += "\n" + continued
            }
        }
        return modules.map { var module = $0; module.argument = module.argument.trimmingCharacters(in: .whitespacesAndNewlines); return module }
    }

    /// The default sink's name (`pactl --format=json info`).
    public var defaultSink: String { get throws { try info()["default_sink_name"] as? String ?? "" } }

    /// The default source's name.
    public var defaultSource: String { get throws { try info()["default_source_name"] as? String ?? "" } }

    private func info() throws -> [String: Any] {
        let json = try pactl(arguments: ["--format=json", "info"])
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw ServerError("pactl info printed no JSON object: \(json)")
        }
        return object
    }

    /// Adds an output: a module-null-sink `name`, 48 kHz stereo (or with the
    /// speaker positions `channelMap`, e.g. `["front-left", "front-right",
    /// "front-center", "lfe", …]`), with `properties` as its sink_properties
    /// (values may contain spaces, not quotes). Returns once `pactl list
    /// short sinks` shows it.
    ///
    /// On PulseAudio the sink is kept clocked like `speaker` (see keep_clocked
    /// in Scripts/sound-server): it is suspended, a 10 ms reader attaches to
    /// its monitor, then it is resumed. Without that, a stream that connects
    /// to a fresh null sink waits 1.6-2 s for its first request; with it, a
    /// few ms. The reader belongs to the returned ``Device``.
    public func addOutput(name: String, properties: [String: String] = [:], channelMap: [String]? = nil) throws -> Device {
        let channels = channelMap.map { ["channels=\($0.count)", "channel_map=\($0.joined(separator: ","))"] } ?? ["channels=2"]
        let module = try loadModule(
            ["module-null-sink", "sink_name=\(name)", "rate=48000"] + channels
                + Self.propertiesArgument("sink_properties", properties))
        let device = Device(server: self, name: name, isSink: true, modules: [module])
        guard try eventually(within: 10, { try listed("sinks", name) }) else {
            try? device.remove()
            throw ServerError("sink \(name) did not appear")
        }
        if kind.isPulseAudio {
            try pactl(arguments: ["suspend-sink", name, "1"])
            let clockName = "sound-server-clock-\(name)"
            device.reader = try Subprocess(
                [
                    "parec", "--latency-msec=10", "-d", "\(name).monitor", "--property=application.name=\(clockName)",
                    "--raw", "--file-format=raw", "/dev/null",
                ], extraEnvironment: ["PULSE_SERVER": address], captureStderr: false)
            let connected = try eventually(within: 5) {
                try jsonList("source-outputs").contains { jsonProperties($0)["application.name"] == clockName }
            }
            try pactl(arguments: ["suspend-sink", name, "0"])
            guard connected else {
                try? device.remove()
                throw ServerError("the clock reader of \(name) did not connect")
            }
        }
        return device
    }

    /// Adds an input `name` (48 kHz stereo silence) with `properties`.
    /// Returns once `pactl list short sources` shows it.
    ///
    /// PulseAudio 16's module-null-source takes no source_properties, so there
    /// it is a module-remap-source `name` (which does) over a module-null-source
    /// `name.feed`, like the script's `mic`; pipewire-pulse has no
    /// module-null-source, so there it is a module-null-sink with
    /// `media.class=Audio/Source/Virtual`.
    public func addInput(name: String, properties: [String: String] = [:]) throws -> Device {
        var modules: [Int] = []
        if kind.isPulseAudio {
            modules.append(try loadModule([
                "module-null-source", "source_name=\(name).feed", "rate=48000", "format=float32le", "channels=2",
            ]))
            do {
                modules.insert(
                    try loadModule(
                        ["module-remap-source", "master=\(name).feed", "source_name=\(name)"]
                            + Self.propertiesArgument("source_properties", properties)),
                    at: 0)
            } catch {
                _ = try? pactl(arguments: ["unload-module", String(modules[0])])
                throw error
            }
        } else {
            modules.append(
                try loadModule(
                    ["module-null-sink", "media.class=Audio/Source/Virtual", "sink_name=\(name)", "rate=48000", "channels=2"]
                        + Self.propertiesArgument("sink_properties", properties)))
        }
        let device = Device(server: self, name: name, isSink: false, modules: modules)
        guard try eventually(within: 10, { try listed("sources", name) }) else {
            try? device.remove()
            throw ServerError("source \(name) did not appear")
        }
        return device
    }

    /// Starts a second application playing a continuous 440 Hz sine (float32
    /// stereo 48 kHz, amplitude 0.25) until ``PlaybackClient/stop()``:
    /// `pacat --playback` with `media.role=role` (none if nil),
    /// `application.name` (default "SoundServerSupport client"; `properties`
    /// may override it) and `properties`, to `sink` (default: the server's
    /// choice). `volume` is the stream's initial volume as a fraction of 100 %
    /// in PulseAudio's volume scale (cubic: 0.5 attenuates the amplitude to
    /// 0.125), set by pacat and again with `pactl set-sink-input-volume`
    /// (nil: the server's choice, e.g. what stream-restore remembers).
    /// Returns once the server lists its sink input.
    public func startClient(
        role: String?, sink: String? = nil, properties: [String: String] = [:], volume: Double? = nil
    ) throws -> PlaybackClient {
        try PlaybackClient(server: self, role: role, sink: sink, properties: properties, volume: volume)
    }

    func loadModule(_ arguments: [String]) throws -> Int {
        let output = try pactl(arguments: ["load-module"] + arguments)
        guard let index = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerError("load-module \(arguments) printed no index: \(output)")
        }
        return index
    }

    func listed(_ what: String, _ name: String) throws -> Bool {
        try pactl(arguments: ["list", "short", what]).split(separator: "\n").contains {
            $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst().first == Substring(name)
        }
    }

    /// `key='k1="v 1" k2="v2"'`: one module argument whose value is a property
    /// list; both PulseAudio's and pipewire-pulse's parsers read it so.
    static func propertiesArgument(_ key: String, _ properties: [String: String]) -> [String] {
        guard !properties.isEmpty else { return [] }
        let list = properties.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: " ")
        return ["\(key)='\(list)'"]
    }
}

/// A sink or source a test added; ``remove()`` unloads it.
public final class Device: @unchecked Sendable {
    // @unchecked: used by one test task; `reader` is set once while adding.
    /// The sink or source name.
    public let name: String
    /// Index of the module that made the device (the one carrying `name`).
    public var module: Int { modules[0] }
    /// Every module loaded for it, unloaded in this order by ``remove()``.
    public let modules: [Int]
    private let server: PrivateSoundServer
    private let isSink: Bool
    private var removed = false
    /// The 10 ms monitor reader that keeps a PulseAudio null sink clocked.
    var reader: Subprocess?

    init(server: PrivateSoundServer, name: String, isSink: Bool, modules: [Int]) {
        self.server = server
        self.name = name
        self.isSink = isSink
        self.modules = modules
    }

    /// Stops the clock reader, unloads the module(s) and waits until the
    /// server no longer lists the device. Idempotent.
    public func remove() throws {
        guard !removed else { return }
        removed = true
        reader?.kill()
        reader = nil
        for module in modules { try server.pactl(arguments: ["unload-module", String(module)]) }
        guard try eventually(within: 10, { try !server.listed(isSink ? "sinks" : "sources", name) }) else {
            throw ServerError("\(name) is still listed after unloading it")
        }
    }

    deinit { reader?.kill() }
}

/// A second application playing to the server: `pacat` fed a sine through a
/// socket by a background thread (which blocks while pacat's buffer is full,
/// so it costs no CPU while it waits).
public final class PlaybackClient: @unchecked Sendable {
    // @unchecked: `stopped` is only touched by stop(), from one test task.
    /// The stream's sink-input index on the server.
    public let sinkInputIndex: Int
    /// The unique `soundserversupport.client` property it is found by.
    public let tag: String
    private let process: Subprocess
    private let server: PrivateSoundServer
    private var stopped = false

    init(server: PrivateSoundServer, role: String?, sink: String?, properties: [String: String], volume: Double?) throws {
        self.server = server
        tag = "client-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var properties = properties
        properties["application.name"] = properties["application.name"] ?? "SoundServerSupport client"
        if let role { properties["media.role"] = role }
        properties["soundserversupport.client"] = tag
        var arguments = [
            "pacat", "--playback", "--raw", "--format=float32le", "--rate=48000", "--channels=2", "--latency-msec=40",
        ]
        if let sink { arguments.append("--device=\(sink)") }
        arguments += properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" }

        // A socket, not a pipe: send(MSG_NOSIGNAL) fails with EPIPE once pacat
        // is gone instead of raising SIGPIPE in the test process.
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw ServerError("socketpair failed: \(errno)")
        }
        do {
            process = try Subprocess(
                arguments, extraEnvironment: ["PULSE_SERVER": server.address], captureStderr: false, stdin: fds[1])
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        let feed = fds[0]
        let thread = Thread { Self.feedSine(feed) }
        thread.name = "PlaybackClient feed"
        thread.start()

        var index: Int?
        let tag = tag
        let process = process
        _ = try eventually(within: 10) {
            if kill(process.pid, 0) != 0 { return true }
            index = try server.sinkInputs().first { $0.properties["soundserversupport.client"] == tag }?.index
            return index != nil
        }
        guard let index else {
            process.kill()
            throw ServerError("pacat's stream did not appear on the server")
        }
        sinkInputIndex = index
        if let volume {
            // Set on the server, as a user does in a mixer: a change the
            // restore database saves (a volume pacat connects with is not
            // saved on PulseAudio, and pipewire-pulse ignores it).
            try server.pactl(arguments: ["set-sink-input-volume", String(index), String(Int((volume * 65536).rounded()))])
        }
    }

    /// Writes one second of a 440 Hz sine over and over until the reader is
    /// gone, then closes the socket.
    private static func feedSine(_ fd: Int32) {
        defer { close(fd) }
        let frames = 48_000
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let value = Float(0.25 * sin(2 * Double.pi * 440 * Double(frame) / 48_000))
            samples[2 * frame] = value
            samples[2 * frame + 1] = value
        }
        samples.withUnsafeBytes { bytes in
            while true {
                var offset = 0
                while offset < bytes.count {
                    let n = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                    if n < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += n
                }
            }
        }
    }

    /// Kills pacat and waits until its sink input is gone. Idempotent.
    public func stop() throws {
        guard !stopped else { return }
        stopped = true
        process.kill()
        let index = sinkInputIndex
        guard try eventually(within: 10, { try !server.sinkInputs().contains { $0.index == index } }) else {
            throw ServerError("sink input \(index) is still listed after its client was killed")
        }
    }

    /// The stream as the server lists it now, or nil once it is gone.
    public func sinkInput() throws -> SinkInput? {
        try server.sinkInputs().first { $0.index == sinkInputIndex }
    }

    deinit { process.kill() }
}
