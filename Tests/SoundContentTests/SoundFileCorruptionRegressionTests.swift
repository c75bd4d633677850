import Foundation
import SoundDecoding
import Testing

/// Regressions the fuzzing found, kept as plain tests.
@Suite struct SoundFileCorruptionRegressionTests {
    /// A FLAC whose STREAMINFO claims 2^36 - 1 frames (the file holds 11 025)
    /// used to trap: readAll reserved room for the claim up front
    /// (`failed to allocate … bytes`).
    @Test func aHeaderClaimingBillionsOfFramesDecodesWhatIsThere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("SoundDecodingTests/Fixtures/sine440-stereo-44k.flac")))
        // STREAMINFO starts at byte 8; its 36-bit total-samples field is the
        // low nibble of byte 21 and bytes 22…25.
        bytes[21] |= 0x0F
        bytes.replaceSubrange(22..<26, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/huge-claim.flac"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let decoder = try SoundFileDecoder(path: path)
        #expect(decoder.format.frameCount == (1 << 36) - 1)  // the claim is reported as libsndfile reads it…
        do {
            let audio = try decoder.readAll()  // …but decoding takes what the file holds
            #expect(audio.channelCount == 2)
            #expect(abs(audio.duration - 0.25) < 0.01)
        } catch {
            #expect(!"\(error)".isEmpty)
        }
    }
}
