import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport
import Synchronization
import Testing

/// One playback vocabulary (decision 0013): a `PlayingID` names a play and a
/// posting alike, the same calls act on both, one callback type tells both,
/// content is named by one reference type. On the offline backend.
@Suite struct PlaybackVocabularyTests {
    static let hero = GameObjectID(1)

    /// A bank with a looping bed (event `Bed`) and a short blip (event `Blip`).
    static func start() throws -> ContentRig {
        let rig = try ContentRig()
        let sounds = [
            "bed": BankSound(name: "bed", file: rig.sineFile("bed", amplitude: 0.5), loop: true),
            "blip": BankSound(name: "blip", file: rig.sineFile("blip", seconds: 0.05)),
        ]
        let events = [
            "Bed": BankEvent(name: "Bed", actions: [BankAction(.play(object: "bed", fadeIn: .zero))]),
            "Blip": BankEvent(name: "Blip", actions: [BankAction(.play(object: "blip", fadeIn: .zero))]),
        ]
        try rig.engine.loadBank(Bank(name: "vocabulary", folder: rig.folder, sounds: sounds, events: events))
        try rig.engine.registerGameObject(hero)
        return rig
    }

    @Test func aPlayAndAPostingAreBothPlayingIDsThatTheSameCallsStop() throws {
        let rig = try Self.start()
        let tone = try rig.engine.loadSound(sine(amplitude: 0.5), name: "tone")
        let play = try rig.engine.play(tone, PlayParameters(loop: true))
        let posting = try rig.engine.postEvent("Bed", on: Self.hero)
        #expect(play.voice != nil && play.posting == nil, "\(play)")
        #expect(posting.voice == nil && posting.posting == 1, "\(posting)")
        rig.render(4800)
        #expect(try rig.engine.isPlaying(play) && rig.engine.isPlaying(posting))
        try rig.engine.stop(play, fade: .milliseconds(5))
        try rig.engine.stop(posting, fade: .milliseconds(5))
        #expect(rig.renderUntil { (try? rig.engine.isPlaying(play)) == false && (try? rig.engine.isPlaying(posting)) == false })
        #expect(rig.levels().left < 1e-6)
        // Stopping, pausing or resuming what has ended is nothing, for either kind.
        for id in [play, posting] {
            try rig.engine.stop(id)
            try rig.engine.pause(id)
            try rig.engine.resume(id)
        }
    }

    @Test func pauseAndResumeHoldAPostingsVoicesWhereTheyAre() throws {
        let rig = try Self.start()
        let posting = try rig.engine.postEvent("Bed", on: Self.hero)
        #expect(rig.renderUntil { rig.levels(1024).left > 0.2 })
        try rig.engine.pause(posting, fade: .milliseconds(10))
        #expect(rig.renderUntil { rig.levels(1024).left < 1e-6 }, "the posting's voice did not pause")
        #expect(try rig.engine.isPlaying(posting), "a paused posting has not ended")
        try rig.engine.resume(posting, fade: .milliseconds(10))
        #expect(rig.renderUntil { rig.levels(1024).left > 0.2 }, "the posting's voice did not resume")
        // And a play's voice the same way.
        let play = try rig.engine.play(rig.engine.loadSound(sine(amplitude: 0.5), name: "tone"), PlayParameters(loop: true))
        try rig.engine.stop(posting)
        try rig.engine.pause(play)
        #expect(rig.renderUntil { rig.levels(1024).left < 1e-6 })
        try rig.engine.resume(play)
        #expect(rig.renderUntil { rig.levels(1024).left > 0.2 })
    }

    @Test func aPostingsLevelsAreItsBanksAndItsIDIsRefusedByAPlaysSetters() throws {
        let rig = try Self.start()
        let posting = try rig.engine.postEvent("Bed", on: Self.hero)
        let calls: [(String, () throws -> Void)] = [
            ("setVolume", { try rig.engine.setVolume(posting, 0.5) }),
            ("setPan", { try rig.engine.setPan(posting, 0.5) }),
            ("setPitch", { try rig.engine.setPitch(posting, 2) }),
            ("setLowPass", { try rig.engine.setLowPass(posting, cutoffHz: 500) }),
        ]
        for (name, call) in calls {
            #expect { try call() } throws: { isInvalidParameter($0, naming: "\(name) playing = \(posting): a posting") }
        }
        // A play's setters work, and one that ended is idNotFound.
        let play = try rig.engine.play(rig.engine.loadSound(sine(seconds: 0.02), name: "short"))
        try rig.engine.setVolume(play, 0.5, ramp: .milliseconds(5))
        #expect(rig.renderUntil { (try? rig.engine.isPlaying(play)) == false })
        #expect { try rig.engine.setVolume(play, 0.5) } throws: { ($0 as? SoundEngineError)?.caseName == "idNotFound" }
    }

    @Test func oneCallbackTypeTellsAPlayAndAPostingTheirEndOnce() throws {
        let rig = try Self.start()
        let playOutcome = PlayOutcome(), postOutcome = PlayOutcome()
        let play = try rig.engine.play(rig.engine.loadSound(sine(seconds: 0.05), name: "short"), callback: playOutcome.callback)
        let posting = try rig.engine.postEvent("Blip", on: Self.hero, callback: postOutcome.callback)
        #expect(rig.renderUntil { playOutcome.ended && postOutcome.ended })
        rig.render(9600)
        #expect(playOutcome.all.map(\.info) == [.endOfEvent(play)])
        #expect(postOutcome.all.map(\.info) == [.endOfEvent(posting)])
        #expect(Set(playOutcome.all.map(\.thread) + postOutcome.all.map(\.thread)) == ["SoundEngine-evt"])
        #expect(CallbackInfo.endOfEvent(play).playingID == play)
    }

    /// A posting's streamed voice whose file vanished tells the posting
    /// `voiceFailed` naming the file, then its end.
    @Test func aPostingsFailedStreamIsToldBeforeItsEnd() throws {
        let rig = try ContentRig()
        let file = rig.sineFile("music", seconds: 2)
        let sounds = ["music": BankSound(name: "music", file: file, stream: true)]
        let events = ["Music": BankEvent(name: "Music", actions: [BankAction(.play(object: "music", fadeIn: .zero))])]
        try rig.engine.loadBank(Bank(name: "streams", folder: rig.folder, sounds: sounds, events: events))
        try rig.engine.registerGameObject(Self.hero)
        try FileManager.default.removeItem(atPath: file)
        let outcome = PlayOutcome()
        let posting = try rig.engine.postEvent("Music", on: Self.hero, callback: outcome.callback)
        #expect(rig.renderUntil { outcome.ended })
        let told = outcome.all.map(\.info)
        #expect(told.count == 2 && told.last == .endOfEvent(posting), "\(told)")
        guard case .voiceFailed(let id, .fileNotFound(let why))? = told.first else {
            Issue.record("expected voiceFailed(fileNotFound) first, got \(told)")
            return
        }
        #expect(id == posting && why.contains("music.wav"), "\(why)")
    }

    @Test func contentIsNamedByALiteralANameOrAShortID() throws {
        let rig = try Self.start()
        let name = "Blip"
        let byLiteral = try rig.engine.postEvent("Blip", on: Self.hero)
        let byName = try rig.engine.postEvent(SoundEngine.ContentReference(name), on: Self.hero)
        let byID = try rig.engine.postEvent(.id(SoundEngine.ContentReference("blip").id), on: Self.hero)
        let byInterpolation = try rig.engine.postEvent("Bl\("ip")", on: Self.hero)
        #expect(Set([byLiteral, byName, byID, byInterpolation]).count == 4)
        // The short ID is Wwise's: FNV-1 of the lower-cased name.
        #expect(SoundEngine.ContentReference("Blip").id == ContentID("blip").rawValue)
        // Errors name the reference as written.
        #expect { try rig.engine.postEvent("Blop", on: Self.hero) } throws: { isIDNotFound($0, naming: "event 'Blop'") }
        #expect { try rig.engine.postEvent(.id(123), on: Self.hero) } throws: { isIDNotFound($0, naming: "event ID 123") }
    }
}
