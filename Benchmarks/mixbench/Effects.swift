// mixbench --effects: what the bus insert effects cost (issue 17,
// "Benchmarks"; docs/performance.md, "Bus effects").
//
// (a) Per effect type, one instance in insert slot 0 of a bus carrying one
//     looping stereo noise voice at full scale (48 kHz, the options'
//     quantum): the effect's cost is the render calls' thread CPU time with
//     it less the same mixer's without it, per second of audio, as % of one
//     core. Each effect at its defaults, and with one parameter given a new
//     target every quantum (`setBusEffectParameter`, ramped over that
//     quantum, so it never settles).
// (b) The mix-N voices (--voices, default 256) plain, then on a bus with a
//     6-band EQ and a compressor, then each voice also sending to an aux
//     bus, then with a reverb on that aux bus (the whole chain): the cost
//     added, as % of the plain mix.
//
// Every configuration has its own mixer. A round renders each for
// --seconds, in turns of about a second each (so the machine's load falls
// on all of them alike), timing every render call alone with the thread's
// CPU clock; the control side's calls between quanta are not timed.
// Reported: the best (the fastest round of each, subtracted) and the median
// (of each round's difference) over --rounds rounds.
import SoundCore
import SoundEffects
import SoundMixer

#if canImport(Glibc)
import Glibc
#endif

/// One configuration being timed: a mixer playing, and the control side's
/// work before each of its quanta.
final class Subject {
    let label: String
    let mixer: Mixer
    /// Untimed, before quantum `q` (counted from 0): a parameter moving, or nothing.
    let beforeQuantum: (_ q: Int) throws(SoundEngineError) -> Void
    /// Thread CPU seconds of the render calls, per round.
    var cpu: [Double] = []
    /// Quanta rendered so far (timed or not).
    var quanta = 0
    /// Sum of squares and count of the timed output samples, for the RMS.
    var sumSquares = 0.0
    var samples = 0
    /// A non-finite output sample was seen.
    var nonFinite = false

    init(
        _ label: String, _ mixer: Mixer,
        beforeQuantum: @escaping (_ q: Int) throws(SoundEngineError) -> Void = { _ throws(SoundEngineError) in }
    ) {
        self.label = label
        self.mixer = mixer
        self.beforeQuantum = beforeQuantum
    }

    var rms: Double { samples > 0 ? (sumSquares / Double(samples)).squareRoot() : 0 }
    /// Whether the output is usable: finite and not silent.
    var outputOK: Bool { !nonFinite && rms.isFinite && rms > 0 }

    /// Renders `count` quanta of `block` frames into `device`, timing each
    /// render call if `timed` (returns their thread CPU seconds).
    func render(
        _ count: Int, block: Int, into device: UnsafeMutablePointer<Float>, timed: Bool
    ) throws(SoundEngineError) -> Double {
        let entry = mixer.renderEntry
        let channels = 2
        var cpu = 0.0
        for _ in 0..<count {
            try beforeQuantum(quanta)
            let t0 = seconds(CLOCK_THREAD_CPUTIME_ID)
            entry(UnsafeMutableRawPointer(device), frames: block)
            cpu += seconds(CLOCK_THREAD_CPUTIME_ID) - t0
            quanta += 1
            guard timed else { continue }
            for k in 0..<(block * channels) {
                let x = Double(device[k])
                if !x.isFinite { nonFinite = true }
                sumSquares += x * x
            }
            samples += block * channels
        }
        return cpu
    }
}

/// The effects' rate: the mixers render at 48 kHz.
let effectRate = 48_000

/// Renders `subjects` for `rounds` rounds of `quantaPerRound` quanta each,
/// in turns of `turn` quanta, the order of the subjects rotating each round;
/// one untimed turn each first (caches, the reverb's lines filling).
func measure(
    _ subjects: [Subject], rounds: Int, quantaPerRound: Int, turn: Int, block: Int
) throws(SoundEngineError) {
    let device = UnsafeMutablePointer<Float>.allocate(capacity: block * 2)
    device.initialize(repeating: 0, count: block * 2)
    defer { device.deallocate() }
    for s in subjects { _ = try s.render(turn, block: block, into: device, timed: false) }
    for round in 0..<rounds {
        var cpu = [Double](repeating: 0, count: subjects.count)
        var done = 0
        while done < quantaPerRound {
            let count = min(turn, quantaPerRound - done)
            for k in 0..<subjects.count {
                let i = (k + round) % subjects.count
                cpu[i] += try subjects[i].render(count, block: block, into: device, timed: true)
            }
            done += count
        }
        for (s, c) in zip(subjects, cpu) { s.cpu.append(c) }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let m = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
}

/// `x` with `digits` decimals, negative values too (a cost below the
/// noise); `null` if it is not finite.
func signed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "null" }
    return x < 0 ? "-" + format(-x, digits) : format(x, digits)
}

/// `s` padded with spaces to `width` characters (on the right, or on the left if `right`).
func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return right ? fill + s : s + fill
}

// MARK: - (a) One instance of each effect

/// One row of part (a): an effect, its parameters, and what moves.
struct EffectCase {
    let label: String
    let kind: EffectKind
    let setting: String
    let parameters: EffectParameters
    /// The parameter given a new target every quantum (its index, name,
    /// and range swept as a raised cosine over ~2 s), or nil.
    var moving: (index: Int, name: String, low: Float, high: Float)?
}

/// A 6-band EQ with every band on (a shelf at each end, four peaks, each
/// at a gain other than 0 dB, so none is skipped as flat).
func sixBandEQ() throws(EffectParameterError) -> EffectParameters {
    try .parametricEQ(bands: [
        EQBand(.lowShelf, frequency: 80, gain: 3), EQBand(.peak, frequency: 200, gain: -2, q: 1),
        EQBand(.peak, frequency: 500, gain: 2, q: 1), EQBand(.peak, frequency: 1250, gain: -3, q: 1),
        EQBand(.peak, frequency: 3150, gain: 2, q: 1), EQBand(.highShelf, frequency: 8000, gain: -3),
    ])
}

func effectCases() throws(EffectParameterError) -> [EffectCase] {
    let eq = try sixBandEQ()
    let defaults = { (kind: EffectKind) in EffectParameters.defaults(for: kind) }
    return [
        EffectCase(
            label: "parametricEQ, defaults (flat)", kind: .parametricEQ, setting: "defaults",
            parameters: defaults(.parametricEQ)),
        EffectCase(label: "parametricEQ, 6 bands on", kind: .parametricEQ, setting: "6 bands", parameters: eq),
        EffectCase(
            label: "parametricEQ, 6 bands, band4Frequency moving", kind: .parametricEQ, setting: "6 bands",
            parameters: eq, moving: (EffectParameters.EQ.frequency(band: 3), "band4Frequency", 800, 2000)),
        EffectCase(label: "compressor", kind: .compressor, setting: "defaults", parameters: defaults(.compressor)),
        EffectCase(
            label: "compressor, threshold moving", kind: .compressor, setting: "defaults",
            parameters: defaults(.compressor), moving: (EffectParameters.Compressor.threshold, "threshold", -30, -10)),
        EffectCase(label: "limiter", kind: .limiter, setting: "defaults", parameters: defaults(.limiter)),
        EffectCase(
            label: "limiter, ceiling moving", kind: .limiter, setting: "defaults", parameters: defaults(.limiter),
            moving: (EffectParameters.Limiter.ceiling, "ceiling", -6, -1)),
        EffectCase(label: "delay", kind: .delay, setting: "defaults", parameters: defaults(.delay)),
        EffectCase(
            label: "delay, time moving", kind: .delay, setting: "defaults", parameters: defaults(.delay),
            moving: (EffectParameters.Delay.time, "time", 200, 300)),
        EffectCase(label: "reverb", kind: .reverb, setting: "defaults", parameters: defaults(.reverb)),
        EffectCase(
            label: "reverb, rt60 moving", kind: .reverb, setting: "defaults", parameters: defaults(.reverb),
            moving: (EffectParameters.Reverb.rt60, "rt60", 1, 3)),
        EffectCase(
            label: "reverb, roomSize moving", kind: .reverb, setting: "defaults", parameters: defaults(.reverb),
            moving: (EffectParameters.Reverb.roomSize, "roomSize", 0.3, 0.7)),
    ]
}

/// A mixer with one bus under the master, one looping stereo noise voice at
/// full scale on it, and `effect` (if any) in the bus's slot 0.
func singleEffectMixer(
    _ o: Options, _ effect: (kind: EffectKind, parameters: EffectParameters)?
) throws(SoundEngineError) -> (Mixer, BusID) {
    let mixer = try Mixer(
        MixerConfiguration(
            sampleRate: effectRate, quantumFrames: o.block, maxVoices: 1, maxBuses: 2, maxSounds: 1,
            kernels: o.kernels))
    // Two seconds of independent noise per side, interleaved.
    let left = noise(seed: 1001, frames: 2 * effectRate), right = noise(seed: 1002, frames: 2 * effectRate)
    var samples = [Float](repeating: 0, count: 4 * effectRate)
    for j in 0..<(2 * effectRate) { (samples[2 * j], samples[2 * j + 1]) = (left[j], right[j]) }
    let sound = try mixer.loadSound(
        DecodedAudio(sampleRate: effectRate, channelCount: 2, samples: samples), name: "stereo noise",
        quality: o.quality)
    let bus = try mixer.createBus(name: "effect")
    try mixer.setBusEffect(bus, index: 0, effect)
    _ = try mixer.play(sound, on: bus, VoiceParameters(loop: true))
    return (mixer, bus)
}

/// The value a moving parameter is sent before quantum `q`: a raised cosine
/// from `low` to `high` and back over about two seconds.
func sweep(_ q: Int, block: Int, low: Float, high: Float) -> Float {
    let period = Double(2 * effectRate) / Double(block)
    let phase = (1 - cos(2 * Double.pi * Double(q) / period)) / 2
    return low + (high - low) * Float(phase)
}

// MARK: - (b) The mix through a chain

enum Chain: CaseIterable {
    case plain, busEffects, sends, reverbSend

    var label: String {
        switch self {
        case .plain: "plain (on the master)"
        case .busEffects: "on a bus with EQ + compressor"
        case .sends: "  + a send each to an aux bus"
        case .reverbSend: "  + a reverb on the aux (the chain)"
        }
    }

    var key: String {
        switch self {
        case .plain: "plain"
        case .busEffects: "eq+compressor"
        case .sends: "eq+compressor+send"
        case .reverbSend: "eq+compressor+reverb send"
        }
    }
}

/// The mix-N voices of `n` through `chain`: on a bus with the 6-band EQ and
/// a compressor at its defaults, each voice sending 0.3 to an aux bus with
/// a reverb at its defaults but all wet (wet 1, dry 0), as a reverb aux is set.
func chainMixer(voices n: Int, _ o: Options, _ chain: Chain) throws(SoundEngineError) -> Mixer {
    let (mixer, sounds) = try mixNMixer(voices: n, o)
    var bus = BusID.master
    var sends: [VoiceSend] = []
    if chain != .plain {
        bus = try mixer.createBus(name: "sfx")
        try mixer.setBusEffect(bus, index: 0, (.parametricEQ, try checked { () throws(EffectParameterError) in try sixBandEQ() }))
        try mixer.setBusEffect(bus, index: 1, (.compressor, .defaults(for: .compressor)))
    }
    if chain == .sends || chain == .reverbSend {
        let aux = try mixer.createBus(name: "reverb")
        sends = [VoiceSend(bus: aux, gain: 0.3)]
        if chain == .reverbSend {
            try mixer.setBusEffect(aux, index: 0, (.reverb, try checked { () throws(EffectParameterError) in try .reverb(wet: 1, dry: 0) }))
        }
    }
    for i in 0..<n {
        var parameters = mixNParameters(i, of: n)
        parameters.sends = sends
        _ = try mixer.play(sounds[i % sounds.count], on: bus, parameters)
    }
    return mixer
}

/// `make()`'s result, or its parameter error as the mixer's `invalidParameter`.
func checked<T>(_ make: () throws(EffectParameterError) -> T) throws(SoundEngineError) -> T {
    do throws(EffectParameterError) {
        return try make()
    } catch {
        throw .invalidParameter(error.description)
    }
}

// MARK: - The run

/// Runs parts (a) and (b), prints their rows and the goals' verdicts.
/// Returns false when a measurement could not be made (an output not
/// finite, silent, or off mix-N's expected level).
func runEffects(_ o: Options) throws(SoundEngineError) -> Bool {
    let quantaPerSecond = (effectRate + o.block - 1) / o.block
    let quantaPerRound = quantaPerSecond * o.seconds
    let audioSeconds = Double(quantaPerRound * o.block) / Double(effectRate)
    let percent = { (cpu: Double) in cpu / audioSeconds * 100 }
    var ok = true

    // (a)
    let cases = try checked { () throws(EffectParameterError) in try effectCases() }
    let (baselineMixer, _) = try singleEffectMixer(o, nil)
    let baseline = Subject("(baseline: the stereo voice, no effect)", baselineMixer)
    var subjects = [baseline]
    for c in cases {
        let (mixer, bus) = try singleEffectMixer(o, (c.kind, c.parameters))
        guard let moving = c.moving else {
            subjects.append(Subject(c.label, mixer))
            continue
        }
        let block = o.block
        subjects.append(
            Subject(c.label, mixer) { q throws(SoundEngineError) in
                try mixer.setBusEffectParameter(
                    bus, index: 0, parameter: moving.index, value: sweep(q, block: block, low: moving.low, high: moving.high))
            })
    }
    try measure(subjects, rounds: o.rounds, quantaPerRound: quantaPerRound, turn: quantaPerSecond, block: o.block)
    let kernels = baselineMixer.kernelName
    let quantumMicroseconds = Double(o.block) / Double(effectRate) * 1e6
    if !o.json {
        print("Bus effects, one instance on a bus carrying a stereo signal: 48 kHz, quantum \(o.block), kernels \(kernels);")
        print("cost = render CPU with it - without, per second of audio, % of one core; \(o.rounds) rounds x \(o.seconds) s")
        print(pad("effect", 46) + pad("best %", 9, right: true) + pad("median %", 10, right: true) + pad("µs/quantum", 12, right: true))
        print(
            pad(baseline.label, 46) + pad(format(percent(baseline.cpu.min()!), 3), 9, right: true)
                + pad(format(percent(median(baseline.cpu)), 3), 10, right: true))
    }
    var worstReverb = 0.0
    for (c, s) in zip(cases, subjects.dropFirst()) {
        let best = percent(s.cpu.min()! - baseline.cpu.min()!)
        let med = percent(median(zip(s.cpu, baseline.cpu).map { $0 - $1 }))
        if c.kind == .reverb { worstReverb = max(worstReverb, med) }
        if !s.outputOK {
            printError("\(c.label): output rms \(s.rms), not finite or silent")
            ok = false
        }
        if o.json {
            var line = "{\"impl\":\"soundengine-effect\",\"effect\":\"\(c.kind.name)\",\"setting\":\"\(c.setting)\","
            line += "\"moving\":" + (c.moving.map { "\"\($0.name)\"" } ?? "null") + ","
            line += "\"rate\":\(effectRate),\"channels\":2,\"block\":\(o.block),\"rounds\":\(o.rounds),\"seconds\":\(o.seconds),"
            line += "\"cpu_percent_best\":\(signed(best, 3)),\"cpu_percent_median\":\(signed(med, 3)),"
            line += "\"baseline_percent_median\":\(format(percent(median(baseline.cpu)), 3)),"
            line += "\"rms\":\(format(s.rms, 3)),\"kernels\":\"\(kernels)\"}"
            print(line)
        } else {
            print(
                pad(c.label, 46) + pad(signed(best, 3), 9, right: true) + pad(signed(med, 3), 10, right: true)
                    + pad(signed(med / 100 * quantumMicroseconds, 1), 12, right: true))
        }
    }
    let reverbMet = worstReverb < 2
    printGoal("reverb instance", "< 2 % of one core", "worst reverb row's median \(signed(worstReverb, 3)) %", reverbMet, o)

    // (b)
    for n in o.voices {
        var chains: [Subject] = []
        for chain in Chain.allCases { chains.append(Subject(chain.label, try chainMixer(voices: n, o, chain))) }
        try measure(chains, rounds: o.rounds, quantaPerRound: quantaPerRound, turn: quantaPerSecond, block: o.block)
        let plain = chains[0]
        // Linear interpolation keeps 2/3 of white noise's power: rms ≈ √N / 6 (see main.swift).
        let expected = Double(n).squareRoot() / 6
        if o.quality == .linear && o.sharedSources == nil && abs(plain.rms / expected - 1) > 0.01 {
            printError("verification FAILED for the plain \(n) voices: rms \(plain.rms), expected ≈ \(expected)")
            ok = false
        }
        if !o.json {
            print("")
            print("\(n) mix-N voices through a bus chain; \(o.rounds) rounds x \(o.seconds) s")
            print(
                pad("mix", 40) + pad("best %core", 11, right: true) + pad("median %core", 13, right: true)
                    + pad("added best %", 13, right: true) + pad("added median %", 15, right: true))
        }
        var chainAdded = 0.0
        for (chain, s) in zip(Chain.allCases, chains) {
            let added = (s.cpu.min()! / plain.cpu.min()! - 1) * 100
            let addedMedian = median(zip(s.cpu, plain.cpu).map { ($0 / $1 - 1) * 100 })
            if chain == .reverbSend { chainAdded = addedMedian }
            if !s.outputOK {
                printError("\(n) voices, \(chain.key): output rms \(s.rms), not finite or silent")
                ok = false
            }
            if o.json {
                var line = "{\"impl\":\"soundengine-chain\",\"n\":\(n),\"chain\":\"\(chain.key)\",\"block\":\(o.block),"
                line += "\"rounds\":\(o.rounds),\"seconds\":\(o.seconds),"
                line += "\"cpu_percent_best\":\(format(percent(s.cpu.min()!), 3)),"
                line += "\"cpu_percent_median\":\(format(percent(median(s.cpu)), 3)),"
                line += "\"added_percent_best\":\(signed(added, 1)),\"added_percent_median\":\(signed(addedMedian, 1)),"
                line += "\"rms\":\(format(s.rms, 3)),\"kernels\":\"\(kernels)\"}"
                print(line)
            } else {
                print(
                    pad(chain.label, 40) + pad(format(percent(s.cpu.min()!), 3), 11, right: true)
                        + pad(format(percent(median(s.cpu)), 3), 13, right: true)
                        + pad(chain == .plain ? "" : signed(added, 1), 13, right: true)
                        + pad(chain == .plain ? "" : signed(addedMedian, 1), 15, right: true))
            }
        }
        printGoal(
            "chain at \(n) voices", "adds < 15 % to the mix", "median added \(signed(chainAdded, 1)) %", chainAdded < 15, o)
    }
    return ok
}

/// Prints a goal's verdict: MET or MISS (a figure, not a failure).
func printGoal(_ what: String, _ goal: String, _ figure: String, _ met: Bool, _ o: Options) {
    if o.json {
        print("{\"impl\":\"soundengine-goal\",\"goal\":\"\(what) \(goal)\",\"figure\":\"\(figure)\",\"met\":\(met)}")
    } else {
        print("goal: \(what) \(goal): \(met ? "MET" : "MISS") (\(figure))")
    }
}
