import Foundation
import Glibc
import SoundContent  // the bank built in code (package: a game loads bank files)
import SoundEngine
import SoundServerSupport
import Synchronization

/// Progress and warnings, on stderr (stdout carries only the results).
func note(_ message: String) {
    FileHandle.standardError.write(Data("callbench: \(message)\n".utf8))
}

/// A measurement that could not be made (the engine never idle-corked, a
/// call did not wake the stream, …): the run exits 1.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The two calls a game makes to start a sound, and a reference.
enum Call: String, CaseIterable {
    case play, postEvent
    /// No engine call: a fixed piece of game-like work (a dictionary insert
    /// and removal with a fresh string key, and a sum over 8 KiB of a 4 MiB
    /// table at a random place) — about what a warm `postEvent` costs —
    /// timed in the same conditions as the idle-corked calls. What it costs
    /// cold is what this machine charges any code that wakes after a long
    /// sleep (cache and TLB misses, a virtual CPU's wake-up); the engine's
    /// calls are read against it.
    case reference

    /// The engine's calls.
    static let engine: [Call] = [.play, .postEvent]
}

/// The reference work's data: a table the size of a game's bookkeeping.
final class ReferenceWork {
    private var table: [String: Int] = Dictionary(uniqueKeysWithValues: (0..<1_000).map { ("entity\($0)", $0) })
    private let buffer = [UInt64](repeating: 1, count: 4 << 20 / 8)
    private var next = 0
    private var random = SystemRandomNumberGenerator()

    /// Runs it once; returns a value so the optimiser keeps it.
    func run() -> Int {
        next += 1
        let key = "entity\(1_000 + next)"
        table[key] = next
        let start = Int.random(in: 0..<(buffer.count - 1_024), using: &random)
        var sum: UInt64 = 0
        for i in start..<start + 1_024 { sum &+= buffer[i] }
        return (table.removeValue(forKey: key) ?? 0) &+ Int(truncatingIfNeeded: sum)
    }
}

/// What the engine was doing when a call was timed.
enum EngineCondition: String {
    /// Nothing played for the idle-cork timeout: the stream is corked, and
    /// the call must hand the uncork to the session thread.
    case idleCorked = "idle-corked"
    /// A silent looping voice keeps the stream running: the call only queues.
    case running
    /// Running, and the same call made a moment before (back to back): the
    /// engine's code and data are in the caches, so what remains is the
    /// call's own work.
    case runningWarm = "running, warm"
}

/// One timed call: how long it took, and what the kernel did to the calling
/// thread meanwhile (getrusage, RUSAGE_THREAD, read just outside the timed span).
struct Sample {
    let micros: Double
    /// Switched out involuntarily: another thread took the CPU.
    let preempted: Bool
    /// Switched out voluntarily: the call blocked (a lock held elsewhere).
    let blocked: Bool
    /// Took a page fault.
    let faulted: Bool
}

/// The call times of one call in one engine condition, in microseconds.
struct Series {
    let call: Call
    let condition: EngineCondition
    var samples: [Sample] = []

    var micros: [Double] { samples.map(\.micros) }

    /// Nearest-rank percentile: the ⌈p/100 · n⌉-th smallest sample (with 200
    /// samples p99 is the 198th, so the two largest are not counted); with
    /// `unpreempted`, of the calls during which no other thread took the CPU
    /// (what the call itself costs, cold caches included, without the time
    /// another thread ran in its place: the sound server's real-time I/O
    /// thread, our render thread, kernel threads).
    func percentile(_ p: Double, unpreempted: Bool = false) -> Double? {
        let micros = unpreempted ? samples.filter { !$0.preempted }.map(\.micros) : micros
        guard !micros.isEmpty else { return nil }
        let sorted = micros.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The calls that took longer than `limit` µs, and how many of them were
    /// preempted, blocked or took a page fault.
    func count(over limit: Double) -> (slow: Int, preempted: Int, blocked: Int, faulted: Int) {
        let slow = samples.filter { $0.micros > limit }
        return (slow.count, slow.filter(\.preempted).count, slow.filter(\.blocked).count, slow.filter(\.faulted).count)
    }
}

/// Counts the engine's idle corks from its own log: the session thread logs
/// "idle for …: stream corked" right after it sets its idle flag, so once
/// the count moves, a `play` finds the flag set and must queue the wake-up.
/// Warnings and errors go to stderr.
final class CorkWatch: SoundLogger {
    private let corks = Atomic<Int>(0)
    let verbose: Bool

    init(verbose: Bool) { self.verbose = verbose }

    var count: Int { corks.load(ordering: .acquiring) }  // acquiring: pairs with log's releasing add

    func log(_ level: SoundEngine.LogLevel, _ message: String) {
        if level == .debug, message.hasPrefix("idle for "), message.hasSuffix(": stream corked") {
            corks.add(1, ordering: .releasing)
        }
        if level >= .warning || verbose { note("engine \(level): \(message)") }
    }
}

/// An engine on one server with a 20 ms sine loaded twice — as a sound for
/// `play` and as the one sound of a bank event for `postEvent` — and the
/// call timings on it.
final class CallBench {
    static let applicationName = "callbench"
    static let idleCorkTimeout: Duration = .milliseconds(200)
    static let event = "Blip"
    static let object = SoundEngine.GameObjectID(1)

    let address: String
    let engine: SoundEngineInstance
    let corks: CorkWatch
    let sound: SoundEngine.SoundID
    let reps: Int
    let verbose: Bool
    private let folder: String
    private let reference = ReferenceWork()
    /// Keeps the reference work's result alive.
    private(set) var referenceSink = 0

    init(address: String, reps: Int, verbose: Bool) throws {
        self.address = address
        self.reps = reps
        self.verbose = verbose
        corks = CorkWatch(verbose: verbose)
        var settings = InitSettings()
        settings.logger = corks
        var platform = PlatformInitSettings()
        platform.serverAddress = address
        platform.applicationName = Self.applicationName
        platform.idleCorkTimeout = Self.idleCorkTimeout
        engine = try SoundEngineInstance(settings, platform)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("callbench-\(getpid())").path
        do {
            let rate = 48_000  // 20 ms of 1 kHz: 20 whole cycles
            let samples = (0..<rate / 50).map { 0.25 * Float(sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
            sound = try engine.loadSound(SoundEngine.DecodedAudio(sampleRate: rate, channelCount: 1, samples: samples), name: "blip")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = folder + "/blip.wav"
            guard FileManager.default.createFile(atPath: file, contents: WaveFile.monoFloat32(samples, rate: rate)) else {
                throw BenchError("cannot write \(file)")
            }
            try engine.loadBank(
                Bank(
                    name: "callbench", folder: folder, sounds: ["blip": BankSound(name: "blip", file: file)],
                    events: [Self.event: BankEvent(name: Self.event, actions: [BankAction(.play(object: "blip", fadeIn: .zero))])]))
            try engine.registerGameObject(Self.object, name: "emitter")
        } catch {
            engine.terminate()
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        // Untimed first calls: what a game pays once (lazy set-up, first
        // page faults) is not what it pays per sound.
        do {
            for call in Call.allCases { try self.call(call) }  // (the reference too)
            try waitUntil("the warm-up calls' voices end") { engine.statistics.mixer.voicesActive == 0 }
        } catch {
            stop()
            throw error
        }
    }

    /// What the server calls itself.
    var serverName: String {
        let granted = engine.outputStream
        return "\(granted.serverName) \(granted.serverVersion)"
    }

    func stop() {
        engine.terminate()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// One call of the kind, untimed here.
    private func call(_ call: Call) throws {
        switch call {
        case .play: try engine.play(sound)
        case .postEvent: try engine.postEvent(.init(Self.event), on: Self.object)
        case .reference: referenceSink &+= reference.run()
        }
    }

    /// Times `reps` calls of each kind, alternately, each made when the engine
    /// is idle-corked again: its log reported a cork since the last call, and
    /// the server lists our stream corked. Afterwards the stream must render
    /// again (the call did wake it).
    /// The reference work is timed in the same way, after the same waits, in
    /// turn with the two calls (the stream stays corked after it).
    func measureIdleCorked() throws -> [Series] {
        var series = Call.allCases.map { Series(call: $0, condition: .idleCorked) }
        var corksSeen = 0
        for rep in 0..<reps * series.count {
            let which = rep % series.count
            if series[which].call == .reference {
                try waitUntil("the server lists our stream corked") { try streamCorked() == true }
                let sample = try timed(.reference)
                series[which].samples.append(sample)
                progress(series[which], rep, sample)
                continue
            }
            try waitUntil("the engine idle-corks (its log reports no cork)", within: 10) { corks.count > corksSeen }
            try waitUntil("the server lists our stream corked") { try streamCorked() == true }
            corksSeen = corks.count
            let renderCalls = engine.statistics.output.renderCalls
            let sample = try timed(series[which].call)
            series[which].samples.append(sample)
            try waitUntil("the stream renders after \(series[which].call.rawValue) on an idle-corked engine") {
                engine.statistics.output.renderCalls > renderCalls
            }
            progress(series[which], rep, sample)
        }
        return series
    }

    /// Times `reps` calls of each kind, alternately, while a silent looping
    /// voice keeps the stream running; each call is made once the previous
    /// call's voices have ended and the server lists our stream uncorked,
    /// and is followed at once by the same call, timed as the warm one.
    func measureRunning() throws -> [Series] {
        var series = Call.engine.map { Series(call: $0, condition: .running) }
        var warm = Call.engine.map { Series(call: $0, condition: .runningWarm) }
        let keeper = try engine.play(sound, SoundEngine.PlayParameters(volume: 0, loop: true))
        defer { try? engine.stop(keeper) }
        try waitUntil("the server lists our stream uncorked") { try streamCorked() == false }
        let corksBefore = corks.count
        for rep in 0..<reps * 2 {
            let which = rep % 2
            try waitUntil("the previous calls' voices end") { engine.statistics.mixer.voicesActive == 1 }
            try waitUntil("the server lists our stream uncorked") { try streamCorked() == false }
            let sample = try timed(series[which].call)
            warm[which].samples.append(try timed(series[which].call))
            series[which].samples.append(sample)
            progress(series[which], rep, sample)
        }
        guard corks.count == corksBefore else { throw BenchError("the engine idle-corked while a voice played") }
        return series + warm
    }

    /// The call's time on this thread (monotonic clock), and what the
    /// kernel did to the thread meanwhile.
    private func timed(_ call: Call) throws -> Sample {
        var before = rusage(), after = rusage()
        getrusage(rusageThread, &before)
        let start = ContinuousClock.now
        try self.call(call)
        let end = ContinuousClock.now
        getrusage(rusageThread, &after)
        return Sample(
            micros: microseconds(end - start),
            preempted: after.ru_nivcsw > before.ru_nivcsw, blocked: after.ru_nvcsw > before.ru_nvcsw,
            faulted: after.ru_minflt + after.ru_majflt > before.ru_minflt + before.ru_majflt)
    }

    /// Whether the server lists our stream corked (`pactl --format=json list
    /// sink-inputs`); nil when it does not list it.
    private func streamCorked() throws -> Bool? {
        let json = try PrivateSoundServer.run(
            "pactl", ["--format=json", "list", "sink-inputs"], environment: ["PULSE_SERVER": address])
        let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        let ours = list.first { ($0["properties"] as? [String: Any])?["application.name"] as? String == Self.applicationName }
        return ours.map { $0["corked"] as? Bool ?? false }
    }

    /// Waits (polling every 10 ms) until `condition` holds; throws naming
    /// `what` when it does not within `seconds`.
    private func waitUntil(_ what: String, within seconds: Double = 5, _ condition: () throws -> Bool) throws {
        guard try eventually(within: seconds, condition) else {
            throw BenchError("\(what): not within \(seconds) s")
        }
    }

    private func progress(_ series: Series, _ rep: Int, _ sample: Sample) {
        if verbose {
            let flags = (sample.preempted ? " preempted" : "") + (sample.blocked ? " blocked" : "")
                + (sample.faulted ? " page fault" : "")
            note("\(series.condition.rawValue) \(series.call.rawValue) \(series.samples.count): \(String(format: "%.1f", sample.micros)) µs\(flags)")
        } else if series.samples.count % 50 == 0 {
            note("\(series.condition.rawValue) \(series.call.rawValue): \(series.samples.count)/\(reps)")
        }
    }
}

/// `RUSAGE_THREAD` (Linux): the calling thread's counters. Glibc defines it
/// under `_GNU_SOURCE` only, so Swift does not import it.
let rusageThread = __rusage_who_t(1)

func microseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
}
