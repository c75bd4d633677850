import Foundation
import SoundServerSupport

/// How long a fuzz test runs and from which seed. CI runs the defaults;
/// `SOUNDENGINE_FUZZ_SECONDS` and `SOUNDENGINE_FUZZ_SEED` override them
/// (e.g. a long run overnight, or replaying a seed a failure printed).
struct FuzzBudget {
    var seed: UInt64
    var seconds: Double
    var maxIterations: Int

    static func fromEnvironment(defaultSeconds: Double, maxIterations: Int) -> FuzzBudget {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["SOUNDENGINE_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let seconds = environment["SOUNDENGINE_FUZZ_SECONDS"].flatMap { Double($0) }
        // An explicit time runs for that long, however many iterations it takes.
        return FuzzBudget(seed: seed, seconds: seconds ?? defaultSeconds,
                          maxIterations: seconds == nil ? maxIterations : .max)
    }

    /// Runs `body` with the iteration number until the time or the iteration
    /// count runs out; returns how many iterations ran.
    @discardableResult
    func run(_ name: String, _ body: (Int, inout SplitMix64) -> Void) -> Int {
        FileHandle.standardError.write(Data(
            "\(name): seed \(seed) (replay: SOUNDENGINE_FUZZ_SEED=\(seed)), up to \(seconds) s\n".utf8))
        var random = SplitMix64(seed: seed)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(seconds)
        var iteration = 0
        while iteration < maxIterations, clock.now < deadline {
            body(iteration, &random)
            iteration += 1
        }
        FileHandle.standardError.write(Data("\(name): \(iteration) iterations\n".utf8))
        return iteration
    }
}

/// Byte-level mutations of a valid input.
enum Mutation {
    /// Fragments a bank's JSON is likely to break on.
    static let tokens: [String] = [
        "{", "}", "[", "]", "\"", ",", ":", "null", "true", "-", "1e999", "-1e999", "-0", "0.0000001",
        "123456789012345678901234567890", "\"\\uD800\"", "\"\\u0000\"", "\"é🎵\"", "\"../../etc/passwd\"",
        "\"/etc/passwd\"", "\"master\"", "\"type\": \"switch\"", "{\"type\": \"post\", \"event\": \"Play_Walk\"}",
        "\"parent\": \"sfx\"", "\\", "\u{FEFF}", "\"comment\": 1",
    ]

    /// Applies one to four random mutations to `bytes`.
    static func mutate(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var data = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = data.isEmpty ? 0 : Int.random(in: 0..<data.count, using: &random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0 where !data.isEmpty:  // flip a bit
                data[at] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 1:  // insert a random byte
                data.insert(UInt8.random(in: 0...255, using: &random), at: at)
            case 2 where !data.isEmpty:  // delete a run
                data.removeSubrange(at..<min(data.count, at + Int.random(in: 1...16, using: &random)))
            case 3 where !bytes.isEmpty:  // splice a slice of the original in
                let from = Int.random(in: 0..<bytes.count, using: &random)
                let to = min(bytes.count, from + Int.random(in: 1...64, using: &random))
                data.insert(contentsOf: bytes[from..<to], at: at)
            case 4:  // insert a token
                data.insert(contentsOf: Array(tokens.randomElement(using: &random)!.utf8), at: at)
            case 5:  // deep nesting
                let depth = Int.random(in: 50...5000, using: &random)
                data.insert(contentsOf: [UInt8](repeating: Bool.random(using: &random) ? 0x5B : 0x7B, count: depth),
                            at: at)
            case 6:  // truncate
                data.removeSubrange(at...)
            case 7 where !data.isEmpty:  // overwrite with random bytes
                for i in at..<min(data.count, at + Int.random(in: 1...32, using: &random)) {
                    data[i] = UInt8.random(in: 0...255, using: &random)
                }
            default:  // replace a digit run with a huge number
                if let digit = data[at...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                    data.insert(contentsOf: Array("9999999999999999e300".utf8), at: digit)
                }
            }
        }
        return data
    }
}
