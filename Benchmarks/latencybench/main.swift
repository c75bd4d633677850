// latencybench: plays N voices on a real PulseAudio server for S seconds while
// other processes load every CPU, and prints the buffer attributes the server
// granted, the latency it reports, and the underflows it signalled.
//
//   Scripts/sound-server run -- swift run -c release latencybench --voices 256 --seconds 60
//
// Build with -c release. Needs a server: --server ADDRESS, or PULSE_SERVER
// (Scripts/sound-server provides a private one with a null sink).
import Foundation
import Glibc
import SoundEngine

struct Options {
    var voices = 256
    var seconds = 60.0
    var profile = "default"
    var load = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    var server: String? = ProcessInfo.processInfo.environment["PULSE_SERVER"]
    var json = false
    var realtime = true
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("latencybench: \(message)\n".utf8))
    exit(2)
}

func parse() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else { fail("\(flag) needs a value") }
        return v
    }
    func number(_ flag: String, minimum: Double) -> Double {
        guard let v = Double(value(flag)), v.isFinite, v >= minimum else { fail("\(flag): a number ≥ \(minimum)") }
        return v
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--voices": o.voices = Int(number(arg, minimum: 1))
        case "--seconds": o.seconds = number(arg, minimum: 0.1)
        case "--profile":
            o.profile = value(arg)
            guard ["default", "low"].contains(o.profile) else { fail("--profile: default or low") }
        case "--load": o.load = Int(number(arg, minimum: 0))
        case "--server": o.server = value(arg)
        case "--json": o.json = true
        case "--no-realtime": o.realtime = false
        case "--burn": while true {}  // a CPU-load child: spin until killed
        default:
            fail("unknown argument \(arg)\nusage: latencybench [--voices N] [--seconds S] [--profile default|low] [--load N] [--server ADDRESS] [--json] [--no-realtime]")
        }
    }
    guard o.server != nil else { fail("no server: pass --server or run under Scripts/sound-server run --") }
    return o
}

let options = parse()

/// 16 one-second sources shared by the voices, as a game shares its sounds.
func sources() -> [SoundEngine.DecodedAudio] {
    (0..<16).map { i in
        let f = 110.0 * pow(2, Double(i) / 4)
        return SoundEngine.DecodedAudio(sampleRate: 48_000, channelCount: 1, samples: (0..<48_000).map { n in
            Float(sin(2 * Double.pi * f * Double(n) / 48_000))
        })
    }
}

var settings = SoundEngine.defaultInitSettings()
settings.maxVoices = max(options.voices, 1)
settings.samplesPerFrame = options.profile == "low" ? 256 : 512
var platform = SoundEngine.defaultPlatformInitSettings()
platform.applicationName = "latencybench"
platform.serverAddress = options.server
platform.latency = options.profile == "low" ? .low : .default
platform.realtimePriority = options.realtime ? 4 : nil

do {
    try SoundEngine.initialize(settings, platform)
} catch {
    fail("cannot start the engine: \(error)")
}
let sounds = try sources().enumerated().map { try SoundEngine.loadSound($1, name: "source \($0)") }
for i in 0..<options.voices {
    let parameters = SoundEngine.PlayParameters(
        volume: 1 / Float(options.voices), pan: Float(i % 9) / 4 - 1, pitch: 0.9 + 0.2 * Double(i) / Double(options.voices),
        loop: true)
    try SoundEngine.play(sounds[i % sounds.count], parameters)
}

// Load: one spinning process per requested CPU.
var burners: [pid_t] = []
for _ in 0..<options.load {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments[0]), strdup("--burn"), nil]
    if posix_spawn(&pid, CommandLine.arguments[0], nil, nil, argv, environ) == 0 { burners.append(pid) }
    argv.forEach { free($0) }
}

let start = try SoundEngine.statistics
var latencies: [Double] = []
let deadline = Date().addingTimeInterval(options.seconds)
while Date() < deadline {
    Thread.sleep(forTimeInterval: 0.1)
    if let l = try SoundEngine.outputLatency {
        latencies.append(Double(l.components.seconds) * 1000 + Double(l.components.attoseconds) / 1e15)
    }
}
for pid in burners {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}
let end = try SoundEngine.statistics
let granted = try SoundEngine.outputStream
SoundEngine.terminate()

latencies.sort()
func pct(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
let mean = latencies.isEmpty ? Double.nan : latencies.reduce(0, +) / Double(latencies.count)
let requested = platform.latency
let underflows = end.underflows - start.underflows
let fields: [(String, String)] = [
    ("bench", "\"latency\""), ("voices", "\(options.voices)"), ("seconds", "\(options.seconds)"),
    ("profile", "\"\(options.profile)\""), ("server", "\"\(granted.serverName) \(granted.serverVersion)\""),
    ("load_processes", "\(burners.count)"), ("realtime_priority", granted.realtimePriority.map { "\($0)" } ?? "null"),
    ("quantum", "\(settings.samplesPerFrame)"),
    ("requested", "{\"tlength\":\(requested.targetFrames),\"minreq\":\(requested.requestFrames)}"),
    ("granted", "{\"tlength\":\(granted.buffer.targetLength),\"minreq\":\(granted.buffer.minimumRequest),\"prebuf\":\(granted.buffer.prebuffer),\"maxlength\":\(granted.buffer.maxLength)}"),
    ("latency_ms", String(format: "{\"min\":%.2f,\"mean\":%.2f,\"p50\":%.2f,\"p99\":%.2f,\"max\":%.2f,\"samples\":%d}",
                          latencies.first ?? .nan, mean, pct(latencies, 0.5), pct(latencies, 0.99), latencies.last ?? .nan, latencies.count)),
    ("underflows", "\(underflows)"),
    ("render_calls", "\(end.output.renderCalls - start.output.renderCalls)"),
    ("frames", "\(end.framesRendered - start.framesRendered)"),
]
if options.json {
    print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
} else {
    for (k, v) in fields { print("\(k.padding(toLength: 18, withPad: " ", startingAt: 0)) \(v)") }
}
exit(underflows == 0 ? 0 : 1)
