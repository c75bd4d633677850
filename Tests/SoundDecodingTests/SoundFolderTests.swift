import Foundation
import SoundCore
import SoundDecoding
import Testing

/// Files opened beneath a folder held by descriptor, through no link.
@Suite struct SoundFolderTests {
    /// `root/bank/sub/tone.wav` and `root/outside.wav` (copies of a fixture).
    private func makeTree() throws -> (root: String, bank: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folder-\(UUID())").path
        let bank = root + "/bank"
        try FileManager.default.createDirectory(atPath: bank + "/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("sine440-mono.wav"), toPath: bank + "/sub/tone.wav")
        try FileManager.default.copyItem(atPath: fixture("sine440-mono.wav"), toPath: root + "/outside.wav")
        return (root, bank)
    }

    /// Whether `body` throws `fileNotFound` whose reason contains every one of `words`.
    private func refused(_ words: [String], _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as SoundEngineError {
            guard case .fileNotFound(let why) = error else { return false }
            return words.allSatisfy { why.contains($0) }
        } catch {
            return false
        }
    }

    @Test func filesInsideDecodeByRelativeOrAbsolutePath() throws {
        let (root, bank) = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try SoundFolder(path: bank)
        for path in ["sub/tone.wav", "./sub//tone.wav", bank + "/sub/tone.wav"] {
            let audio = try SoundFileDecoder(path: path, in: folder).readAll()
            #expect(audio.sampleRate == 48_000 && audio.frameCount > 0, "\(path)")
        }
    }

    @Test func linksDotDotAndPathsOutsideAreRefusedNamingWhy() throws {
        let (root, bank) = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try SoundFolder(path: bank)
        try FileManager.default.createSymbolicLink(atPath: bank + "/link.wav", withDestinationPath: root + "/outside.wav")
        try FileManager.default.createSymbolicLink(atPath: bank + "/inner.wav", withDestinationPath: bank + "/sub/tone.wav")
        try FileManager.default.createSymbolicLink(atPath: bank + "/linkdir", withDestinationPath: root)
        #expect(refused(["link.wav", "symbolic link"]) { _ = try SoundFileDecoder(path: "link.wav", in: folder) })
        #expect(refused(["inner.wav", "symbolic link"]) { _ = try SoundFileDecoder(path: "inner.wav", in: folder) })
        #expect(refused(["linkdir", "symbolic link"]) { _ = try SoundFileDecoder(path: "linkdir/outside.wav", in: folder) })
        #expect(refused(["'..'"]) { _ = try SoundFileDecoder(path: "sub/../../outside.wav", in: folder) })
        #expect(refused(["not inside"]) { _ = try SoundFileDecoder(path: root + "/outside.wav", in: folder) })
        #expect(refused(["missing.wav"]) { _ = try SoundFileDecoder(path: "missing.wav", in: folder) })
        #expect(refused(["sub", "not a regular file"]) { _ = try SoundFileDecoder(path: "sub", in: folder) })
        // Without a folder, a path is opened as it always was (links followed).
        #expect(throws: Never.self) { _ = try SoundFileDecoder(path: bank + "/link.wav", in: nil) }
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let (root, bank) = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(mkfifo(bank + "/pipe.wav", 0o600) == 0)
        let folder = try SoundFolder(path: bank)
        #expect(refused(["pipe.wav", "not a regular file"]) { _ = try SoundFileDecoder(path: "pipe.wav", in: folder) })
    }

    @Test func aMissingFolderIsFileNotFoundNamingIt() {
        let missing = "/nonexistent-\(UUID())"
        #expect(refused([missing]) { _ = try SoundFolder(path: missing) })
    }

    /// The folder stays the one opened: renaming it away and putting a
    /// link in its place does not redirect opens.
    @Test func theFolderIsTheOneOpenedEvenIfItsPathIsReplaced() throws {
        let (root, bank) = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try SoundFolder(path: bank)
        try FileManager.default.moveItem(atPath: bank, toPath: root + "/moved")
        try FileManager.default.createSymbolicLink(atPath: bank, withDestinationPath: root)
        #expect(throws: Never.self) { _ = try SoundFileDecoder(path: "sub/tone.wav", in: folder) }
        #expect(refused(["outside.wav"]) { _ = try SoundFileDecoder(path: "outside.wav", in: folder) })
    }
}
