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

/// The voice budget of a bank, the Wwise way (issue 17, item 1): an audible
/// limit below the pool, priorities and virtual behaviours from the bank,
/// and a full pool that a more important posting still gets into. Heard by
/// frequency analysis of the offline render.
@Suite struct VoiceBudgetTests {
    static let hero = GameObjectID(1)
    /// Sixteen looping tones, 400…2650 Hz, and their priorities, in an order
    /// that is not theirs.
    static let frequencies = (0..<16).map { 400 + 150 * Double($0) }
    static let priorities = [10, 85, 20, 75, 30, 65, 40, 55, 15, 80, 25, 70, 35, 60, 45, 50]
    static var highest: Set<Int> { Set(priorities.indices.sorted { priorities[$0] > priorities[$1] }.prefix(8)) }

    /// A rig whose bank has event `Tone<i>` playing tone `i` at its priority.
    static func rig(_ settings: InitSettings, behavior: String = "continue") throws -> ContentRig {
        let rig = try ContentRig(settings)
        var sounds: [String: BankSound] = [:], events: [String: BankEvent] = [:]
        for (i, f) in frequencies.enumerated() {
            let file = rig.sineFile("tone\(i)", frequency: f, amplitude: 0.05)
            sounds["tone\(i)"] = BankSound(
                name: "tone\(i)", file: file, loop: true, priority: priorities[i],
                virtualBehavior: VirtualVoiceBehavior(rawValue: behavior) ?? .kill)
            events["Tone\(i)"] = BankEvent(name: "Tone\(i)", actions: [BankAction(.play(object: "tone\(i)", fadeIn: .zero))])
        }
        try rig.engine.loadBank(Bank(name: "budget", folder: rig.folder, sounds: sounds, events: events))
        try rig.engine.registerGameObject(hero)
        return rig
    }

    /// Which tones are heard in `block` (left channel), by Goertzel amplitude.
    static func heard(_ block: [Float]) -> Set<Int> {
        let left = stride(from: 0, to: block.count, by: 2).map { block[$0] }
        return Set(frequencies.indices.filter { goertzel(left[...], frequency: frequencies[$0]) > 0.01 })
    }

    static func goertzel(_ x: ArraySlice<Float>, frequency: Double) -> Double {
        let c = 2 * cos(2 * Double.pi * frequency / 48_000)
        var s1 = 0.0, s2 = 0.0
        for v in x {
            let s0 = Double(v) + c * s1 - s2
            s2 = s1
            s1 = s0
        }
        return 2 * (s1 * s1 + s2 * s2 - c * s1 * s2).squareRoot() / Double(x.count)
    }

    @Test func eightAudibleOfSixteenAreTheEightHighestAndTheOthersComeBackInPhase() throws {
        var limited = InitSettings()
        limited.maxAudibleVoices = 8
        let rig = try Self.rig(limited)
        let reference = try Self.rig(InitSettings())  // no limit: plays only the eight others
        var postings: [PlayingID] = []
        let outcomes = (0..<16).map { _ in PlayOutcome() }
        for i in 0..<16 {
            postings.append(try rig.engine.postEvent("Tone\(i)", on: Self.hero, callback: outcomes[i].callback))
            if !Self.highest.contains(i) { try reference.engine.postEvent("Tone\(i)", on: Self.hero) }
        }
        rig.render(9600)
        reference.render(9600)
        let first = Self.heard(rig.render(9600))
        reference.render(9600)
        #expect(first == Self.highest, "heard: \(first.sorted())")
        #expect(rig.engine.statistics.voicesVirtual == 8)
        // The eight highest stop: the others are heard again where they would have been.
        for i in Self.highest { try rig.engine.stop(postings[i]) }
        rig.render(1024)
        reference.render(1024)
        let back = rig.render(9600), always = reference.render(9600)
        #expect(Self.heard(back) == Set(0..<16).subtracting(Self.highest))
        let worst = zip(back, always).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "in phase with voices that were never virtual: largest difference \(worst)")
        #expect(rig.engine.statistics.voicesVirtual == 0)
        // No posting was told it failed: a virtual voice is a voice.
        #expect(outcomes.allSatisfy { o in !o.all.contains { if case .voiceFailed = $0.info { true } else { false } } })
    }

    @Test func restartingVoicesComeBackFromTheirStart() throws {
        var limited = InitSettings()
        limited.maxAudibleVoices = 8
        let rig = try Self.rig(limited, behavior: "restart")
        var postings: [PlayingID] = []
        for i in 0..<16 { postings.append(try rig.engine.postEvent("Tone\(i)", on: Self.hero)) }
        rig.render(38 * 512)  // whole quanta: the next render starts where a quantum does, as the fresh rig's
        #expect(rig.engine.statistics.voicesVirtual == 8)
        // A restarted voice is at its start: in phase with the same tones posted now.
        let fresh = try Self.rig(InitSettings())
        for i in 0..<16 where !Self.highest.contains(i) { try fresh.engine.postEvent("Tone\(i)", on: Self.hero) }
        for i in Self.highest { try rig.engine.stop(postings[i]) }
        // The stops free the others in the next quantum, which starts them
        // from their start (fading in over the de-click); the fresh ones start then too.
        rig.render(1024)
        fresh.render(1024)
        let back = rig.render(9600), now = fresh.render(9600)
        #expect(Self.heard(back) == Set(0..<16).subtracting(Self.highest))
        let worst = zip(back, now).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "restarted from the start: largest difference \(worst)")
    }

    /// A pool of eight, sixteen postings in an order that is not their
    /// priority's: the eight highest are heard, each of the others was either
    /// taken over (and ended) or told it could not play — none is silent
    /// without a word.
    @Test func aFullPoolStillHearsTheMostImportantAndTellsTheRest() throws {
        var small = InitSettings()
        small.maxVoices = 8
        let rig = try Self.rig(small)
        let outcomes = (0..<16).map { _ in PlayOutcome() }
        var postings: [PlayingID] = []
        for i in 0..<16 {
            postings.append(try rig.engine.postEvent("Tone\(i)", on: Self.hero, callback: outcomes[i].callback))
            rig.render(512)  // each post takes its slot before the next comes
        }
        rig.render(4800)
        let heard = Self.heard(rig.render(9600))
        #expect(heard == Self.highest, "heard: \(heard.sorted())")
        #expect(rig.renderUntil { (0..<16).filter { !Self.highest.contains($0) }.allSatisfy { outcomes[$0].ended } })
        for i in 0..<16 where !Self.highest.contains(i) {
            let told = outcomes[i].all.map(\.info)
            let failed = told.contains { if case .voiceFailed(_, .maxReached(let why)) = $0 { why.contains("tone\(i)") } else { false } }
            let taken = !failed && told == [.endOfEvent(postings[i])]
            #expect(failed || taken, "tone \(i) (priority \(Self.priorities[i])): \(told)")
            #expect(told.last == .endOfEvent(postings[i]), "tone \(i) ends once: \(told)")
        }
        #expect(rig.engine.statistics.mixer.voicesStolen > 0)
        for i in Self.highest { #expect(try rig.engine.isPlaying(postings[i])) }
    }
}
