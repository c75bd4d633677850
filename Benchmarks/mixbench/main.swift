// mixbench: renders the mix-N workload (../shared/bench/mix-N.md) offline
// through the real mixer — real voices on the real bus graph, through the
// real render entry — and prints its figures. Release builds only:
//
//   swift build -c release --product mixbench
//   .build/release/mixbench --voices 64,256,1024,4096 --seconds 10 --block 512 --json [--shared-sources 16]
//
// Extra options: --quality linear|cubic|sinc, --kernels automatic|portable|avx2|avx512.
// Every line names the kernel set that mixed ("kernels").
//
// --3d adds, for every N, the 3D variant ("impl":"soundengine-3d") right
// after the plain run, and a ratio line: the same N voices, each on a moving
// emitter; every game frame (60 Hz = every 800 frames at 48 kHz) the control
// side computes each emitter's distance attenuation, equal-power pan and
// distance low-pass and sends setVolumeAndPan + setLowPass for every voice
// (2·N commands), with the low-pass on for all voices from the start. Its
// cpu_s is the render calls' thread CPU time only; control_cpu_s is the
// game-side updates (lock + command push), reported beside it.
//
// --effects (Effects.swift; docs/performance.md, "Bus effects") times the bus
// insert effects instead of mix-N: (a) each effect type, one instance on a
// bus carrying a stereo noise voice (48 kHz, quantum --block), at its
// defaults and with a parameter moving every quantum — the render thread's
// CPU with the effect less without it, % of one core; (b) the mix-N voices
// (--voices, default 256) plain and through a bus with a 6-band EQ and a
// compressor, each voice sending to an aux bus with a reverb — the cost
// added, % of the plain mix. --seconds of audio per configuration per round
// (default 10), --rounds rounds (default 7); best and median are printed,
// and a verdict on each goal (reverb < 2 % of a core, chain < 15 %). Exit
// 1 only when a measurement could not be made (a MISS is a figure):
//
//   .build/release/mixbench --effects [--voices 256] [--seconds 10] [--rounds 7] [--json]
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
    var threeD = false
    var effects = false
    var rounds = 7
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
        case "--3d": o.threeD = true
        case "--effects": o.effects = true
        case "--rounds":
            guard let r = Int(value()), r > 0 else { fail("--rounds needs a positive integer") }
            o.rounds = r
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
            print("usage: mixbench --voices N[,N…] [--seconds 10] [--block 512] [--json] [--shared-sources K] [--3d]")
            print("       mixbench --effects [--voices 256] [--seconds 10] [--rounds 7] [--block 512] [--json]")
            exit(0)
        default: fail("unknown argument '\(arguments[i])'")
        }
        i += 1
    }
    if o.effects && o.threeD { fail("--effects and --3d are separate runs") }
    if o.voices.isEmpty { o.voices = o.effects ? [256] : [64, 256, 1024, 4096] }
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
    /// 3D only: CPU time of the game-side updates (not in `cpu`).
    var controlCPU = 0.0
    /// 3D only: the most shared low-pass filters running at once (sampled
    /// each game frame), and the most voices filtered alone for want of one.
    var filters = 0
    var alone = 0
}

/// The 3D variant's emitters: voice i circles the listener at its own speed
/// while its distance swings between 1 and 10 m.
struct Emitters {
    let n: Int
    let referenceDistance = 2.0

    /// Volume (inverse distance, clamped to 1 inside the reference
    /// distance, times mix-N's 0.5), pan (equal power, from the azimuth) and
    /// low-pass cutoff (falling with distance) of voice `i` at time `t` s.
    func update(_ i: Int, at t: Double) -> (volume: Float, pan: Float, cutoff: Float) {
        let u = Double(i) / Double(n)
        let azimuth = 2 * Double.pi * (u + t * (0.1 + 0.2 * u))
        let distance = 5.5 + 4.5 * sin(2 * Double.pi * (0.3 * t + 7 * u))
        let attenuation = min(1, referenceDistance / distance)
        let cutoff = min(20_000, max(500, 24_000 * referenceDistance / distance))
        return (Float(0.5 * attenuation), Float(sin(azimuth)), Float(cutoff))
    }
}

/// The mix-N workload's mixer for N = `n` voices at 48 kHz with the
/// options' quantum, kernels and resampler, its sources loaded (one second
/// of noise per voice, or `--shared-sources` of them), nothing playing yet.
func mixNMixer(voices n: Int, _ o: Options) throws(SoundEngineError) -> (mixer: Mixer, sounds: [SoundID]) {
    let rate = 48_000
    let sourceCount = o.sharedSources.map { min($0, n) } ?? n
    let mixer = try Mixer(
        MixerConfiguration(
            sampleRate: rate, quantumFrames: o.block, maxVoices: n, maxBuses: 4, maxSounds: sourceCount,
            // The queue holds every command sent between two render quanta:
            // N starts, then 2·N updates per game frame (one game frame at
            // most between two 512-frame quanta here), with room for a second.
            commandQueueBytes: max(65_536, (4 * n + 64) * Mixer.commandSlotBytes), kernels: o.kernels))
    var sounds: [SoundID] = []
    for s in 0..<sourceCount {
        let audio = DecodedAudio(sampleRate: rate, channelCount: 1, samples: noise(seed: UInt64(s), frames: rate))
        sounds.append(try mixer.loadSound(audio, name: "noise \(s)", quality: o.quality))
    }
    return (mixer, sounds)
}

/// Voice `i` of mix-N's `n`: looping, gain 0.5, pitch 0.9…1.1 and pan
/// spread evenly over the stereo arc, both by `i`.
func mixNParameters(_ i: Int, of n: Int) -> VoiceParameters {
    let ratio = 0.9 + 0.2 * (Double(i) / Double(n))
    let theta = Double.pi / 2 * (Double(i) + 0.5) / Double(n)
    // The mixer's pan law maps pan p to θ = (p + 1)·π/4.
    return VoiceParameters(volume: 0.5, pan: Float(theta * 4 / Double.pi - 1), pitch: ratio, loop: true)
}

func run(voices n: Int, _ o: Options, threeD: Bool = false) throws(SoundEngineError) -> Result {
    let rate = 48_000
    let frames = rate * o.seconds
    let (mixer, sounds) = try mixNMixer(voices: n, o)
    let emitters = Emitters(n: n)
    var voices: [VoiceID] = []
    for i in 0..<n {
        var parameters = mixNParameters(i, of: n)
        if threeD {
            let e = emitters.update(i, at: 0)
            (parameters.volume, parameters.pan, parameters.lowPassHz) = (e.volume, e.pan, e.cutoff)
        }
        voices.append(try mixer.play(sounds[i % sounds.count], on: .master, parameters))
    }
    // The device buffer: pre-allocated and pre-faulted.
    let device = UnsafeMutablePointer<Float>.allocate(capacity: frames * 2)
    device.initialize(repeating: 0, count: frames * 2)
    defer { device.deallocate() }
    let entry = mixer.renderEntry

    let wall0 = seconds(CLOCK_MONOTONIC), process0 = processCPU(), cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID)
    var done = 0
    var renderCPU = 0.0, controlCPU = 0.0
    var filters = 0, alone = 0
    let gameFrame = rate / 60
    var nextGameFrame = gameFrame
    while done < frames {
        let count = min(o.block, frames - done)
        if threeD {
            // The game thread's frame: every emitter moved; measured apart
            // from the render calls.
            if done >= nextGameFrame {
                let c0 = seconds(CLOCK_THREAD_CPUTIME_ID)
                let t = Double(nextGameFrame) / Double(rate)
                for i in 0..<n {
                    let e = emitters.update(i, at: t)
                    try mixer.setVolumeAndPan(voices[i], volume: e.volume, pan: e.pan)
                    try mixer.setLowPass(voices[i], cutoffHz: e.cutoff)
                }
                nextGameFrame += gameFrame
                controlCPU += seconds(CLOCK_THREAD_CPUTIME_ID) - c0
                let statistics = mixer.statistics  // untimed
                filters = max(filters, statistics.sharedLowPassFilters)
                alone = max(alone, statistics.voicesFilteredAlone)
            }
            let r0 = seconds(CLOCK_THREAD_CPUTIME_ID)
            entry(UnsafeMutableRawPointer(device + 2 * done), frames: count)
            renderCPU += seconds(CLOCK_THREAD_CPUTIME_ID) - r0
        } else {
            entry(UnsafeMutableRawPointer(device + 2 * done), frames: count)
        }
        done += count
    }
    let cpu1 = seconds(CLOCK_THREAD_CPUTIME_ID), process1 = processCPU(), wall1 = seconds(CLOCK_MONOTONIC)
    if !threeD { renderCPU = cpu1 - cpu0 }

    var sum = 0.0
    for k in 0..<(frames * 2) { sum += Double(device[k]) * Double(device[k]) }
    return Result(
        n: n, frames: frames, cpu: renderCPU, processCPU: process1 - process0, wall: wall1 - wall0,
        rms: (sum / Double(frames * 2)).squareRoot(), kernels: mixer.kernelName, controlCPU: controlCPU,
        filters: filters, alone: alone)
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
if options.effects {
    do {
        exit(try runEffects(options) ? 0 : 1)
    } catch {
        printError("--effects: \(error)")
        exit(1)
    }
}
if !options.json {
    print("impl         n  frames block   cpu_s  proc_s  wall_s     rtf  voices/core    rms  expected  kernels")
}
var failed = false

/// Prints one result line; `extra` is appended to the JSON object.
func report(_ impl: String, _ r: Result, expected: Double, extra: String = "") {
    let rtf = Double(options.seconds) / r.cpu
    let perCore = Double(r.n) * Double(options.seconds) / r.cpu
    if options.json {
        var line = "{\"impl\":\"\(impl)\",\"n\":\(r.n),\"frames\":\(r.frames),\"block\":\(options.block),"
        line += "\"cpu_s\":\(format(r.cpu, 3)),\"proc_cpu_s\":\(format(r.processCPU, 3)),\"wall_s\":\(format(r.wall, 3)),"
        line += "\"rtf\":\(format(rtf, 1)),\"voices_per_core\":\(Int(perCore.rounded())),\"rms\":\(format(r.rms, 3)),"
        line += "\"resampler\":\"\(options.quality)\",\"kernels\":\"\(r.kernels)\""
        if let k = options.sharedSources { line += ",\"shared_sources\":\(k)" }
        print(line + extra + "}")
    } else {
        print(
            "\(impl) \(r.n) \(r.frames) \(options.block) \(format(r.cpu, 3)) \(format(r.processCPU, 3)) "
                + "\(format(r.wall, 3)) \(format(rtf, 1)) \(Int(perCore.rounded())) \(format(r.rms, 3)) "
                + "\(format(expected, 3)) \(r.kernels)\(extra)")
    }
}

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
    report("soundengine", r, expected: expected)
    guard options.threeD else { continue }
    let d: Result
    do {
        d = try run(voices: n, options, threeD: true)
    } catch {
        fail("3D, N = \(n): \(error)")
    }
    // Attenuated (≤ 0.5 gain), panned and low-passed: quieter than the plain
    // mix but not silent.
    if !d.rms.isFinite || d.rms <= expected * 0.05 || d.rms > expected * 1.01 {
        printError("verification FAILED for 3D N = \(n): rms \(d.rms), plain ≈ \(expected)")
        failed = true
    }
    let ratio = d.cpu / r.cpu
    report(
        "soundengine-3d", d, expected: expected,
        extra: options.json
            ? ",\"control_cpu_s\":\(format(d.controlCPU, 3)),\"cost_vs_plain\":\(format(ratio, 2)),"
                + "\"shared_filters_max\":\(d.filters),\"voices_filtered_alone_max\":\(d.alone)"
            : "  control_cpu_s \(format(d.controlCPU, 3))  cost ×\(format(ratio, 2)) of plain"
                + "  filters ≤ \(d.filters), alone ≤ \(d.alone)")
}
exit(failed ? 1 : 0)
