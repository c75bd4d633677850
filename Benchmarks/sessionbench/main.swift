// sessionbench: how fast the live audio session reacts to the server, on
// real private servers (issue 7, "Measured, not timed").
//
// For each server kind it starts a private server (Scripts/sound-server,
// through SoundServerSupport's PrivateSoundServer), initialises the engine on
// it in the `playback` category playing a looping 440 Hz tone, and times,
// over N repetitions each, with the monotonic clock:
//
//   1. phone stream → interruption began   (target p99 ≤ 50 ms)
//      t0 just before `pacat --property=media.role=phone` is spawned, t1 when
//      the interruption callback starts; split at the server's announcement
//      of the new sink input (`pactl subscribe`). Then the call ends and the
//      engine must resume before the next repetition.
//   2. device plugged → route change       (target p99 ≤ 25 ms, issue 18)
//      t0 just before `pactl load-module module-null-sink` of a USB-headphone
//      sink, t1 when the route-change callback (newDeviceAvailable) starts;
//      split at the server's first event about the device. The unplug
//      (oldDeviceUnavailable) is timed as well. A plug or unplug that
//      brought any other route change than its one notification (once the
//      server has been quiet for 150 ms) counts as failed.
//   3. server back → tone on the monitor    (target p99 ≤ 1 s)
//      kill -9 of the server, then a restart; t0 the first successful
//      connect() to its socket, t1 the end of the first 10 ms window of a
//      `parec --latency-msec=20` recording of speaker.monitor that holds the
//      tone (the recorder starts when the harness reports the server ready).
//
// Prints min/p50/p99/max (nearest rank) per (server, interval) with the
// target and PASS/MISS on p99; progress goes to stderr. Build in release:
//
//   swift build -c release --product sessionbench
//   .build/release/sessionbench [--server pulseaudio|pipewire|both] [--reps N] [--json]
//                               [--measure phone,route,restart] [--verbose]
//
// --measure runs only some of the three; --verbose prints every
// repetition's figures on stderr (to find where an outlier came from).
// Needs pulseaudio + pulseaudio-utils, and for pipewire pipewire,
// pipewire-pulse, wireplumber and dbus (.ci/run installs them). It starts and
// stops its own servers; PULSE_SERVER is not used. Exit status: 0 when every
// repetition saw its event (a target MISS still exits 0: the figures are the
// output), 1 when some did not or a server could not be driven, 2 for bad
// arguments. Results: docs/performance.md, "Audio session latency (issue 7)".
import Foundation
import SoundServerSupport

struct Options {
    var kinds: [PrivateSoundServer.Kind] = [.pulseaudio, .pipewire]
    var reps = 50
    var json = false
    var measurements: Set<Measurement> = Set(Measurement.allCases)
    var verbose = false
}

enum Measurement: String, CaseIterable {
    case phone, route, restart
}

func usage(_ message: String) -> Never {
    note("\(message)\nusage: sessionbench [--server pulseaudio|pipewire|both] [--reps N] [--json] [--measure phone,route,restart] [--verbose]")
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
            o.kinds = kinds
        case "--reps":
            guard let n = Int(value(arg)), n >= 1 else { usage("--reps: a whole number ≥ 1") }
            o.reps = n
        case "--json": o.json = true
        case "--measure":
            let names = value(arg).split(separator: ",").map(String.init)
            let chosen = names.compactMap(Measurement.init(rawValue:))
            guard !chosen.isEmpty, chosen.count == names.count else { usage("--measure: a list of phone, route, restart") }
            o.measurements = Set(chosen)
        case "--verbose": o.verbose = true
        case "--help", "-h": usage("times the audio session's reactions to the server")
        default: usage("unknown argument \(arg)")
        }
    }
    return o
}

let options = parse()
var reports: [ServerReport] = []
var aborted = false
for kind in options.kinds {
    note("\(kind.rawValue): starting a private server and the engine")
    let bench: SessionBench
    do {
        bench = try SessionBench(kind: kind, reps: options.reps, verbose: options.verbose)
    } catch {
        note("\(kind.rawValue): cannot start: \(error)")
        aborted = true
        continue
    }
    var report = ServerReport(kind: kind.rawValue, version: bench.serverVersion, series: [])
    do {
        if options.measurements.contains(.phone) { report.series += try bench.measurePhoneCall() }
        if options.measurements.contains(.route) { report.series += try bench.measureRouteChange() }
        if options.measurements.contains(.restart) { report.series += try bench.measureRestart() }
    } catch {
        note("\(kind.rawValue): stopped early: \(error)")
        aborted = true
    }
    bench.stop()
    reports.append(report)
}

if options.json { printJSON(reports) } else { printTable(reports, reps: options.reps) }
let failed = reports.contains { $0.series.contains { $0.failures > 0 } }
exit(aborted || failed ? 1 : 0)
