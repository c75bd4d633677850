// callbench: how long a game thread's `play` and `postEvent` take on an
// idle-corked engine (issue 15, item 4: "The game never waits on the server").
//
// On a real server it initialises an engine with a 200 ms idle-cork timeout,
// a 20 ms sine loaded as a sound and as the one sound of a bank event, and a
// registered game object. Then, alternately for `play(sound)` and
// `postEvent("Blip", on: object)`, N times each:
//
//   idle-corked  wait until the engine has corked its stream again (its log's
//                "stream corked", then the server's view: `pactl` lists our
//                stream corked), time ONE call on this thread with the
//                monotonic clock, then check the stream renders again (the
//                call did wake it: the uncork itself runs on the session thread)
//   running      the same calls while a silent looping voice keeps the stream
//                running, each once the previous calls' voices have ended
//   running, warm  the same call again, at once: what the call costs with the
//                engine's code and data in the caches
//
// and prints min, p50, p99 and max in µs for each, the server, the CPU model,
// and whether the goal (p99 < 50 µs for the idle-corked calls) is met; for
// the calls over 50 µs, how many were preempted (another thread took the
// CPU), blocked or took a page fault meanwhile (getrusage RUSAGE_THREAD,
// read outside the timed span); and the p99 of the calls that were not
// preempted (the call's own cost, cold caches included). Build in release:
//
//   swift build -c release --product callbench
//   Scripts/sound-server run -- .build/release/callbench            # the server in PULSE_SERVER
//   .build/release/callbench --server pipewire                       # starts a private pipewire-pulse
//   .build/release/callbench [--server pulseaudio|pipewire|both] [--reps N] [--json] [--verbose]
//
// Without --server it uses PULSE_SERVER, or starts a private PulseAudio if
// that is not set; --server starts private servers (Scripts/sound-server,
// through SoundServerSupport) and ignores PULSE_SERVER. --verbose prints every
// call's time and the engine's log on stderr. Exit status: 0 when every
// measurement was made (a MISS of the goal still exits 0: machines differ),
// 1 when one could not be (the engine never idle-corked, a call did not wake
// the stream, a server could not be started), 2 for bad arguments.
// Results: docs/performance.md, "Call time on an idle-corked engine".
import Foundation
import SoundServerSupport

/// Where the engine connects.
enum ServerChoice {
    /// An address given (PULSE_SERVER).
    case address(String)
    /// A private server started for the run.
    case start(PrivateSoundServer.Kind)

    var label: String {
        switch self {
        case .address(let address): "PULSE_SERVER=\(address)"
        case .start(let kind): "private \(kind.rawValue)"
        }
    }
}

struct Options {
    var servers: [ServerChoice] = ProcessInfo.processInfo.environment["PULSE_SERVER"].map { [.address($0)] } ?? [.start(.pulseaudio)]
    var reps = 200
    var json = false
    var verbose = false
}

/// The goal for the idle-corked calls' p99, in µs (issue 15, item 4).
let goalMicros = 50.0

func usage(_ message: String) -> Never {
    note("\(message)\nusage: callbench [--server pulseaudio|pipewire|both] [--reps N] [--json] [--verbose]")
    exit(2)
}

func parse() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else { usage("\(flag) needs a value") }
        return v
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--server":
            let word = value(arg)
            guard let kinds = PrivateSoundServer.Kind.named(word) else {
                usage("--server: pulseaudio, pipewire or both, not '\(word)'")
            }
            o.servers = kinds.map(ServerChoice.start)
        case "--reps":
            guard let n = Int(value(arg)), n >= 1 else { usage("--reps: a whole number ≥ 1") }
            o.reps = n
        case "--json": o.json = true
        case "--verbose": o.verbose = true
        case "--help", "-h": usage("times play and postEvent on an idle-corked engine")
        default: usage("unknown argument \(arg)")
        }
    }
    return o
}

/// The CPU as /proc/cpuinfo names it ("model name").
func cpuModel() -> String {
    let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
}

/// One server's figures.
struct ServerReport {
    let choice: ServerChoice
    let name: String
    var series: [Series] = []
}

/// PASS or MISS for an idle-corked series; nil for the others.
func verdict(_ s: Series) -> String? {
    guard s.condition == .idleCorked, s.call != .reference, let p99 = s.percentile(99) else { return nil }
    return p99 < goalMicros ? "PASS" : "MISS"
}

private func format(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "–" }

/// The table: one row per (server, call, engine condition). Four columns
/// count the calls over the goal, and of those, the ones during which the
/// calling thread was preempted, blocked or took a page fault; the last is
/// the p99 of the calls that were not preempted.
func printTable(_ reports: [ServerReport], reps: Int) {
    print("callbench: \(reps) calls of each kind per engine condition; µs on the calling thread; nearest-rank percentiles")
    print("  cpu: \(cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) online")
    print("  goal: p99 < \(Int(goalMicros)) µs for the idle-corked calls")
    let limit = Int(goalMicros)
    let header = [
        "call", "engine", "n", "min", "p50", "p99", "max", "goal", "> \(limit)", "preempted", "blocked", "faulted",
        "p99 unpreempted",
    ]
    for report in reports {
        print("  server: \(report.name) (\(report.choice.label))")
        let rows = [header] + report.series.map { s in
            let over = s.count(over: goalMicros)
            return [s.call.rawValue, s.condition.rawValue, "\(s.samples.count)"]
                + [s.micros.min(), s.percentile(50), s.percentile(99), s.micros.max()].map(format)
                + [verdict(s) ?? "", "\(over.slow)", "\(over.preempted)", "\(over.blocked)", "\(over.faulted)"]
                + [format(s.percentile(99, unpreempted: true))]
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 || column == 7 ? cell + pad : pad + cell
            }
            print("    " + cells.joined(separator: "  "))
        }
    }
}

/// One JSON object per line and series.
func printJSON(_ reports: [ServerReport]) {
    func string(_ value: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\""
    }
    func number(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "null" }
    for report in reports {
        for s in report.series {
            let over = s.count(over: goalMicros)
            let fields: [(String, String)] = [
                ("bench", "\"call\""), ("server", string(report.name)), ("cpu", string(cpuModel())),
                ("call", string(s.call.rawValue)), ("engine", string(s.condition.rawValue)), ("n", "\(s.micros.count)"),
                ("min_us", number(s.micros.min())), ("p50_us", number(s.percentile(50))),
                ("p99_us", number(s.percentile(99))), ("max_us", number(s.micros.max())),
                ("goal_p99_us", verdict(s) != nil ? number(goalMicros) : "null"),
                ("verdict", verdict(s).map(string) ?? "null"),
                ("over_goal", "\(over.slow)"),
                ("over_goal_preempted", "\(over.preempted)"), ("over_goal_blocked", "\(over.blocked)"),
                ("over_goal_faulted", "\(over.faulted)"),
                ("p99_unpreempted_us", number(s.percentile(99, unpreempted: true))),
            ]
            print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        }
    }
}

let options = parse()
var reports: [ServerReport] = []
var failed = false
for choice in options.servers {
    var server: PrivateSoundServer?
    let bench: CallBench
    do {
        let address: String
        switch choice {
        case .address(let given): address = given
        case .start(let kind):
            note("\(kind.rawValue): starting a private server")
            let started = try PrivateSoundServer(kind: kind)
            server = started
            address = started.address
        }
        bench = try CallBench(address: address, reps: options.reps, verbose: options.verbose)
    } catch {
        note("\(choice.label): cannot start: \(error)")
        server?.stop()
        failed = true
        continue
    }
    var report = ServerReport(choice: choice, name: bench.serverName)
    note("\(report.name): timing \(options.reps) calls of each kind, idle-corked, then running")
    do {
        report.series += try bench.measureIdleCorked()
        report.series += try bench.measureRunning()
    } catch {
        note("\(report.name): stopped early: \(error)")
        failed = true
    }
    bench.stop()
    server?.stop()
    reports.append(report)
}

if options.json { printJSON(reports) } else { printTable(reports, reps: options.reps) }
exit(failed ? 1 : 0)
