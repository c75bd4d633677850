// mixbench: renders the mix-N workload (../shared/bench/mix-N.md) offline
// through the real mixer — real voices on the real bus graph, through the
// real render entry — and prints its figures. Release builds only:
//
//   swift build -c release --product mixbench
//   .build/release/mixbench --voices 64,256,1024,4096 --seconds 10 --block 512 --json [--shared-sources 16]
//
// Extra options: --quality linear|cubic|sinc, --kernels automatic|portable|avx2|avx512.
// Every line names the kernel set that mixed ("kernels").
import SoundCore
import SoundMixer

#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var voices: [Int] = []
    var seconds = 10
    var block = 512
    var json = false
    var sharedSources: Int?
    var quality = ResamplerQuality.linear
    var kernels = KernelSelection.automatic
}

func printError(_ message: String) {
    let line = "mixbench: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

func fail(_ message: String) -> Never {
    printError(message)
    exit(2)
}

func parse(_ arguments: [String]) -> Options {
    var o = Options()
    var i = 0
    func value() -> String {
        i += 1
        guard i < arguments.count else { fail("\(arguments[i - 1]) needs a value") }
        return arguments[i]
    }
    while i < arguments.count {
        switch arguments[i] {
        case "--voices":
            for part in value().split(separator: ",") {
                guard let n = Int(part), n > 0 else { fail("bad voice count '\(part)'") }
                o.voices.append(n)
            }
        case "--seconds":
            guard let s = Int(value()), s > 0 else { fail("--seconds needs a positive integer") }
            o.seconds = s
        case "--block":
            guard let b = Int(value()), b > 0 else { fail("--block needs a positive integer") }
            o.block = b
        case "--json": o.json = true
        case "--shared-sources":
            guard let k = Int(value()), k > 0 else { fail("--shared-sources needs a positive integer") }
            o.sharedSources = k
        case "--quality":
            guard let q = ResamplerQuality.allCases.first(where: { $0.description == arguments[i + 1] }) else {
                fail("--quality is linear, cubic or sinc")
            }
            _ = value()
            o.quality = q
        case "--kernels":
            let name = value()
            guard let k = KernelSelection.allCases.first(where: { "\($0)" == name }) else {
                fail("--kernels is automatic, portable, avx2 or avx512")
            }
            guard k.isSupported else { fail("this CPU cannot run the \(name) kernels") }
            o.kernels = k
        case "--help", "-h":
            print("usage: mixbench --voices N[,N…] [--seconds 10] [--block 512] [--json] [--shared-sources K]")
            exit(0)
        default: fail("unknown argument '\(arguments[i])'")
        }
        i += 1
    }
    if o.voices.isEmpty { o.voices = [64, 256, 1024, 4096] }
    return o
}

/// The workload's noise: splitmix64 seeded with `seed`, one call per sample.
func noise(seed: UInt64, frames: Int) -> [Float] {
    var state = seed
    return (0..<frames).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Float(Int32(truncatingIfNeeded: Int64(z >> 40)) - 8_388_608) / 8_388_608
    }
}

func seconds(_ clock: clockid_t) -> Double {
    var t = timespec()
    clock_gettime(clock, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    return user + system
}

struct Result {
    var n: Int
    var frames: Int
    var cpu: Double
    var processCPU: Double
    var wall: Double
    var rms: Double
    var kernels: String
}

func run(voices n: Int, _ o: Options) throws(SoundEngineError) -> Result {
    let rate = 48_000
    let frames = rate * o.seconds
    let sourceCount = o.sharedSources.map { min($0, n) } ?? n
    let mixer = try Mixer(
        MixerConfiguration(
            sampleRate: rate, quantumFrames: o.block, maxVoices: n, maxBuses: 4, maxSounds: sourceCount,
            commandQueueBytes: max(65_536, (n + 64) * Mixer.commandSlotBytes), kernels: o.kernels))
    var sounds: [SoundID] = []
    for s in 0..<sourceCount {
        let audio = DecodedAudio(sampleRate: rate, channelCount: 1, samples: noise(seed: UInt64(s), frames: rate))
        sounds.append(try mixer.loadSound(audio, name: "noise \(s)", quality: o.quality))
    }
    for i in 0..<n {
        let ratio = 0.9 + 0.2 * (Double(i) / Double(n))
        let theta = Double.pi / 2 * (Double(i) + 0.5) / Double(n)
        // The mixer's pan law maps pan p to θ = (p + 1)·π/4.
        let pan = Float(theta * 4 / Double.pi - 1)
        try mixer.play(
            sounds[i % sourceCount], on: .master,
            VoiceParameters(volume: 0.5, pan: pan, pitch: ratio, loop: true))
    }
    // The device buffer: pre-allocated and pre-faulted.
    let device = UnsafeMutablePointer<Float>.allocate(capacity: frames * 2)
    device.initialize(repeating: 0, count: frames * 2)
    defer { device.deallocate() }
    let entry = mixer.renderEntry

    let wall0 = seconds(CLOCK_MONOTONIC), process0 = processCPU(), cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID)
    var done = 0
    while done < frames {
        let count = min(o.block, frames - done)
        entry(UnsafeMutableRawPointer(device + 2 * done), frames: count)
        done += count
    }
    let cpu1 = seconds(CLOCK_THREAD_CPUTIME_ID), process1 = processCPU(), wall1 = seconds(CLOCK_MONOTONIC)

    var sum = 0.0
    for k in 0..<(frames * 2) { sum += Double(device[k]) * Double(device[k]) }
    return Result(
        n: n, frames: frames, cpu: cpu1 - cpu0, processCPU: process1 - process0, wall: wall1 - wall0,
        rms: (sum / Double(frames * 2)).squareRoot(), kernels: mixer.kernelName)
}

/// `x` with `digits` decimals (x ≥ 0).
func format(_ x: Double, _ digits: Int) -> String {
    var scale = 1
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((x * Double(scale)).rounded())
    let fraction = String(scaled % scale)
    let padded = String(repeating: "0", count: digits - fraction.count) + fraction
    return digits == 0 ? "\(scaled)" : "\(scaled / scale).\(padded)"
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
if !options.json {
    print("impl         n  frames block   cpu_s  proc_s  wall_s     rtf  voices/core    rms  expected  kernels")
}
var failed = false
for n in options.voices {
    let r: Result
    do {
        r = try run(voices: n, options)
    } catch {
        fail("N = \(n): \(error)")
    }
    let expected = Double(n).squareRoot() / 6
    // Linear interpolation keeps 2/3 of white noise's power: rms ≈ √N / 6,
    // within ~0.5 % for independent sources. Shared sources start correlated
    // (same data, nearly the same position), so they get a looser bound.
    // Cubic and sinc keep more of the power, up to all of it (√(N / 24)).
    let ok: Bool
    if options.quality == .linear {
        ok = abs(r.rms / expected - 1) <= (options.sharedSources == nil ? 0.01 : 0.05)
    } else {
        ok = r.rms >= expected * 0.95 && r.rms <= (Double(n) / 24).squareRoot() * 1.05
    }
    if !r.rms.isFinite || r.rms == 0 || !ok {
        printError("verification FAILED for N = \(n): rms \(r.rms), expected ≈ \(expected)")
        failed = true
    }
    let rtf = Double(options.seconds) / r.cpu
    let perCore = Double(n) * Double(options.seconds) / r.cpu
    if options.json {
        var line = "{\"impl\":\"soundengine\",\"n\":\(n),\"frames\":\(r.frames),\"block\":\(options.block),"
        line += "\"cpu_s\":\(format(r.cpu, 3)),\"proc_cpu_s\":\(format(r.processCPU, 3)),\"wall_s\":\(format(r.wall, 3)),"
        line += "\"rtf\":\(format(rtf, 1)),\"voices_per_core\":\(Int(perCore.rounded())),\"rms\":\(format(r.rms, 3)),"
        line += "\"resampler\":\"\(options.quality)\",\"kernels\":\"\(r.kernels)\""
        if let k = options.sharedSources { line += ",\"shared_sources\":\(k)" }
        print(line + "}")
    } else {
        print(
            "soundengine \(n) \(r.frames) \(options.block) \(format(r.cpu, 3)) \(format(r.processCPU, 3)) "
                + "\(format(r.wall, 3)) \(format(rtf, 1)) \(Int(perCore.rounded())) \(format(r.rms, 3)) "
                + "\(format(expected, 3)) \(r.kernels)")
    }
}
exit(failed ? 1 : 0)
