import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport
import Testing

/// A bank's streamed sounds are opened again every time a voice plays them:
/// each time beneath the bank's folder, through no symbolic link, unless the
/// bank may use files outside its folder (docs/banks.md).
@Suite struct ContentBankFolderTests {
    static let hero = GameObjectID(1)

    /// A bank file `bank/streams.json` in the rig's folder whose sound
    /// "music" streams `bank/music.wav` (a quiet tone), and a loud
    /// `outside.wav` next to the bank's folder.
    static func rig() throws -> (rig: ContentRig, bank: String, outside: String) {
        let rig = try ContentRig()
        let bank = rig.folder + "/bank"
        try FileManager.default.createDirectory(atPath: bank, withIntermediateDirectories: true)
        let tone = { (amplitude: Float) in
            WaveFile.monoFloat32((0..<9600).map { amplitude * Float(sin(Double($0) * 2 * .pi * 1000 / 48_000)) }, rate: 48_000)
        }
        _ = FileManager.default.createFile(atPath: bank + "/music.wav", contents: tone(0.25))
        let outside = rig.folder + "/outside.wav"
        _ = FileManager.default.createFile(atPath: outside, contents: tone(0.9))
        let json = #"""
            {"sounds": {"music": {"file": "music.wav", "stream": true}},
             "events": {"Music": {"actions": [{"type": "play", "sound": "music"}]}}}
            """#
        _ = FileManager.default.createFile(atPath: bank + "/streams.json", contents: Data(json.utf8))
        try rig.engine.registerGameObject(hero)
        return (rig, bank, outside)
    }

    /// Posts "Music" and renders until it ends; returns the loudest sample.
    static func playMusic(_ rig: ContentRig) throws -> Float {
        let ends = EndCounter()
        let playing = try rig.engine.postEvent("Music", on: hero, callback: ends.callback)
        var loudest: Float = 0
        let ended = eventually {
            loudest = max(loudest, rig.render(1024).map(abs).max() ?? 0)
            return ends.count(playing) == 1
        }
        #expect(ended, "the posting never ended")
        return loudest
    }

    /// Descriptors of this process open on `path` (/proc/self/fd).
    static func descriptors(on path: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path }
            .count
    }

    @Test func aStreamedFileSwappedForALinkAfterTheLoadFailsToOpenAndNothingOutsideIsRead() throws {
        let (rig, bank, outside) = try Self.rig()
        let id = try rig.engine.loadBank(path: bank + "/streams.json")
        // Opened through the bank's folder, the file plays at its own level.
        let before = try Self.playMusic(rig)
        #expect(abs(before - 0.25 * 0.7071) < 0.02, "played at \(before)")

        // After the load, the file becomes a link to a file outside the folder.
        try FileManager.default.removeItem(atPath: bank + "/music.wav")
        try FileManager.default.createSymbolicLink(atPath: bank + "/music.wav", withDestinationPath: outside)

        // A voice of the sound cannot open it, and says which file and why…
        let sound = try #require(rig.engine.content.state.withLock { $0.banks[id]?.sounds[ContentID("music")] })
        let outcome = PlayOutcome()
        try rig.engine.play(sound, callback: outcome.callback)
        #expect(rig.renderUntil { outcome.ended })
        guard case .fileNotFound(let why)? = outcome.failure else {
            Issue.record("expected voiceFailed(fileNotFound), got \(outcome.all.map(\.info))")
            return
        }
        #expect(why.contains("music.wav") && why.contains("symbolic link"), "\(why)")
        // …and the event's voice plays nothing of the outside file.
        #expect(try Self.playMusic(rig) == 0)
    }

    @Test func aStreamedFileThatIsALinkIsRefusedAtLoadNamingTheSound() throws {
        let (rig, bank, _) = try Self.rig()
        try FileManager.default.moveItem(atPath: bank + "/music.wav", toPath: bank + "/real.wav")
        // Inside the folder (the parser accepts it), but a link all the same.
        try FileManager.default.createSymbolicLink(atPath: bank + "/music.wav", withDestinationPath: bank + "/real.wav")
        #expect {
            try rig.engine.loadBank(path: bank + "/streams.json")
        } throws: { error in
            guard case .fileNotFound(let why)? = error as? SoundEngineError else { return false }
            return why.contains("sound 'music'") && why.contains("symbolic link")
        }
        // A trusted bank may: its files are opened by path, links followed.
        try rig.engine.loadBank(path: bank + "/streams.json", options: BankLoadOptions(allowFilesOutsideBankFolder: true))
        #expect(try Self.playMusic(rig) > 0.1)
    }

    @Test func theBankHoldsItsFolderOpenUntilItIsUnloaded() throws {
        let (rig, bank, _) = try Self.rig()
        #expect(Self.descriptors(on: bank) == 0)
        let id = try rig.engine.loadBank(path: bank + "/streams.json")
        #expect(Self.descriptors(on: bank) == 1)
        _ = try Self.playMusic(rig)
        try rig.engine.unloadBank(id)
        #expect(rig.renderUntil { Self.descriptors(on: bank) == 0 })
    }
}
