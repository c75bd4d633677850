import Foundation
import Glibc

/// A private PulseAudio server for one test, started and stopped through the
/// project's own `Scripts/sound-server`, plus the tools tests use to look at
/// it from outside: `pactl` and a `parec` recorder of a sink's monitor.
///
/// Never a mock: everything here talks to a real daemon.
public final class PrivateSoundServer: @unchecked Sendable {
    // @unchecked: all stored properties are immutable after init; `stopped` is
    // only touched by `stop()`, which tests call from one task. The server's
    // pids live in its folder (`pids`), which `restart()` rewrites.

    /// `unix:/…/native`: what `PULSE_SERVER` or `InitSettings`' server address should be.
    public let address: String
    /// The temporary folder holding the server's socket, config and log.
    public let directory: String
    /// Which server this is.
    public let kind: Kind

    /// The servers SoundEngine must work with.
    public enum Kind: String, Sendable {
        /// A PulseAudio 16 daemon (module-role-cork loaded).
        case pulseaudio
        /// A PulseAudio 16 daemon loaded like a desktop's default.pa minus
        /// hardware detection: restore databases, intended-roles,
        /// suspend-on-idle, role-cork, filter-heuristics/filter-apply
        /// (echo-cancel for phone streams), … (`sound-server start --desktop`).
        case pulseaudioDesktop = "pulseaudio-desktop"
        /// PipeWire with wireplumber and pipewire-pulse (no cork requests).
        case pipewire

        /// The `sound-server start` option that selects this kind.
        var startOptions: [String] {
            switch self {
            case .pulseaudio: []
            case .pulseaudioDesktop: ["--desktop"]
            case .pipewire: ["--pipewire"]
            }
        }

        /// Whether the server is a PulseAudio daemon (either set-up).
        public var isPulseAudio: Bool { self != .pipewire }

        /// The kinds a benchmark's `--server` word names: `pulseaudio`,
        /// `pipewire`, or `both` (those two, in that order); nil for another word.
        public static func named(_ word: String) -> [Kind]? {
            switch word {
            case "pulseaudio": [.pulseaudio]
            case "pipewire": [.pipewire]
            case "both": [.pulseaudio, .pipewire]
            default: nil
            }
        }
    }

    /// The kind the tests run against: `SOUNDENGINE_TEST_SERVER=pipewire` picks
    /// pipewire-pulse, `pulseaudio-desktop` the desktop set-up (`.ci/run` runs
    /// the server suites once per kind).
    public static let kindUnderTest: Kind =
        Kind(rawValue: ProcessInfo.processInfo.environment["SOUNDENGINE_TEST_SERVER"] ?? "") ?? .pulseaudio
    private var stopped = false

    /// The repository root, found from this file's path.
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Starts a server of `kind` with the `speaker` null sink as its default
    /// sink and the `mic` source as its default source (and module-role-cork
    /// on PulseAudio).
    public init(kind: Kind = PrivateSoundServer.kindUnderTest) throws {
        self.kind = kind
        let values = try Self.script(["start"] + kind.startOptions)
        guard let address = values["PULSE_SERVER"], let directory = values["SOUND_SERVER_DIR"] else {
            throw ServerError("sound-server start printed no address: \(values)")
        }
        self.address = address
        self.directory = directory
    }

    /// Runs `Scripts/sound-server` and returns the KEY=value lines it printed.
    private static func script(_ arguments: [String]) throws -> [String: String] {
        let output = try run(repositoryRoot + "/Scripts/sound-server", arguments)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }

    /// The processes the script started for this server (its `pids` file,
    /// which a restart rewrites).
    var serverProcesses: [pid_t] {
        let text = (try? String(contentsOfFile: directory + "/pids", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    }

    /// Kills every server process at once (SIGKILL), as a crash would: clients
    /// see their connection drop. ``stop()`` still cleans up afterwards, and
    /// ``restart()`` brings a new server up at the same address.
    public func crash() {
        for pid in serverProcesses { kill(pid, SIGKILL) }
    }

    /// Starts a fresh server of the same kind at the same ``address`` (same
    /// folder, runtime dir, HOME and config; on PipeWire a private D-Bus that
    /// is still running is kept), after stopping whatever is left of the old
    /// one, and waits until it is ready exactly as the first start did:
    /// `speaker` and `mic` exist and are the defaults. Devices added with
    /// ``addOutput(name:properties:)``, clients and restore databases are not
    /// re-created (the desktop set-up's restore modules do read their
    /// databases again). A client that reconnects to ``address`` finds it.
    public func restart() throws {
        let values = try Self.script(["restart", directory])
        guard values["PULSE_SERVER"] == address else {
            throw ServerError("sound-server restart moved the server: \(values)")
        }
    }

    deinit { stop() }

    /// Stops exactly the processes this server started. Idempotent.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? Self.run(Self.repositoryRoot + "/Scripts/sound-server", ["stop", directory])
    }

    /// Runs `pactl` against this server and returns its stdout.
    @discardableResult
    public func pactl(_ arguments: String...) throws -> String {
        try Self.run("pactl", arguments, environment: ["PULSE_SERVER": address])
    }

    /// Runs `pactl` with an argument list against this server and returns its stdout.
    @discardableResult
    public func pactl(arguments: [String]) throws -> String {
        try Self.run("pactl", arguments, environment: ["PULSE_SERVER": address])
    }

    /// `pactl --format=json list WHAT`, as a list of JSON objects.
    public func jsonList(_ what: String) throws -> [[String: Any]] {
        let json = try pactl(arguments: ["--format=json", "list", what])
        guard let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
            throw ServerError("pactl printed no JSON list: \(json)")
        }
        return list
    }

    /// The server's sink inputs (playback streams), from `pactl --format=json`.
    public func sinkInputs() throws -> [SinkInput] {
        try jsonList("sink-inputs").map(SinkInput.init)
    }

    /// Starts recording `source` (e.g. `speaker.monitor`) as float32 stereo
    /// at 48 kHz, or with the positions `channelMap` (the source's own, so
    /// the server maps channel for channel and mixes nothing).
    public func record(_ source: String = "speaker.monitor", channelMap: [String]? = nil) throws -> MonitorRecorder {
        try MonitorRecorder(source: source, address: address, channelMap: channelMap)
    }

    /// Runs a program to completion and returns stdout; throws with stderr on a non-zero exit.
    @discardableResult
    public static func run(_ path: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
        try Subprocess.run([path] + arguments, environment: extra)
    }
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass; returns
/// whether it held. How the server tests wait for something to happen.
public func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return try condition()
}

/// One playback stream as the server lists it.
public struct SinkInput: Sendable {
    /// Sink-input index.
    public var index: Int
    /// The stream's properties (`application.name`, `media.role`, …).
    public var properties: [String: String]
    /// Whether the server reports the stream corked.
    public var corked: Bool
    /// Whether the stream is muted on the server.
    public var muted: Bool
    /// The stream's volume per channel, in channel-map order, as a fraction
    /// of 100 % (1.0 = 100 %, 0.5 = 50 %).
    public var volume: [Double]
    /// Index of the sink it plays to.
    public var sink: Int
    /// Index of the client that owns it, or nil (a stream of a module).
    public var client: Int?
    /// The stream's speaker positions (`front-left`, `lfe`, …), in channel order.
    public var channelMap: [String]

    init(_ json: [String: Any]) {
        index = jsonInt(json["index"]) ?? -1
        properties = jsonProperties(json)
        corked = json["corked"] as? Bool ?? false
        muted = json["mute"] as? Bool ?? false
        volume = jsonVolume(json)
        sink = jsonInt(json["sink"]) ?? -1
        client = jsonInt(json["client"])
        channelMap = (json["channel_map"] as? String)?.split(separator: ",").map(String.init) ?? []
    }
}

/// pactl prints some indices as numbers, others as strings ("client":"4").
func jsonInt(_ value: Any?) -> Int? {
    switch value {
    case let number as Int: number
    case let string as String: Int(string)
    default: nil
    }
}

func jsonProperties(_ json: [String: Any]) -> [String: String] {
    (json["properties"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
}

/// The `volume` object (`{"front-left": {"value": 65536, "value_percent": "100%"}, …}`)
/// as fractions, ordered by `channel_map` (JSON objects have no order).
func jsonVolume(_ json: [String: Any]) -> [Double] {
    guard let volume = json["volume"] as? [String: Any] else { return [] }
    let order = (json["channel_map"] as? String)?.split(separator: ",").map(String.init) ?? volume.keys.sorted()
    return order.compactMap { channel in
        guard let entry = volume[channel] as? [String: Any] else { return nil }
        if let value = jsonInt(entry["value"]) { return Double(value) / 65536 }
        if let percent = entry["value_percent"] as? String, let number = Double(percent.dropLast()) {
            return number / 100
        }
        return nil
    }
}

/// A failure of the test harness itself (not of the code under test).
public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Records a source with `parec --latency-msec=20` and measures levels.
///
/// What it hands back is everything recorded since it started (or since the
/// last ``discardBacklog()``), oldest first: parec, its pipe and the server
/// keep up to seconds of audio nobody has read yet. A check of what an action
/// did therefore calls ``discardBacklog()`` right after the action, and asks
/// for its level over several windows (``waitForLevel(windows:deadline:_:)``,
/// ``levelHolds(windows:_:)``), not one: the sink still plays the last
/// few tens of milliseconds it had before the action.
public final class MonitorRecorder: @unchecked Sendable {
    // @unchecked: used by one test task at a time; the process handle is only
    // touched by read/discardBacklog/stop on that task.
    private var process: Subprocess
    private let arguments: [String]
    private let address: String
    private var stopped = false

    /// Sample rate and channels of what `read` returns by default.
    public static let sampleRate = 48_000
    public static let channels = 2
    /// The length of one window of the level helpers, in seconds.
    public static let window = 0.05
    /// Channels of what this recorder's `read` returns.
    public let channelCount: Int

    init(source: String, address: String, channelMap: [String]? = nil) throws {
        channelCount = channelMap?.count ?? Self.channels
        let map = channelMap.map { ["--channel-map=\($0.joined(separator: ","))"] } ?? []
        arguments = [
            "parec", "--latency-msec=20", "-d", source, "--format=float32le", "--rate=\(Self.sampleRate)",
            "--channels=\(channelCount)", "--raw",
        ] + map
        self.address = address
        process = try Self.startRecording(arguments, address: address)
    }

    deinit { stop() }

    /// Starts parec and waits (at most 2 s) until its first audio is in the
    /// pipe, so the recording has begun when this returns.
    private static func startRecording(_ arguments: [String], address: String) throws -> Subprocess {
        let parec = try Subprocess(arguments, extraEnvironment: ["PULSE_SERVER": address], captureStderr: false)
        var pfd = pollfd(fd: parec.stdout, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 2000)
        return parec
    }

    /// Stops parec.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        process.kill()
    }

    /// Forgets everything recorded up to now: `read` and the level helpers
    /// return only audio the sink played after this call began. Call it right
    /// after the action under test, so that a check cannot pass on audio from
    /// before the action.
    ///
    /// Starts a new parec (a new record stream hears nothing the sink played
    /// before it connected) and ends the old one with its unread audio.
    public func discardBacklog() throws {
        precondition(!stopped, "discardBacklog() after stop()")
        let old = process
        process = try Self.startRecording(arguments, address: address)
        old.kill()
    }

    /// Reads about `seconds` of interleaved samples (``channelCount`` per
    /// frame), or fewer if nothing arrives for `timeout` seconds (never blocks longer).
    public func read(seconds: Double, timeout: Double = 2) -> [Float] {
        let wanted = Int(seconds * Double(Self.sampleRate)) * channelCount * 4
        var bytes = [UInt8]()
        bytes.reserveCapacity(wanted)
        let fd = process.stdout
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < wanted {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { break }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, wanted - bytes.count)) }
            guard n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        let usable = bytes.count / 4 * 4
        return bytes[0..<usable].withUnsafeBytes { raw in Array(raw.bindMemory(to: Float.self)) }
    }

    /// The RMS per channel of the next window, or nil when less than a
    /// whole window arrived (the recording stalled for 2 s).
    private func nextWindow() -> [Float]? {
        let samples = read(seconds: Self.window)
        guard samples.count == Int(Self.window * Double(Self.sampleRate)) * channelCount else { return nil }
        return Self.rms(samples, channels: channelCount)
    }

    /// Reads windows until `windows` consecutive ones satisfy
    /// `condition(rms of the window per channel)` or `deadline` seconds pass;
    /// returns the last window's RMS per channel and whether the condition
    /// held. A level that comes, eventually, and stays for
    /// `windows` × ``window`` seconds.
    public func waitForLevel(
        windows: Int = 1, deadline: Double = 10, _ condition: ([Float]) -> Bool
    ) -> (rms: [Float], met: Bool) {
        precondition(windows >= 1)
        let end = Date().addingTimeInterval(deadline)
        var last: [Float] = []
        var run = 0
        while Date() < end {
            guard let rms = nextWindow() else {
                run = 0
                continue
            }
            last = rms
            run = condition(rms) ? run + 1 : 0
            if run == windows { return (last, true) }
        }
        return (last, false)
    }

    /// Reads the next `windows` windows and whether every one satisfies
    /// `condition(rms of the window per channel)`: a level that holds from
    /// now for `windows` × ``window`` seconds, not one that turns up later.
    /// Stops at the first window that fails; returns the RMS of each window read.
    public func levelHolds(windows: Int, _ condition: ([Float]) -> Bool) -> (rms: [[Float]], met: Bool) {
        precondition(windows >= 1)
        var read: [[Float]] = []
        for _ in 0..<windows {
            guard let rms = nextWindow() else { return (read, false) }
            read.append(rms)
            if !condition(rms) { return (read, false) }
        }
        return (read, true)
    }

    /// RMS per channel of interleaved samples (stereo unless `channels` says otherwise).
    public static func rms(_ samples: [Float], channels: Int = channels) -> [Float] {
        var sums = [Double](repeating: 0, count: channels)
        for (i, s) in samples.enumerated() { sums[i % channels] += Double(s) * Double(s) }
        let frames = Double(samples.count / channels)
        return sums.map { Float(($0 / max(frames, 1)).squareRoot()) }
    }
}
