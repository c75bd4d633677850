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

/// `postEvent` queues the event's actions for the posting thread
/// (`SoundEngine-pst`) and returns (docs/content-engine.md, "Queued
/// posting"): the actions run without another call, calls made after a
/// post see it, and terminate ends what never ran.
@Suite struct QueuedPostTests {
    static let hero = ContentEventTests.hero

    /// Content voices as the engine holds them, without running what is
    /// queued (``ContentRig/contentVoiceCount`` would run it on this thread).
    static func voicesStarted(_ rig: ContentRig) -> Int { rig.engine.content.state.withLock { $0.voices.count } }

    @Test func thePostingThreadStartsTheVoicesWithoutAnotherCall() throws {
        let rig = try ContentEventTests.start()
        let id = try rig.engine.postEvent("Bed", on: Self.hero)
        #expect(try rig.engine.isPlaying(id), "a posting is playing from the moment postEvent returns")
        // No render, no content call: only the posting thread can start it.
        #expect(eventually { Self.voicesStarted(rig) == 1 }, "the posting thread never ran the queued post")
        #expect(rig.engine.content.state.withLock { $0.queuedPosts.isEmpty && $0.playings[id]?.queued == false })
        #expect(threadNames().contains("SoundEngine-pst"))
    }

    /// A stop made after a post reaches the voices the post starts, whichever
    /// thread runs the post: the stop runs what was queued before it first.
    @Test func aStopRightAfterAPostSilencesIt() throws {
        let rig = try ContentEventTests.start()
        let ends = EndCounter()
        var ids: [PlayingID] = []
        for _ in 0..<20 {
            ids.append(try rig.engine.postEvent("Bed", on: Self.hero, callback: ends.callback))
            try rig.engine.stopAll(on: Self.hero)
        }
        rig.render(4800)  // the de-click fades
        let after = rig.levels()
        #expect(after.left < 1e-4 && after.right < 1e-4, "a post ran after the stop that followed it: \(after)")
        #expect(rig.renderUntil { ids.allSatisfy { ends.count($0) == 1 } })
        #expect(ends.total == 20)
    }

    @Test func aReadAfterAPostSeesItsActions() throws {
        let rig = try ContentEventTests.start()
        for _ in 0..<20 {
            try rig.engine.setState("TimeOfDay", "day")
            try rig.engine.postEvent("Night", on: Self.hero)
            #expect(try rig.engine.currentState("TimeOfDay") == "night")
        }
    }

    /// A post the engine refuses changes nothing and queues nothing.
    @Test func aRefusedPostQueuesNothing() throws {
        let rig = try ContentEventTests.start()
        #expect(throws: SoundEngineError.self) { try rig.engine.postEvent("Nope", on: Self.hero) }
        #expect(throws: SoundEngineError.self) { try rig.engine.postEvent("Bed", on: GameObjectID(77)) }
        #expect(rig.engine.content.state.withLock { $0.queuedPosts.isEmpty && $0.playings.isEmpty })
    }

    /// Posts still queued when the engine terminates never start a voice,
    /// and each still gets its one end-of-event callback; the posting
    /// thread is gone.
    @Test func terminateEndsEveryQueuedPostOnce() throws {
        let rig = try ContentEventTests.start()
        let ends = EndCounter()
        var ids: [PlayingID] = []
        for _ in 0..<200 { ids.append(try rig.engine.postEvent("Blip", on: Self.hero, callback: ends.callback)) }
        rig.engine.terminate()
        #expect(eventually { ids.allSatisfy { ends.count($0) == 1 } }, "ended: \(ends.total) of 200")
        #expect(ends.total == 200)
        #expect(rig.engine.content.state.withLock { $0.queuedPosts.isEmpty && $0.playings.isEmpty })
        #expect(throws: SoundEngineError.notInitialized) { try rig.engine.postEvent("Blip", on: Self.hero) }
    }

    /// The thread under the posting thread: every wake is followed by a run
    /// that sees what the waker wrote before it, a burst may share a run,
    /// and `stop` joins the thread.
    @Test func aWakeableThreadRunsAfterEveryWakeAndStops() throws {
        let name = "wt-\(UInt32.random(in: 0..<UInt32.max))"
        let thread = WakeableThread(name: name)
        let written = Atomic(0)
        let seen = Atomic(0)
        let runs = Atomic(0)
        thread.start {
            seen.store(written.load(ordering: .relaxed), ordering: .relaxed)
            runs.add(1, ordering: .relaxed)
        }
        #expect(eventually { threadNames().contains(name) })
        for i in 1...500 {
            written.store(i, ordering: .relaxed)
            thread.wake()
            if i % 50 == 0 { #expect(eventually { seen.load(ordering: .relaxed) == i }, "wake \(i) was lost") }
        }
        #expect(runs.load(ordering: .relaxed) <= 500)
        thread.stop()
        thread.stop()  // idempotent
        #expect(!threadNames().contains(name), "stop returned before the thread ended")
        let before = runs.load(ordering: .relaxed)
        thread.wake()
        #expect(runs.load(ordering: .relaxed) == before)
    }

    /// The names of this process's threads.
    func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
