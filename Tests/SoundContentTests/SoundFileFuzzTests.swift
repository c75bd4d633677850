import SoundServerSupport
import Foundation
import SoundCore
import SoundDecoding
import Testing

/// Corrupted audio files (truncated, header bytes flipped, random bytes):
/// decoding either succeeds with a sane format or throws a
/// `SoundEngineError` that says what was wrong; it never traps or hangs.
@Suite struct SoundFileFuzzTests {
    /// Small real files in every container the decoder handles.
    private static let seeds: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let fixtures = root.appendingPathComponent("Tests/SoundDecodingTests/Fixtures")
        return ["sine440-mono.wav", "sine440-mono.ogg", "sine440-stereo-44k.flac"].map {
            fixtures.appendingPathComponent($0).path
        } + [root.appendingPathComponent("Examples/Banks/demo/sounds/ui_click.wav").path]
    }()

    @Test func corruptedFilesDecodeOrThrowClearly() throws {
        let originals = try Self.seeds.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let budget = FuzzBudget.fromEnvironment(defaultSeconds: 4, maxIterations: 2_000)
        var failures = 0
        budget.run("sound file fuzz") { iteration, random in
            guard failures < 5 else { return }
            let index = Int.random(in: 0..<originals.count, using: &random)
            let ext = (Self.seeds[index] as NSString).pathExtension
            let path = "\(directory)/fuzz-\(iteration % 8).\(ext)"
            let corrupted = Self.corrupt(originals[index], using: &random)
            guard FileManager.default.createFile(atPath: path, contents: Data(corrupted)) else {
                failures += 1
                Issue.record("cannot write \(path)")
                return
            }
            do throws(SoundEngineError) {
                let audio = try SoundFileDecoder.decode(path: path)
                if audio.channelCount <= 0 || audio.sampleRate <= 0 || audio.samples.count % audio.channelCount != 0 {
                    failures += 1
                    Issue.record("seed \(budget.seed) iteration \(iteration): insane result \(audio.channelCount) ch")
                }
            } catch {
                switch error {
                case .invalidFile(let why), .fileNotFound(let why), .invalidParameter(let why):
                    if why.isEmpty {
                        failures += 1
                        Issue.record("empty reason for \(error)")
                    }
                default:
                    failures += 1
                    Issue.record("seed \(budget.seed) iteration \(iteration): unexpected error \(error)")
                }
            }
        }
    }

    /// One of: truncation, header bytes flipped, a random run overwritten,
    /// or a mix (the bank mutator on binary data).
    static func corrupt(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var data = bytes
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            data.removeSubrange(Int.random(in: 0..<data.count, using: &random)...)
        case 1:
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let at = Int.random(in: 0..<min(64, data.count), using: &random)
                data[at] = Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : data[at] ^ 0xFF
            }
        case 2:
            let at = Int.random(in: 0..<data.count, using: &random)
            for i in at..<min(data.count, at + Int.random(in: 1...256, using: &random)) {
                data[i] = UInt8.random(in: 0...255, using: &random)
            }
        default:
            data = Mutation.mutate(data, using: &random)
        }
        return data
    }
}
