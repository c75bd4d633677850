import Foundation
import Glibc
import SoundEngine
import SoundServerSupport
import Synchronization

// The three clocks the benchmark reads besides its own: when the engine's
// callbacks ran, when the server announced an object, and when the server's
// socket started accepting connections. Every time stamp is ContinuousClock
// (monotonic), taken by the thread that saw the thing happen.

typealias Instant = ContinuousClock.Instant

/// Milliseconds from `start` to `end` (negative if `end` came first).
func milliseconds(from start: Instant, to end: Instant) -> Double { milliseconds(end - start) }

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

/// Every session event the engine delivered, with the monotonic time its
/// callback started running (on the engine's event thread).
final class CallbackLog: Sendable {
    struct Entry: Sendable {
        let time: Instant
        let event: SessionEvent
    }

    private let entries = Mutex<[Entry]>([])

    /// Callbacks that time-stamp and append what they are told.
    var callbacks: PlatformInitSettings.AudioCallbacks {
        var c = PlatformInitSettings.AudioCallbacks()
        c.interruptionCallback = { [self] in append(.interruption($0)) }
        c.routeChangeCallback = { [self] in append(.routeChange($0)) }
        c.mediaServicesLostCallback = { [self] in append(.mediaServicesWereLost) }
        c.mediaServicesResetCallback = { [self] in append(.mediaServicesWereReset) }
        return c
    }

    private func append(_ event: SessionEvent) {
        let now = ContinuousClock.now
        entries.withLock { $0.append(Entry(time: now, event: event)) }
    }

    /// How many events arrived so far: a mark for ``wait(after:within:_:)``.
    var count: Int { entries.withLock { $0.count } }

    /// The first event after `mark` that matches, waiting up to `seconds` for
    /// it. The time stamp is the callback's own, so how often this looks does
    /// not change the measurement.
    func wait(after mark: Int, within seconds: Double = 10, _ match: (SessionEvent) -> Bool) -> Entry? {
        var found: Entry?
        _ = eventually(within: seconds) {
            found = entries.withLock { $0.dropFirst(mark).first { match($0.event) } }
            return found != nil
        }
        return found
    }

    /// The events after `mark`, for messages.
    func events(after mark: Int) -> [SessionEvent] { entries.withLock { $0.dropFirst(mark).map(\.event) } }
}

/// `pactl subscribe` against the server, each line time-stamped as it is read:
/// when the server announced a new sink input or device to its subscribers,
/// about when the engine's own subscription hears of it too (pactl is
/// another process: on a loaded machine it may read its line a little later).
final class ServerEventWatcher: Sendable {
    struct Event: Sendable {
        let time: Instant
        /// `new`, `change` or `remove`.
        let kind: String
        /// `sink-input`, `sink`, `client`, …
        let facility: String
        let index: Int
    }

    private let process: Subprocess
    private let events = Mutex<[Event]>([])
    /// When pactl started: ``waitQuiet(for:within:)`` knows nothing earlier.
    private let started = ContinuousClock.now

    /// Starts `pactl subscribe` and returns once it has seen its first event
    /// (a `pactl info` of ours), so nothing after this is missed.
    init(server: PrivateSoundServer) throws {
        process = try Subprocess(
            ["pactl", "subscribe"], extraEnvironment: ["PULSE_SERVER": server.address], captureStderr: false)
        let thread = Thread { [self] in readLines() }
        thread.name = "sessionbench pactl subscribe"
        thread.start()
        let subscribed = try eventually(within: 10) {
            try server.pactl("info")
            return events.withLock { !$0.isEmpty }
        }
        guard subscribed else {
            process.kill()
            throw ServerError("pactl subscribe printed nothing")
        }
    }

    /// Reads lines until pactl is gone.
    private func readLines() {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(process.stdout, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            let now = ContinuousClock.now
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let event = Self.parse(line, at: now) { events.withLock { $0.append(event) } }
            }
        }
    }

    /// `Event 'new' on sink-input #12`.
    private static func parse(_ line: String, at time: Instant) -> Event? {
        let parts = line.split(separator: " ")
        guard parts.count == 5, parts[0] == "Event", parts[2] == "on", parts[4].hasPrefix("#"),
            let index = Int(parts[4].dropFirst())
        else { return nil }
        return Event(time: time, kind: parts[1].trimmingCharacters(in: ["'"]), facility: String(parts[3]), index: index)
    }

    /// When the server first announced one of `kinds` on one of
    /// `facilities` (with `index`, if given) at or after `start`, waiting up
    /// to `seconds` for the line.
    func time(
        of kinds: Set<String>, on facilities: Set<String>, index: Int? = nil, notBefore start: Instant,
        within seconds: Double = 2
    ) -> Instant? {
        var found: Instant?
        _ = eventually(within: seconds) {
            found = events.withLock {
                $0.first {
                    $0.time >= start && kinds.contains($0.kind) && facilities.contains($0.facility) && (index == nil || $0.index == index)
                }?.time
            }
            return found != nil
        }
        return found
    }

    /// The facilities whose events can start one of the engine's coalescing
    /// bursts (not `client`: every pactl we run makes those).
    static let deviceFacilities: Set<String> = ["sink", "source", "sink-input", "source-output", "card", "server"]

    /// Waits until the server has announced nothing about devices or streams
    /// for `quiet` seconds (longer than the engine's 90 ms coalescing limit),
    /// so that a repetition starts no earlier than the previous one's
    /// aftermath (our stream moving back, a sink going idle) has been
    /// flushed; returns false if that takes more than `seconds`.
    func waitQuiet(for quiet: Double = 0.15, within seconds: Double = 5) -> Bool {
        eventually(within: seconds) {
            let last = events.withLock { $0.last { Self.deviceFacilities.contains($0.facility) }?.time } ?? started
            return ContinuousClock.now - last >= .milliseconds(Int(quiet * 1000))
        }
    }

    func stop() { process.kill() }
}

/// Polls `connect()` on a server's unix socket every millisecond, from its own
/// thread, until one succeeds: the moment a restarted server accepts
/// connections (the connection is closed at once).
final class AcceptProbe: Sendable {
    private let accepted = Mutex<Instant?>(nil)
    private let cancelled = Atomic<Bool>(false)

    /// Starts polling `address` (`unix:/path`).
    init(address: String) throws {
        guard address.hasPrefix("unix:") else { throw ServerError("not a unix socket address: \(address)") }
        let path = String(address.dropFirst("unix:".count))
        let thread = Thread { [self] in poll(path) }
        thread.name = "sessionbench accept probe"
        thread.start()
    }

    private func poll(_ path: String) {
        while !cancelled.load(ordering: .relaxed) {
            if Self.connects(path) {
                let now = ContinuousClock.now
                accepted.withLock { $0 = now }
                return
            }
            usleep(1000)
        }
    }

    private static func connects(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) == 0 }
        }
    }

    /// When the first connection succeeded, waiting up to `seconds`.
    func acceptedAt(within seconds: Double = 10) -> Instant? {
        var found: Instant?
        _ = eventually(within: seconds) {
            found = accepted.withLock { $0 }
            return found != nil
        }
        return found
    }

    /// Stops polling (idempotent).
    func cancel() { cancelled.store(true, ordering: .relaxed) }
}

/// Finds the first 10 ms of the tone on `speaker.monitor`: `parec
/// --latency-msec=20` (float32 stereo, as ``MonitorRecorder`` records),
/// each window time-stamped when its last byte is read. Unlike
/// ``MonitorRecorder`` it tells a parec that ended (the server was not ready
/// for it: pipewire-pulse before wireplumber links streams) from a quiet one,
/// and starts a new one.
enum ToneWatch {
    struct Found {
        /// When the window holding the tone had been read.
        let time: Instant
        /// How many windows the parec that heard it had read (1: the tone
        /// was there the moment the recorder attached).
        let windows: Int
        /// How many parec processes it took (more than 1: the server ended the first).
        let recorders: Int
        /// From that parec's start to its first data (about 10 ms on a clocked
        /// sink; up to 2 s on a null sink left rendering its idle 2 s blocks).
        let firstData: Duration
    }

    static func first(on server: PrivateSoundServer, until deadline: Instant, _ isTone: ([Float]) -> Bool) throws -> Found? {
        let channels = MonitorRecorder.channels
        let windowBytes = MonitorRecorder.sampleRate / 100 * channels * MemoryLayout<Float>.size
        var recorders = 0
        while ContinuousClock.now < deadline {
            recorders += 1
            let started = ContinuousClock.now
            var firstData: Instant?
            let parec = try Subprocess(
                [
                    "parec", "--latency-msec=20", "-d", "speaker.monitor", "--format=float32le",
                    "--rate=\(MonitorRecorder.sampleRate)", "--channels=\(channels)", "--raw",
                ], extraEnvironment: ["PULSE_SERVER": server.address], captureStderr: false)
            defer { parec.kill() }
            var bytes = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: windowBytes)
            var windows = 0
            while ContinuousClock.now < deadline {
                var pfd = pollfd(fd: parec.stdout, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                let n = chunk.withUnsafeMutableBytes { read(parec.stdout, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }  // parec ended: start another
                let now = ContinuousClock.now
                if firstData == nil { firstData = now }
                bytes += chunk[0..<n]
                while bytes.count >= windowBytes {
                    let window = bytes[0..<windowBytes].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                    bytes.removeFirst(windowBytes)
                    windows += 1
                    if isTone(MonitorRecorder.rms(window)) {
                        return Found(time: now, windows: windows, recorders: recorders, firstData: firstData! - started)
                    }
                }
            }
            usleep(10_000)
        }
        return nil
    }
}
