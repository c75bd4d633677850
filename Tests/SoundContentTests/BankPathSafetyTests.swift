import Foundation
import SoundContent
import Testing

/// Sound files resolve inside the bank's folder unless the game opts out.
@Suite struct BankPathSafetyTests {
    private func soundBank(file: String) -> String {
        bankJSON(sounds: #"{"s": {"file": "\#(file)"}}"#, events: "{}")
    }

    /// A bank folder holding `inside.wav`, next to `outside.wav`, both regular files.
    private func makeFolders() throws -> (root: String, bank: String) {
        let root = try makeTemporaryDirectory()
        let bank = root + "/bank"
        try FileManager.default.createDirectory(atPath: bank + "/sub", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: bank + "/inside.wav", contents: Data([1]))
        _ = FileManager.default.createFile(atPath: root + "/outside.wav", contents: Data([1]))
        return (root, bank)
    }

    private func parse(_ json: String, folder: String, options: BankLoadOptions = BankLoadOptions())
        -> Result<Bank, BankIssues>
    {
        BankParser.parse(Array(json.utf8), name: "t", folder: folder, options: options)
    }

    @Test func absolutePathsAreRefusedUnlessAllowed() throws {
        let (root, bank) = try makeFolders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let json = soundBank(file: root + "/outside.wav")
        guard case .failure(let failure) = parse(json, folder: bank) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.issues.map(\.path) == ["$.sounds.s.file"])
        #expect(failure.issues.first?.reason.contains("absolute path") == true)
        let allowed = try parse(json, folder: bank, options: BankLoadOptions(allowFilesOutsideBankFolder: true)).get()
        #expect(allowed.sounds["s"]?.file == root + "/outside.wav")
    }

    @Test func climbingOutWithDotDotIsRefusedButStayingInsideIsNot() throws {
        let (root, bank) = try makeFolders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard case .failure(let failure) = parse(soundBank(file: "sub/../../outside.wav"), folder: bank) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.issues.map(\.path) == ["$.sounds.s.file"])
        #expect(failure.issues.first?.reason.contains("'..'") == true)
        let inside = try parse(soundBank(file: "sub/./../inside.wav"), folder: bank).get()
        #expect(inside.sounds["s"]?.file == bank + "/inside.wav")
    }

    @Test func aSymlinkLeadingOutOfTheFolderIsRefused() throws {
        let (root, bank) = try makeFolders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: bank + "/link.wav", withDestinationPath: root + "/outside.wav")
        try FileManager.default.createSymbolicLink(atPath: bank + "/linkdir", withDestinationPath: root)
        for file in ["link.wav", "linkdir/outside.wav"] {
            guard case .failure(let failure) = parse(soundBank(file: file), folder: bank) else {
                Issue.record("\(file) accepted")
                continue
            }
            #expect(failure.issues.map(\.path) == ["$.sounds.s.file"])
            #expect(failure.issues.first?.reason.contains("symbolic link") == true, "\(failure)")
        }
        // A link that stays inside is fine.
        try FileManager.default.createSymbolicLink(atPath: bank + "/alias.wav", withDestinationPath: bank + "/inside.wav")
        #expect(throws: Never.self) { try parse(soundBank(file: "alias.wav"), folder: bank).get() }
    }

    @Test func missingFilesAndDirectoriesAreRefusedWhenChecked() throws {
        let (root, bank) = try makeFolders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard case .failure(let missing) = parse(soundBank(file: "nope.wav"), folder: bank) else {
            Issue.record("accepted")
            return
        }
        #expect(missing.issues.map(\.path) == ["$.sounds.s.file"])
        #expect(missing.issues.first?.reason.contains("nope.wav") == true)
        guard case .failure(let directory) = parse(soundBank(file: "sub"), folder: bank) else {
            Issue.record("accepted")
            return
        }
        #expect(directory.issues.first?.reason.contains("not a regular file") == true)
        let unchecked = BankLoadOptions(checkFilesExist: false)
        #expect(throws: Never.self) { try parse(soundBank(file: "nope.wav"), folder: bank, options: unchecked).get() }
    }
}
