import SoundCore
import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundMixer
import SoundSession
import SoundServerSupport
import Synchronization
import Testing

/// Eight threads calling every content API at once while audio renders.
@Suite struct ContentStressTests {
    static let threads = 8
    static let iterations = 600

    static func extraBank(_ rig: ContentRig) -> Bank {
        Bank(
            name: "extra", folder: rig.folder,
            sounds: ["x": BankSound(name: "x", file: rig.sineFile("x", seconds: 0.1))],
            events: ["X": BankEvent(name: "X", actions: [BankAction(.play(object: "x", fadeIn: .zero))])])
    }

    @Test func everythingAtOnceEndsEveryPlayingIDOnceAndStillPlays() throws {
        let rig = try ContentRig()
        let engine = rig.engine
        try engine.loadBank(ContentEventTests.bank(rig))
        try engine.loadBank(ContentMixTests.bank(rig))
        let extra = Self.extraBank(rig)
        let ends = EndCounter()
        let posted = ControlLock<[PlayingID]>([])
        let unexpected = ControlLock<[String]>([])

        // The render thread: the offline clock, advanced as fast as it goes.
        let rendering = Atomic(true)
        let rendered = Atomic(0)
        let backend = rig.backend
        let renderer = JoinableThread {
            while rendering.load(ordering: .acquiring) {
                _ = backend.renderFloat(frames: 512)
                rendered.add(1, ordering: .relaxed)
            }
        }
        renderer.start()

        let events = ["Random", "Sequence", "Step", "Layers", "Blip", "Bed", "Later", "Both", "Engine", "Radio", "Music", "Line", "X"]
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            var rng = SystemRandomNumberGenerator()
            for i in 0..<Self.iterations {
                let object = GameObjectID(UInt64(Int.random(in: 1...12, using: &rng)))
                do throws(SoundEngineError) {
                    switch Int.random(in: 0..<12, using: &rng) {
                    case 0, 1, 2:
                        let id = try engine.postEvent(.init(events.randomElement(using: &rng)!), on: object, callback: ends.callback)
                        posted.withLock { $0.append(id) }
                    case 3:
                        if let id = posted.withLock({ $0.randomElement(using: &rng) }) {
                            try engine.stop(id, fade: .milliseconds(Int.random(in: 0...20, using: &rng)))
                        }
                    case 4:
                        try engine.setRTPCValue(
                            "Speed", Double.random(in: -10...110, using: &rng),
                            on: Bool.random(using: &rng) ? object : nil,
                            ramp: .milliseconds(Int.random(in: 0...100, using: &rng)))
                    case 5:
                        let p = Vector3(x: .random(in: -50...50), y: 0, z: .random(in: -50...50))
                        try engine.setPosition(object, p)
                    case 6:
                        try engine.registerGameObject(object)
                    case 7:
                        if i % 4 == 0 { try engine.unregisterGameObject(object) } else { try engine.registerGameObject(object) }
                    case 8:
                        if thread == 0 && i % 10 == 0 {
                            if (try? engine.unloadBank(BankID(name: "extra"))) == nil { try engine.loadBank(extra) }
                        }
                    case 9:
                        try engine.setState("Mode", Bool.random(using: &rng) ? "combat" : "explore")
                    case 10:
                        try engine.setSwitch("Surface", ["grass", "gravel", "snow"].randomElement(using: &rng)!, on: object)
                    default:
                        try engine.stopAll(on: object, fade: .milliseconds(5))
                    }
                } catch {
                    // Races make unknown objects and unloaded events normal; nothing else is.
                    switch error {
                    case .idNotFound, .invalidParameter, .maxReached: break
                    default: unexpected.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        #expect(unexpected.withLock { $0 }.isEmpty, "\(unexpected.withLock { $0.prefix(5) })")
        #expect(rendered.load(ordering: .relaxed) > 0)

        // Stop everything; every posting must end exactly once.
        let all = posted.withLock { $0 }
        try engine.stopAll()
        for id in all { try engine.stop(id) }
        let drained = eventually(within: 20) { all.allSatisfy { ends.count($0) >= 1 } }
        rendering.store(false, ordering: .releasing)
        renderer.join()
        #expect(drained, "\(all.filter { ends.count($0) == 0 }.count) of \(all.count) postings never ended")
        #expect(all.allSatisfy { ends.count($0) == 1 }, "a posting ended twice")
        #expect(Set(all).count == all.count, "a playing ID was handed out twice while in use")
        #expect(ends.total == all.count)
        #expect(rig.renderUntil { rig.contentVoiceCount == 0 })

        // The engine still plays.
        try engine.registerGameObject(GameObjectID(99))
        try engine.resetRTPCValue("Speed")
        try engine.postEvent("Radio", on: GameObjectID(99))
        rig.render(4800)
        #expect(rig.levels().left > 1e-4)
    }
}
