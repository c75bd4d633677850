import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundServerSupport
import Synchronization
import Testing

/// Control of a playing sound (issue 17, item 4): seek by time and by
/// fraction, in memory and streamed, looping too; the play position; the
/// duration callback; RTPCs per posting. Measured on the offline render:
/// the test sounds are ramps, whose every sample says which source frame it is.
@Suite struct PlayControlTests {
    static let hero = GameObjectID(7)
    static let quantum = 512
    /// Source frames of the ramp sounds (2 s at 48 kHz).
    static let length = 96_000
    /// The ramp's step per frame: sample n is (n + 1) · step, at most 0.25.
    static let step = 0.25 / Double(length)

    /// Writes a mono float32 WAV whose sample n is (n + 1) · ``step``.
    static func rampFile(_ rig: ContentRig, _ name: String) -> String {
        let samples = (0..<length).map { Float(Double($0 + 1) * step) }
        let path = rig.folder + "/" + name + ".wav"
        _ = FileManager.default.createFile(atPath: path, contents: WaveFile.monoFloat32(samples, rate: ContentRig.rate))
        return path
    }

    /// Renders whole quanta until `frames` frames have been heard since the
    /// output was first not silent (a stream waits for its buffer; the
    /// streaming thread fills it meanwhile), and returns the left channel.
    static func renderHeard(_ rig: ContentRig, _ frames: Int, skip: Int = 0) -> [Float] {
        var left: [Float] = []
        var firstHeard: Int?
        _ = eventually {
            let block = rig.render(quantum)
            for i in stride(from: 0, to: block.count, by: 2) { left.append(block[i]) }
            if firstHeard == nil, let i = left.indices.dropFirst(skip).first(where: { abs(left[$0]) > 1e-7 }) { firstHeard = i }
            return firstHeard.map { left.count - $0 >= frames } ?? false
        }
        return left
    }

    /// Where the ramp heard in `left` (indices from the seek's quantum)
    /// started from `target`: the line through two late samples, followed
    /// back to where it was at `target`. Returns that index (a voice that
    /// started at `target` on a quantum boundary gives a multiple of the
    /// quantum) and the ramp's slope, the voice's gain times ``step``.
    static func landing(_ left: [Float], target: Int) -> (start: Double, slope: Double) {
        let i2 = left.count - 1, i1 = left.count - 4001
        let slope = (Double(left[i2]) - Double(left[i1])) / Double(i2 - i1)
        let source1 = Double(left[i1]) / slope - 1  // the source frame heard at i1
        return (Double(i1) - (source1 - Double(target)), slope)
    }

    /// The most any sample from `from` on is off the ramp that starts at
    /// `target` at index `start` with `slope`.
    static func offRamp(_ left: [Float], from: Int, start: Double, slope: Double, target: Int) -> Double {
        (from..<left.count).map { abs(Double(left[$0]) - slope * (Double(target) + Double($0) - start + 1)) }.max() ?? 0
    }

    /// Plays `sound`, lets it run `before` frames, seeks with `seek`, and
    /// checks the ramp heard after it is the one that starts at `target`:
    /// on the seek's quantum for a sound in memory, on a later quantum
    /// boundary (after silence) for a stream, which refills first.
    static func checkSeek(
        streaming: Bool, loop: Bool, before: Int = 9 * 512, target: Int, _ seek: (ContentRig, PlayingID) throws -> Void
    ) throws {
        let rig = try ContentRig()
        let sound = try rig.engine.loadSound(path: rampFile(rig, "ramp"), streaming: streaming)
        let play = try rig.engine.play(sound, PlayParameters(loop: loop))
        _ = renderHeard(rig, before)
        try seek(rig, play)
        let left = renderHeard(rig, 12_288, skip: 4 * quantum)
        let (start, slope) = landing(left, target: target)
        let boundary = (start / Double(quantum)).rounded() * Double(quantum)
        #expect(abs(start - boundary) < 0.5, "started from \(target) at index \(start): not on a quantum boundary")
        #expect(start > -0.5, "the ramp heard started from \(target) before the seek (at \(start)): it landed late")
        if !streaming {
            #expect(abs(start) < 0.5, "in memory it plays from \(target) in the seek's own quantum, not at \(start)")
        } else {
            // Silent between the old place's fade-out and the new start.
            let gap = (128..<max(128, Int(boundary))).map { abs(left[$0]) }.max() ?? 0
            #expect(gap < 1e-6, "heard \(gap) while the stream refilled")
        }
        #expect(abs(slope - step * 0.5.squareRoot()) < step * 1e-3, "slope \(slope): the gain changed")
        let off = offRamp(left, from: max(0, Int(boundary)) + 128, start: start, slope: slope, target: target)
        #expect(off < 1e-5, "off the ramp from \(target) by \(off)")
        // The position follows the render: the target plus the frames heard since.
        let heard = left.count - max(0, Int(boundary))
        let position = try #require(try rig.engine.playPosition(play))
        let expected = Double(target + heard) / Double(ContentRig.rate)
        #expect(abs(TimeArgument.seconds(position) - expected) < 1e-4, "position \(position), expected \(expected) s")
    }

    @Test(arguments: [false, true])
    func aSeekByTimeLandsOnItsFrame(streaming: Bool) throws {
        try Self.checkSeek(streaming: streaming, loop: false, target: 30_000) { rig, play in
            try rig.engine.seek(play, to: .milliseconds(625))  // 30 000 frames at 48 kHz
        }
    }

    @Test(arguments: [false, true])
    func aSeekBackwardsLandsToo(streaming: Bool) throws {
        try Self.checkSeek(streaming: streaming, loop: false, before: 60 * 512, target: 4_800) { rig, play in
            try rig.engine.seek(play, to: .milliseconds(100))
        }
    }

    @Test(arguments: [false, true])
    func aSeekByFractionLandsOnItsShareOfTheLength(streaming: Bool) throws {
        try Self.checkSeek(streaming: streaming, loop: false, target: 24_000) { rig, play in
            try rig.engine.seek(play, toFraction: 0.25)
        }
    }

    /// A looping sound sought a lap and more ahead wraps into its loop.
    @Test(arguments: [false, true])
    func aLoopSoughtPastItsEndWrapsIntoItsLoop(streaming: Bool) throws {
        try Self.checkSeek(streaming: streaming, loop: true, target: 24_000) { rig, play in
            try rig.engine.seek(play, to: .milliseconds(2500))  // a lap (96 000) and 24 000
        }
    }

    @Test(arguments: [false, true])
    func aOneShotSoughtPastItsEndStops(streaming: Bool) throws {
        let rig = try ContentRig()
        let sound = try rig.engine.loadSound(path: Self.rampFile(rig, "ramp"), streaming: streaming)
        let outcome = PlayOutcome()
        let play = try rig.engine.play(sound, callback: outcome.callback)
        _ = Self.renderHeard(rig, 2048)
        try rig.engine.seek(play, to: .seconds(3))
        #expect(rig.renderUntil { outcome.ended })
        #expect(try rig.engine.playPosition(play) == nil)
        #expect(try !rig.engine.isPlaying(play))
    }

    /// Paused, sought, resumed: it stays silent while paused and resumes at
    /// the new place.
    @Test(arguments: [false, true])
    func aPausedSoundSoughtStaysPausedThenResumesThere(streaming: Bool) throws {
        let rig = try ContentRig()
        let sound = try rig.engine.loadSound(path: Self.rampFile(rig, "ramp"), streaming: streaming)
        let play = try rig.engine.play(sound)
        _ = Self.renderHeard(rig, 4096)
        try rig.engine.pause(play)
        rig.render(2048)
        try rig.engine.seek(play, to: .milliseconds(500))  // 24 000
        // The stream refills while paused; nothing is heard meanwhile.
        var quiet: Float = 0
        for _ in 0..<20 {
            quiet = max(quiet, rig.render(Self.quantum).map(abs).max() ?? 0)
            Thread.sleep(forTimeInterval: 0.005)  // lets the streaming thread refill; what is asserted is silence
        }
        #expect(quiet < 1e-7, "a paused sound was heard (\(quiet)) after its seek")
        try rig.engine.resume(play)
        let left = Self.renderHeard(rig, 8192)
        let (start, slope) = Self.landing(left, target: 24_000)
        #expect(abs(start - (start / 512).rounded() * 512) < 0.5 && start > -0.5, "resumed from 24 000 at \(start)")
        #expect(abs(slope - Self.step * 0.5.squareRoot()) < Self.step * 1e-3)
    }

    /// The old place fades out as the new one fades in: the largest step
    /// across the seek is no more than the de-click fade allows.
    @Test func aSeekDoesNotClick() throws {
        let rig = try ContentRig()
        let file = rig.sineFile("tone", frequency: 440, amplitude: 0.5, seconds: 2)
        let tone = try rig.engine.loadSound(path: file)
        let play = try rig.engine.play(tone, PlayParameters(loop: true))
        rig.render(4096)
        var left: [Float] = []
        func take(_ frames: Int) {
            let block = rig.render(frames)
            for i in stride(from: 0, to: block.count, by: 2) { left.append(block[i]) }
        }
        take(4096)
        try rig.engine.seek(play, to: .microseconds(1_234_567))  // a phase far from where it is
        take(4096)
        let steps = zip(left, left.dropFirst()).map { abs($1 - $0) }
        // The tone alone moves at most 2π · 440 / 48 000 · 0.5 · 0.707 per frame.
        let own = Float(2 * Double.pi * 440 / 48_000 * 0.5 * 0.5.squareRoot())
        #expect((steps.max() ?? 1) < own * 1.25, "largest step \(steps.max() ?? 1), the tone's own \(own)")
    }

    @Test func badSeeksAreRefusedNamingWhatWasWrong() throws {
        let rig = try ContentRig()
        let sound = try rig.engine.loadSound(path: Self.rampFile(rig, "ramp"))
        let play = try rig.engine.play(sound)
        rig.render(1024)
        #expect { try rig.engine.seek(play, to: .seconds(-1)) } throws: { isInvalidParameter($0, naming: "seek position") }
        #expect { try rig.engine.seek(play, to: .seconds(4000)) } throws: { isInvalidParameter($0, naming: "seek position") }
        for bad in [Double.nan, .infinity, -0.1, 1.5] {
            #expect { try rig.engine.seek(play, toFraction: bad) } throws: { isInvalidParameter($0, naming: "seek fraction") }
        }
        // Nothing moved.
        rig.render(1024)
        let position = try #require(try rig.engine.playPosition(play))
        #expect(abs(TimeArgument.seconds(position) - 2048.0 / 48_000) < 1e-6, "\(position)")
        // An ended play's seek is ignored, as its stop is.
        try rig.engine.stop(play)
        #expect(try rig.renderUntil { try !rig.engine.isPlaying(play) })
        try rig.engine.seek(play, to: .zero)
        #expect(try rig.engine.playPosition(play) == nil)
    }

    // MARK: Postings

    /// A bank whose event `Both` plays two ramps together, `Ramp` one, and
    /// whose RTPC `Level` turns `ramp` down from 0 dB (100) to −40 dB (0).
    static func contentRig(streamB: Bool = false) throws -> ContentRig {
        let rig = try ContentRig()
        let a = rampFile(rig, "a"), b = rampFile(rig, "b")
        let sounds = [
            "ramp": BankSound(name: "ramp", file: a, loop: true),
            "other": BankSound(name: "other", file: b, stream: streamB, loop: true),
        ]
        let events = [
            "Ramp": BankEvent(name: "Ramp", actions: [BankAction(.play(object: "ramp", fadeIn: .zero))]),
            "Both": BankEvent(
                name: "Both",
                actions: [BankAction(.play(object: "ramp", fadeIn: .zero)), BankAction(.play(object: "other", fadeIn: .zero))]),
        ]
        let rtpcs = [
            "Level": BankRTPC(
                name: "Level", range: 0...100, defaultValue: 100,
                bindings: [RTPCBinding(target: .volume(object: "ramp"), curve: Curve(points: [(0, -40), (100, 0)]))])
        ]
        try rig.engine.loadBank(Bank(name: "control", folder: rig.folder, sounds: sounds, rtpcs: rtpcs, events: events))
        try rig.engine.registerGameObject(hero)
        return rig
    }

    @Test func aPostingSeeksEveryVoiceAndReportsItsFirstVoicesPosition() throws {
        let rig = try Self.contentRig()  // both in memory: both land in the seek's quantum
        let posting = try rig.engine.postEvent("Both", on: Self.hero)
        _ = Self.renderHeard(rig, 4096)
        try rig.engine.seek(posting, to: .milliseconds(250))  // 12 000
        let left = Self.renderHeard(rig, 12_288, skip: 4 * Self.quantum)
        // Both ramps run from 12 000 again, from the seek's quantum: their sum is a ramp twice as steep.
        let (start, slope) = Self.landing(left, target: 12_000)
        #expect(abs(slope - 2 * Self.step * 0.5.squareRoot()) < Self.step * 1e-3, "slope \(slope): not both ramps")
        #expect(abs(start) < 0.5, "landed at \(start)")
        let off = Self.offRamp(left, from: 128, start: start, slope: slope, target: 12_000)
        #expect(off < 1e-5, "the two voices are not both at 12 000 + n (off by \(off))")
        let position = try #require(try rig.engine.playPosition(posting))
        let expected = Double(12_000 + left.count) / Double(ContentRig.rate)
        #expect(abs(TimeArgument.seconds(position) - expected) < 1e-4, "position \(position), expected \(expected) s")
    }

    @Test func eachVoiceOfAPostingSaysItsDurationWhenItStartsWhenAsked() throws {
        let rig = try Self.contentRig(streamB: true)
        let outcome = PlayOutcome(), plain = PlayOutcome()
        let posting = try rig.engine.postEvent("Both", on: Self.hero, callbackTypes: .all, callback: outcome.callback)
        let unasked = try rig.engine.postEvent("Both", on: Self.hero, callback: plain.callback)
        #expect(rig.renderUntil { outcome.all.count >= 2 })
        let told = outcome.all.map(\.info)
        #expect(
            Set(told) == [
                .duration(posting, sound: "ramp", length: .seconds(2), streaming: false),
                .duration(posting, sound: "other", length: .seconds(2), streaming: true),
            ], "\(told)")
        try rig.engine.stop(posting)
        try rig.engine.stop(unasked)
        #expect(rig.renderUntil { outcome.ended && plain.ended })
        #expect(outcome.all.count == 3 && outcome.all.last?.info == .endOfEvent(posting))
        // Not asked (the default types): the end only, as a `{ _ in done() }` callback expects.
        #expect(plain.all.map(\.info) == [.endOfEvent(unasked)])
    }

    /// A play's duration comes before its end whichever path sends it: the
    /// event thread's poll, or the completion of a voice that ended first.
    @Test func aPlaySaysItsDurationBeforeItsEndOnceWhenAsked() throws {
        let rig = try ContentRig()
        let blipPath = rig.sineFile("blip", seconds: 0.05), rampPath = Self.rampFile(rig, "ramp")
        let blip = try rig.engine.loadSound(path: blipPath)
        let ramp = try rig.engine.loadSound(path: rampPath, streaming: true)  // a sound loaded from a file is named by its path
        let short = PlayOutcome(), streamed = PlayOutcome(), ends = PlayOutcome()
        let a = try rig.engine.play(blip, callbackTypes: .all, callback: short.callback)
        let b = try rig.engine.play(ramp, callbackTypes: [.duration], callback: streamed.callback)
        let c = try rig.engine.play(blip, callbackTypes: [.endOfEvent], callback: ends.callback)
        rig.render(4096)  // the blips end within this render, maybe before the event thread polls
        #expect(rig.renderUntil { short.ended && ends.ended && !streamed.all.isEmpty })
        #expect(short.all.map(\.info) == [.duration(a, sound: blipPath, length: .milliseconds(50), streaming: false), .endOfEvent(a)])
        #expect(ends.all.map(\.info) == [.endOfEvent(c)])
        #expect(short.all.allSatisfy { $0.thread == "SoundEngine-evt" })
        try rig.engine.stop(b)
        #expect(try rig.renderUntil { try !rig.engine.isPlaying(b) })
        rig.render(2048)
        #expect(streamed.all.map(\.info) == [.duration(b, sound: rampPath, length: .seconds(2), streaming: true)], "only what it asked for")
    }

    /// Two postings of one event on one game object: an RTPC set on one
    /// turns only its voices down, and resetting it hands them back.
    @Test func anRTPCSetOnAPostingMovesOnlyItsVoices() throws {
        let rig = try ContentRig()
        let low = rig.sineFile("low", frequency: 500, amplitude: 0.2, seconds: 1)
        let high = rig.sineFile("high", frequency: 1500, amplitude: 0.2, seconds: 1)
        let sounds = [
            "low": BankSound(name: "low", file: low, loop: true), "high": BankSound(name: "high", file: high, loop: true),
        ]
        let events = [
            "Low": BankEvent(name: "Low", actions: [BankAction(.play(object: "low", fadeIn: .zero))]),
            "High": BankEvent(name: "High", actions: [BankAction(.play(object: "high", fadeIn: .zero))]),
        ]
        let curve = Curve(points: [(0, -40), (100, 0)])
        let rtpcs = [
            "Level": BankRTPC(
                name: "Level", range: 0...100, defaultValue: 100,
                bindings: [RTPCBinding(target: .volume(object: "low"), curve: curve), RTPCBinding(target: .volume(object: "high"), curve: curve)])
        ]
        try rig.engine.loadBank(Bank(name: "levels", folder: rig.folder, sounds: sounds, rtpcs: rtpcs, events: events))
        try rig.engine.registerGameObject(Self.hero)
        let lowPosting = try rig.engine.postEvent("Low", on: Self.hero)
        let highPosting = try rig.engine.postEvent("High", on: Self.hero)
        rig.render(4096)
        func amplitudes() -> (low: Double, high: Double) {
            let block = rig.render(9600)
            let left = stride(from: 0, to: block.count, by: 2).map { block[$0] }
            return (VoiceBudgetTests.goertzel(left[...], frequency: 500), VoiceBudgetTests.goertzel(left[...], frequency: 1500))
        }
        let before = amplitudes()
        try rig.engine.setRTPCValue("Level", 50, on: lowPosting)  // −20 dB for the low tone's posting only
        #expect(try rig.engine.rtpcValue("Level", on: lowPosting) == 50)
        #expect(try rig.engine.rtpcValue("Level", on: highPosting) == 100)
        #expect(try rig.engine.rtpcValue("Level", on: Self.hero) == 100)
        rig.render(2048)
        let after = amplitudes()
        #expect(abs(dB(after.low / before.low) + 20) < 0.5, "the posting's voice moved \(dB(after.low / before.low)) dB")
        #expect(abs(dB(after.high / before.high)) < 0.1, "the other posting's voice moved \(dB(after.high / before.high)) dB")
        // The game object's value does not override the posting's.
        try rig.engine.setRTPCValue("Level", 0, on: Self.hero)
        rig.render(2048)
        let objectSet = amplitudes()
        #expect(abs(dB(objectSet.low / before.low) + 20) < 0.5)
        #expect(abs(dB(objectSet.high / before.high) + 40) < 0.5)
        try rig.engine.resetRTPCValue("Level", on: lowPosting)
        rig.render(2048)
        let reset = amplitudes()
        #expect(abs(dB(reset.low / before.low) + 40) < 0.5, "after reset the posting follows its game object")
        // A ramp moves from where the posting's voices are.
        try rig.engine.setRTPCValue("Level", 100, on: lowPosting, ramp: .milliseconds(500))
        #expect(try rig.engine.rtpcValue("Level", on: lowPosting) < 10)
    }

    @Test func perPostingRTPCsRefuseWhatIsNotAPosting() throws {
        let rig = try Self.contentRig()
        let sound = try rig.engine.loadSound(path: Self.rampFile(rig, "plain"))
        let play = try rig.engine.play(sound)
        #expect { try rig.engine.setRTPCValue("Level", 1, on: play) } throws: { isInvalidParameter($0, naming: "a play of a sound") }
        #expect { try rig.engine.rtpcValue("Level", on: play) } throws: { isInvalidParameter($0, naming: "a play of a sound") }
        let posting = try rig.engine.postEvent("Ramp", on: Self.hero)
        #expect { try rig.engine.setRTPCValue("Level", .nan, on: posting) } throws: { isInvalidParameter($0, naming: "value") }
        #expect { try rig.engine.setRTPCValue("Nope", 1, on: posting) } throws: { isIDNotFound($0, naming: "Nope") }
        #expect { try rig.engine.setRTPCValue("Level", 1, on: posting, ramp: .seconds(-1)) } throws: {
            isInvalidParameter($0, naming: "setRTPCValue ramp")
        }
        #expect(try rig.engine.rtpcValue("Level", on: posting) == 100, "a refused call changed nothing")
        try rig.engine.stop(posting)
        #expect(try rig.renderUntil { try !rig.engine.isPlaying(posting) })
        try rig.engine.setRTPCValue("Level", 1, on: posting)  // ended: ignored
        #expect { try rig.engine.rtpcValue("Level", on: posting) } throws: { isIDNotFound($0, naming: "has ended") }
    }
}
