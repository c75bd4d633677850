import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport

/// A seeded source of hostile arguments (docs/input-validation.md): NaN,
/// infinities, the largest and smallest numbers, subnormals, `Int.min` and
/// `Int.max`, durations of `Int64.max` seconds and negative ones, empty, huge
/// and non-UTF-8 names with NULs, unknown and stale IDs — mixed with valid
/// values, so that calls also succeed and the engine gets into many states.
/// The same seed gives the same values (SplitMix64), so a failure replays.
struct HostileValues {
    private var random: SplitMix64
    /// How often a number, time or name is a hostile one rather than valid.
    /// A value of several fields lowers it while it is built (``mostlyValid(_:)``),
    /// so that calls often fail on one argument — the one the error must name —
    /// and often succeed, taking the engine through many states.
    private var hostility = 0.35

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// `make` with each field hostile one time in ten.
    mutating func mostlyValid<T>(_ make: (inout HostileValues) -> T) -> T {
        let saved = hostility
        hostility = 0.1
        defer { hostility = saved }
        return make(&self)
    }

    // MARK: Choices

    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    // MARK: Numbers

    static let doubles: [Double] = [
        .nan, -.nan, .signalingNaN, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 0, -0.0, 1, -1, 16, 16.000_001,
        1.0 / 256, 1.0 / 257, 1e-300, 1e300, 1e10, -1e10, Double(Int.max), Double(Int64.min), 24_000, 9.99,
    ]
    static let floats: [Float] = [
        .nan, .signalingNaN, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 0, -0.0, 1, -1, 16, 16.000_1,
        1e-30, 1e30, -1e30, 24_000, 24_000.01, 9.99, 10,
    ]
    static let ints: [Int] = [
        .min, .min + 1, -1, 0, 1, 2, 63, 64, 100, 101, 511, 512, 1024, 4096, 65_536, 65_537,
        Int(Int32.max), Int(Int32.max) + 1, Int(UInt32.max), .max - 1, .max,
    ]

    /// Hostile (``hostility``), else uniform in `valid`.
    mutating func double(_ valid: ClosedRange<Double> = -1...1) -> Double {
        chance(hostility) ? pick(Self.doubles) : Double.random(in: valid, using: &random)
    }

    mutating func float(_ valid: ClosedRange<Float> = -1...1) -> Float {
        chance(hostility) ? pick(Self.floats) : Float.random(in: valid, using: &random)
    }

    mutating func int(_ valid: ClosedRange<Int> = 0...100) -> Int {
        chance(hostility) ? pick(Self.ints) : int(in: valid)
    }

    mutating func uint32() -> UInt32 {
        chance(0.5) ? pick([0, 1, 2, .max, .max - 1, 1 << 31]) : UInt32.random(in: 0...40, using: &random)
    }

    mutating func uint64() -> UInt64 {
        chance(0.5) ? pick([0, 1, .max, .max - 1, 1 << 63]) : UInt64.random(in: 0...20, using: &random)
    }

    // MARK: Times

    static let durations: [Duration] = [
        .zero, .nanoseconds(1), .nanoseconds(-1), .seconds(-1), .milliseconds(16), .seconds(3600),
        .seconds(3600) + .nanoseconds(1), .seconds(10_000_000_000), .seconds(-10_000_000_000), .seconds(Int64.max),
        .seconds(Int64.min), Duration(secondsComponent: .max, attosecondsComponent: .max),
        Duration(secondsComponent: .min, attosecondsComponent: .min), .nanoseconds(Int64.max),
        .nanoseconds(Int64.min), .seconds(10) + .nanoseconds(1), .milliseconds(-16),
    ]

    /// Hostile (``hostility``), else 0…200 ms (a valid fade that the tests
    /// need not wait long for: a suspend's fade holds the session thread).
    mutating func duration() -> Duration {
        chance(hostility) ? pick(Self.durations) : .milliseconds(int(in: 0...200))
    }

    mutating func optionalDuration() -> Duration? { chance(0.2) ? nil : duration() }

    // MARK: Names

    static let names: [String] = [
        "", " ", "a", "\u{0}", "a\u{0}b", String(decoding: [0xFF, 0xFE, 0xC0, 0x80, 0xED, 0xA0, 0x80], as: UTF8.self),
        "💥🔊", "\u{202E}evil", "../../../../etc/passwd", "/", "/tmp", "/nonexistent/x.wav", "%s%n%x",
        String(repeating: "x", count: 100_000), String(repeating: "é", count: 10_000), "master", "MASTER",
    ]

    /// A valid name from `valid` (in any case) unless hostile (``hostility``).
    mutating func name(_ valid: [String] = []) -> String {
        if !valid.isEmpty && !chance(hostility) {
            let name = pick(valid)
            return chance(0.3) ? name.uppercased() : name
        }
        if chance(0.2) {
            let bytes = (0..<int(in: 0...24)).map { _ in UInt8.random(in: 0...255, using: &random) }
            return String(decoding: bytes, as: UTF8.self)
        }
        return pick(Self.names)
    }

    mutating func optionalName(_ valid: [String] = []) -> String? { chance(0.2) ? nil : name(valid) }

    // MARK: Values of the API

    mutating func vector(_ valid: ClosedRange<Float> = -50...50) -> Vector3 {
        mostlyValid { h in Vector3(x: h.float(valid), y: h.float(valid), z: h.float(valid)) }
    }

    mutating func orientation() -> Orientation {
        chance(0.3) ? .default : mostlyValid { h in Orientation(front: h.vector(-1...1), top: h.vector(-1...1)) }
    }

    mutating func loop() -> LoopRegion? {
        chance(0.3) ? pick([nil, .whole]) : LoopRegion(start: int(0...2000), end: chance(0.2) ? nil : int(64...4800))
    }

    mutating func quality() -> ResamplerQuality { pick(ResamplerQuality.allCases) }

    mutating func playParameters() -> PlayParameters {
        mostlyValid { h in
            PlayParameters(
                volume: h.float(0...2), pan: h.float(), pitch: h.double(0.5...2), loop: h.chance(0.3),
                fadeIn: h.duration(), delay: h.chance(0.5) ? .zero : h.duration(),
                quality: h.chance(0.5) ? nil : h.quality(), lowPassHz: h.chance(0.6) ? nil : h.float(10...24_000))
        }
    }

    /// A sound in memory: mostly a short valid tone, sometimes with a bad
    /// rate, channel count, partial frame or a NaN or infinite sample.
    mutating func decodedAudio() -> DecodedAudio {
        mostlyValid { h in
            let rate = h.chance(0.7) ? h.pick([48_000, 44_100, 8000]) : h.int(in: 1000...768_000)
            let channels = h.chance(0.8) ? h.pick([1, 2, 6]) : h.int(in: 1...8)
            let frames = h.chance(h.hostility) ? h.pick([0, 1, 7]) : h.int(in: 2400...9600)
            var samples = (0..<frames * channels).map { i in Float(sin(Double(i) * 0.06)) * 0.5 }
            if h.chance(0.2), !samples.isEmpty {
                samples[h.int(in: 0...(samples.count - 1))] = h.pick([.nan, .signalingNaN, .infinity, -.infinity])
            }
            if h.chance(h.hostility) { samples.append(0.25) }
            return DecodedAudio(
                sampleRate: h.chance(h.hostility) ? h.pick(Self.ints) : rate,
                channelCount: h.chance(h.hostility) ? h.pick(Self.ints) : channels, samples: samples)
        }
    }

    mutating func category() -> Category {
        Category(named: pick(Category.names))!
    }

    mutating func categoryOptions() -> CategoryOptions {
        chance(0.2) ? CategoryOptions(rawValue: UInt.random(in: 0...UInt.max, using: &random))
            : CategoryOptions(rawValue: UInt.random(in: 0...0xFF, using: &random))
    }

    mutating func mode() -> Mode { Mode(named: pick(Mode.names))! }

    mutating func setActiveOptions() -> SetActiveOptions {
        SetActiveOptions(rawValue: chance(0.7) ? pick([0, 1]) : UInt.random(in: 0...UInt.max, using: &random))
    }

    mutating func sessionConfiguration() -> SessionConfiguration {
        SessionConfiguration(
            category: category(), categoryOptions: categoryOptions(), mode: mode(),
            routeSharingPolicy: chance(0.8) ? .default : pick(RouteSharingPolicy.allCases),
            setActiveOptions: setActiveOptions(),
            behavior: SessionBehavior(rawValue: chance(0.8) ? pick([0, 1]) : UInt.random(in: 0...UInt.max, using: &random)))
    }

    /// A port to prefer: mostly the offline output's name, as an input or an output.
    mutating func port() -> PortDescription {
        PortDescription(
            portType: pick(PortType.allCases), portName: name(),
            endpoint: EndpointID(pick(EndpointDirection.allCases), device: name(["offline"]), port: optionalName()))
    }

    /// Settings with hostile fields; the server address always points
    /// nowhere, so a valid set fails fast instead of reaching a real server.
    mutating func settings() -> (InitSettings, PlatformInitSettings) {
        var s = InitSettings()
        var p = PlatformInitSettings()
        switch int(in: 0...13) {
        case 0: s.samplesPerFrame = int(64...8192)
        case 1: s.commandQueueSize = int(1...(64 << 20))
        case 2: s.maxVoices = int(1...512)
        case 3: s.maxBuses = int(1...64)
        case 4: s.maxSounds = int(1...512)
        case 5: s.maxStreams = int(0...16)
        case 6: p.sampleRate = int(8000...192_000)
        case 7: p.channelCount = int(0...8)
        case 8: p.inputChannelCount = int(1...8)
        case 9: p.latency = LatencyRequest(targetFrames: int(0...48_000), requestFrames: int(64...8192))
        case 10: p.realtimePriority = chance(0.2) ? nil : Int32(truncatingIfNeeded: int(1...99))
        case 11: p.connectTimeout = duration()
        case 12: p.idleCorkTimeout = optionalDuration()
        default:
            p.applicationName = name(["game"])
            p.audioSession = sessionConfiguration()
        }
        p.serverAddress = "unix:/nonexistent/hostile-input-test/native"
        return (s, p)
    }

    // MARK: Banks

    /// `bank` with one value replaced by a hostile one (or none), under a
    /// name that may collide with a loaded bank's.
    mutating func mutated(_ bank: Bank) -> Bank {
        var b = bank
        b.name = chance(0.5) ? bank.name : name(["\(bank.name)2"])
        let sound = pick(Array(b.sounds.keys).sorted())
        // Not Tense or Gravel: a delay there would change a state or switch
        // on a timer, which the "changes nothing" check cannot tell from a refused call's doing.
        let event = pick(["Play", "Step", "Pick", "Stop", "Nest", "Delayed"])
        switch int(in: 0...15) {
        case 0: b.sounds[sound]?.volumeDB = double(-96...24)
        case 1: b.sounds[sound]?.pitchCents = double(-2400...2400)
        case 2: b.sounds[sound]?.priority = int()
        case 3: b.sounds[sound]?.markers = [BankMarker(name: name(), time: double(0...1))]
        case 4: b.containers["pick"]?.kind = .random(weights: [double(0...10), double(0...10)], avoidRepeatCount: int(0...1))
        case 5: b.buses[0].volumeDB = double(-96...24)
        case 6: b.buses[1].ducking = [BankDucking(bus: "music", volumeDB: double(-96...0), attack: duration(), release: duration())]
        case 7:
            let points = [(x: double(0...100), y: double(-96...0)), (x: double(0...100), y: double(-96...0))]
            b.attenuations["near"]?.volume = Curve(points: chance(0.1) ? [] : points)
        case 8:
            let (low, high) = (double(-100...0), double(0...10_000))
            if low <= high { b.rtpcs["RPM"]?.range = low...high }  // `...` traps (in this code) on NaN or low > high
        case 9: b.rtpcs["RPM"]?.defaultValue = double(0...8000)
        case 10: b.rtpcs["RPM"]?.bindings[0].curve = Curve(points: [(x: double(0...8000), y: double(-1200...1200))])
        case 11: b.stateGroups["Mood"]?.transition = duration()
        case 12: b.stateGroups["Mood"]?.busVolumes = ["tense": ["music": double(-96...24)]]
        case 13: b.events[event]?.actions[0].delay = duration()
        case 14: b.events[event]?.actions = [BankAction(.setBusVolume(bus: "sfx", volumeDB: double(-96...24), fade: duration()))]
        default: b.events[event]?.actions = [BankAction(.pause(object: "tone", fade: duration(), scope: .global))]
        }
        return b
    }
}
