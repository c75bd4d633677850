import Foundation
import Glibc
import SoundEngine
import SoundServerSupport
import Synchronization

/// Progress and warnings, on stderr (stdout carries only the results).
func note(_ message: String) {
    FileHandle.standardError.write(Data("sessionbench: \(message)\n".utf8))
}

/// One private server of a kind, an engine on it playing a looping 440 Hz
/// tone in the `playback` category, and the three measurements.
final class SessionBench {
    let server: PrivateSoundServer
    let engine: SoundEngineInstance
    let log = CallbackLog()
    let reps: Int
    /// Print every repetition's figures on stderr.
    let verbose: Bool
    static let applicationName = "sessionbench"
    /// A USB headset as LiveSessionTests plugs it: a null sink with these properties.
    static let usbHeadphones = ["device.description": "USB Headphones", "device.bus": "usb", "device.form_factor": "headphone"]

    init(kind: PrivateSoundServer.Kind, reps: Int, verbose: Bool) throws {
        self.reps = reps
        self.verbose = verbose
        server = try PrivateSoundServer(kind: kind)
        var platform = SoundEngine.defaultPlatformInitSettings()
        platform.serverAddress = server.address
        platform.applicationName = Self.applicationName
        platform.audioSession = AudioSession.Configuration(category: .playback)
        platform.audioCallbacks = log.callbacks
        do {
            engine = try SoundEngineInstance(InitSettings(), platform)
            let rate = 48_000  // one second of 440 Hz: a whole number of cycles, so the loop is seamless
            let tone = SoundEngine.DecodedAudio(sampleRate: rate, channelCount: 1, samples: (0..<rate).map {
                0.5 * Float(sin(2 * Double.pi * 440 * Double($0) / Double(rate)))
            })
            try engine.play(try engine.loadSound(tone, name: "tone"), SoundEngine.PlayParameters(loop: true))
        } catch {
            server.stop()
            throw error
        }
        let recorder = try server.record()
        defer { recorder.stop() }
        guard recorder.waitForLevel(deadline: 10, Self.hasTone).met else {
            stop()
            throw ServerError("the tone never reached speaker.monitor")
        }
    }

    /// What the server calls itself.
    var serverVersion: String {
        let granted = engine.outputStream
        return "\(granted.serverName) \(granted.serverVersion)"
    }

    func stop() {
        engine.terminate()
        server.stop()
    }

    /// The tone (amplitude 0.5, RMS 0.35) on both channels, not silence.
    static func hasTone(_ rms: [Float]) -> Bool { rms.count == 2 && rms.allSatisfy { $0 > 0.1 } }

    /// Our playback stream as the server lists it.
    private func ourStream() throws -> SinkInput? {
        try server.sinkInputs().first { $0.properties["application.name"] == Self.applicationName }
    }

    /// Waits until the engine runs and its stream plays (uncorked) on `sink`
    /// before a repetition starts; throws if that does not come back.
    private func settle(on sink: String = "speaker") throws {
        let settled = try eventually(within: 10) {
            guard engine.status == .running, let stream = try ourStream(), !stream.corked else { return false }
            return try server.sinks().first { $0.index == stream.sink }?.name == sink
        }
        guard settled else {
            throw ServerError("the engine did not settle (\(engine.status), stream \(String(describing: try? ourStream())))")
        }
    }

    /// Lets the previous step's server events be flushed before t0.
    private func quiet(_ watcher: ServerEventWatcher) {
        if !watcher.waitQuiet() { note("\(server.kind.rawValue): the server never went quiet for 150 ms; starting anyway") }
    }

    /// Progress every `every` repetitions, or with `--verbose` every
    /// repetition with its figures (`detail`: name and ms).
    private func progress(_ what: String, _ rep: Int, every: Int = 10, _ detail: [(String, Double?)] = []) {
        let figures = detail.map { "\($0.0) " + ($0.1.map { String(format: "%.1f", $0) } ?? "–") }.joined(separator: ", ")
        if verbose {
            note("\(server.kind.rawValue): \(what) \(rep)/\(reps): \(figures)")
        } else if rep == reps || rep % every == 0 {
            note("\(server.kind.rawValue): \(what) \(rep)/\(reps)")
        }
    }

    // MARK: - 1. Phone call → interruption

    /// t0: just before `pacat --property=media.role=phone` is spawned (the
    /// stream's appearance cannot be seen earlier from outside); t1: the
    /// interruption-began callback. Split at the moment the server announced
    /// the new sink input to its subscribers (`pactl subscribe`).
    func measurePhoneCall() throws -> [Series] {
        var total = Series("phone stream → interruption began", targetMs: 50)
        var spawn = Series("spawn → server announces stream", isPart: true)
        var react = Series("announced → callback", isPart: true)
        var sources: [String: Int] = [:]
        let watcher = try ServerEventWatcher(server: server)
        defer { watcher.stop() }
        for rep in 1...reps {
            try settle()
            quiet(watcher)
            let mark = log.count
            let t0 = ContinuousClock.now
            let call = try server.startClient(role: "phone")
            let began = log.wait(after: mark) { if case .interruption(let i) = $0 { i.type == .began } else { false } }
            let announced = watcher.time(of: ["new"], on: ["sink-input"], index: call.sinkInputIndex, notBefore: t0)
            var detail: [(String, Double?)] = [("total", nil), ("spawn", announced.map { milliseconds(from: t0, to: $0) })]
            if let began {
                if case .interruption(let i) = began.event { sources[i.source.map(\.rawValue) ?? "none", default: 0] += 1 }
                detail[0].1 = milliseconds(from: t0, to: began.time)
                total.samples.append(milliseconds(from: t0, to: began.time))
                if let announced {
                    spawn.samples.append(milliseconds(from: t0, to: announced))
                    react.samples.append(milliseconds(from: announced, to: began.time))
                }
            } else {
                total.failures += 1
                note("rep \(rep): no interruption began: \(log.events(after: mark))")
            }
            try call.stop()
            let ended = log.wait(after: mark) { if case .interruption(let i) = $0 { i.shouldResume } else { false } }
            if ended == nil { note("rep \(rep): no interruption ended with shouldResume: \(log.events(after: mark))") }
            progress("phone call", rep, detail)
        }
        let bySource = sources.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        note("\(server.kind.rawValue): interruptions began from \(bySource)")
        return [total, spawn, react]
    }

    // MARK: - 2. Device plugged → route change

    /// t0: just before `pactl load-module module-null-sink`
    /// (``PrivateSoundServer/addOutput(name:properties:)``); t1: the
    /// route-change callback with `newDeviceAvailable`. Split at the server's
    /// first event about the device (its sink or monitor source). The unplug
    /// (t0 before `unload-module`, t1 at `oldDeviceUnavailable`) is timed too.
    func measureRouteChange() throws -> [Series] {
        var total = Series("device plugged → route change", targetMs: 25)
        var load = Series("load-module → server announces device", isPart: true)
        var react = Series("announced → callback", isPart: true)
        var unplug = Series("device unplugged → route change")
        let watcher = try ServerEventWatcher(server: server)
        defer { watcher.stop() }
        for rep in 1...reps {
            try settle(on: "speaker")
            quiet(watcher)
            let mark = log.count
            let t0 = ContinuousClock.now
            let device = try server.addOutput(name: "usbhp", properties: Self.usbHeadphones)
            let plugged = log.wait(after: mark) { if case .routeChange(let c) = $0 { c.reason == .newDeviceAvailable } else { false } }
            // The device's first event: PulseAudio 16 sends `change` on the new
            // sink and its monitor source before their `new`.
            let announced = watcher.time(of: ["new", "change"], on: ["sink", "source"], notBefore: t0)
            var detail: [(String, Double?)] = [
                ("plug", plugged.map { milliseconds(from: t0, to: $0.time) }),
                ("load", announced.map { milliseconds(from: t0, to: $0) }), ("unplug", nil),
            ]
            if let plugged {
                total.samples.append(milliseconds(from: t0, to: plugged.time))
                if let announced {
                    load.samples.append(milliseconds(from: t0, to: announced))
                    react.samples.append(milliseconds(from: announced, to: plugged.time))
                }
            } else {
                total.failures += 1
                note("rep \(rep): no newDeviceAvailable: \(log.events(after: mark))")
            }
            try settle(on: device.name)
            quiet(watcher)
            if !oneRouteChange(.newDeviceAvailable, after: mark, "plug", rep) { total.failures += 1 }
            let mark2 = log.count
            let t2 = ContinuousClock.now
            try device.remove()
            let unplugged = log.wait(after: mark2) { if case .routeChange(let c) = $0 { c.reason == .oldDeviceUnavailable } else { false } }
            if let unplugged {
                unplug.samples.append(milliseconds(from: t2, to: unplugged.time))
                detail[2].1 = milliseconds(from: t2, to: unplugged.time)
            } else {
                unplug.failures += 1
                note("rep \(rep): no oldDeviceUnavailable: \(log.events(after: mark2))")
            }
            try settle(on: "speaker")
            quiet(watcher)
            if !oneRouteChange(.oldDeviceUnavailable, after: mark2, "unplug", rep) { unplug.failures += 1 }
            progress("plug/unplug", rep, detail)
        }
        return [total, load, react, unplug]
    }

    /// Whether the route changes since `mark`, once the server has been
    /// quiet, are exactly one with `reason`: a second notification of one
    /// plug (a late piece of its burst taken for another change) fails the
    /// repetition.
    private func oneRouteChange(_ reason: AudioSession.RouteChangeReason, after mark: Int, _ what: String, _ rep: Int) -> Bool {
        let reasons = log.events(after: mark).compactMap { if case .routeChange(let c) = $0 { c.reason } else { nil } }
        guard reasons == [reason] else {
            note("rep \(rep): \(what): route changes \(reasons), not one \(reason)")
            return false
        }
        return true
    }

    // MARK: - 3. Server back → audio

    /// `kill -9` of every server process, then ``PrivateSoundServer/restart()``
    /// on another thread. t0: the first successful `connect()` to the
    /// server's socket (polled every millisecond: the server accepts
    /// connections); t1: the first 10 ms window of a `parec --latency-msec=20`
    /// recording of `speaker.monitor` that holds the tone.
    ///
    /// The recorder starts when the engine's `mediaServicesWereReset`
    /// callback runs (before it nothing of ours can play) and, on PulseAudio,
    /// not before `restart()` returns: until then the harness keeps the sink
    /// suspended and waits for its own monitor reader to attach, and a
    /// recorder of ours would stand in for that reader. When the tone is
    /// already in the recorder's first window, the recorder's start bounded
    /// t1 (counted and reported).
    func measureRestart() throws -> [Series] {
        var total = Series("server accepting → tone on monitor", targetMs: 1000)
        var reset = Series("accepting → mediaServicesWereReset", isPart: true)
        var heard = Series("reset → tone on monitor", isPart: true)
        var ready = Series("accepting → harness ready", isPart: true)
        var attach = Series("recorder start → its first data", isPart: true)
        var firstWindow = 0
        var unclocked = 0
        for rep in 1...reps {
            try settle()
            let mark = log.count
            server.crash()
            guard log.wait(after: mark, { $0 == .mediaServicesWereLost }) != nil else {
                throw ServerError("no mediaServicesWereLost after kill -9: \(log.events(after: mark))")
            }
            let probe = try AcceptProbe(address: server.address)
            defer { probe.cancel() }
            let restart = Restart(server)
            defer { restart.join() }
            guard let wasReset = log.wait(after: mark, within: 20, { $0 == .mediaServicesWereReset }) else {
                throw ServerError("no mediaServicesWereReset after the restart: \(restart.join()), \(log.events(after: mark))")
            }
            if server.kind.isPulseAudio { _ = restart.join() }
            let tone = try ToneWatch.first(on: server, until: .now + .seconds(10), Self.hasTone)
            let returned = restart.join()
            guard case .success(let readyAt) = returned else { throw ServerError("restart failed: \(returned)") }
            let accepted = probe.acceptedAt(within: 1)
            let detail: [(String, Double?)] = accepted.map { accepted in
                [
                    ("total", tone.map { milliseconds(from: accepted, to: $0.time) }),
                    ("reset", milliseconds(from: accepted, to: wasReset.time)),
                    ("ready", milliseconds(from: accepted, to: readyAt)),
                    ("first data", tone.map { milliseconds($0.firstData) }),
                    ("windows", tone.map { Double($0.windows) }), ("recorders", tone.map { Double($0.recorders) }),
                ]
            } ?? []
            if let accepted, let tone {
                total.samples.append(milliseconds(from: accepted, to: tone.time))
                reset.samples.append(milliseconds(from: accepted, to: wasReset.time))
                heard.samples.append(milliseconds(from: wasReset.time, to: tone.time))
                ready.samples.append(milliseconds(from: accepted, to: readyAt))
                attach.samples.append(milliseconds(tone.firstData))
                if tone.windows == 1 { firstWindow += 1 }
                if tone.firstData > .milliseconds(500) { unclocked += 1 }
            } else {
                total.failures += 1
                note("rep \(rep): accepted \(probe.acceptedAt(within: 0) != nil), tone \(tone != nil)")
            }
            progress("restart", rep, every: 1, detail)
        }
        if firstWindow > 0 {
            note("\(server.kind.rawValue): in \(firstWindow) of \(reps) restarts the tone was already in the recorder's first window")
        }
        if unclocked > 0 {
            note("\(server.kind.rawValue): in \(unclocked) of \(reps) restarts the monitor delivered nothing for more than 0.5 s: the null sink was left unclocked (see docs/performance.md)")
        }
        return [total, reset, heard, ready, attach]
    }
}

/// ``PrivateSoundServer/restart()`` on its own thread; ``join()`` waits for it
/// and gives the time it returned (the harness's "ready": devices exist,
/// defaults set, on PulseAudio the sink clocked) or why it failed.
private final class Restart: Sendable {
    private let result = Mutex<Result<Instant, ServerError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ server: PrivateSoundServer) {
        let thread = Thread { [self] in
            let outcome: Result<Instant, ServerError>
            do {
                try server.restart()
                outcome = .success(.now)
            } catch {
                outcome = .failure(ServerError("\(error)"))
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.name = "sessionbench restart"
        thread.start()
    }

    /// Waits until restart() has returned (idempotent).
    @discardableResult
    func join() -> Result<Instant, ServerError> {
        if let outcome = result.withLock({ $0 }) { return outcome }
        done.wait()
        return result.withLock { $0! }
    }
}
