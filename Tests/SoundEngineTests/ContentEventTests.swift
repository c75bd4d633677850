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

/// Events, containers and end-of-event callbacks, on the offline backend.
@Suite struct ContentEventTests {
    static let hero = GameObjectID(1)
    static let npc = GameObjectID(2)

    /// A bank of short blips "a"…"d" and containers over them.
    static func bank(_ rig: ContentRig, avoidRepeat: Int = 2) -> Bank {
        var sounds: [String: BankSound] = [:]
        for (i, name) in ["a", "b", "c", "d"].enumerated() {
            sounds[name] = BankSound(name: name, file: rig.sineFile(name, frequency: 500 + 100 * Double(i), seconds: 0.05))
        }
        sounds["bed"] = BankSound(name: "bed", file: rig.sineFile("bed"), loop: true)
        let containers: [String: BankContainer] = [
            "rnd": BankContainer(
                name: "rnd", kind: .random(weights: [1, 1, 1, 1], avoidRepeatCount: avoidRepeat),
                children: ["a", "b", "c", "d"]),
            "seq": BankContainer(name: "seq", kind: .sequence(loop: true), children: ["a", "b", "c"]),
            "surface": BankContainer(
                name: "surface", kind: .switchGroup(group: "Surface", defaultChild: "d"), children: ["a", "b"],
                switchChildren: ["grass": "a", "gravel": "b"]),
            "layers": BankContainer(name: "layers", kind: .blend, children: ["a", "seq"]),
        ]
        let events: [String: BankEvent] = [
            "Random": BankEvent(name: "Random", actions: [BankAction(.play(object: "rnd", fadeIn: .zero))]),
            "Sequence": BankEvent(name: "Sequence", actions: [BankAction(.play(object: "seq", fadeIn: .zero))]),
            "Step": BankEvent(name: "Step", actions: [BankAction(.play(object: "surface", fadeIn: .zero))]),
            "Layers": BankEvent(name: "Layers", actions: [BankAction(.play(object: "layers", fadeIn: .zero))]),
            "Blip": BankEvent(name: "Blip", actions: [BankAction(.play(object: "a", fadeIn: .zero))]),
            "Bed": BankEvent(name: "Bed", actions: [BankAction(.play(object: "bed", fadeIn: .zero))]),
            "Night": BankEvent(name: "Night", actions: [BankAction(.setState(group: "TimeOfDay", state: "night"))]),
            "Later": BankEvent(
                name: "Later",
                actions: [
                    BankAction(.play(object: "a", fadeIn: .zero), delay: .milliseconds(100)),
                    BankAction(.setState(group: "TimeOfDay", state: "night"), delay: .milliseconds(300)),
                ]),
            "StopLater": BankEvent(
                name: "StopLater",
                actions: [
                    BankAction(.play(object: "bed", fadeIn: .zero)),
                    BankAction(.stop(object: "bed", fadeOut: .zero, scope: .gameObject), delay: .milliseconds(300)),
                ]),
            "Forever": BankEvent(
                name: "Forever", actions: [BankAction(.setState(group: "TimeOfDay", state: "night"), delay: .seconds(60))]),
            "Both": BankEvent(name: "Both", actions: [BankAction(.post(event: "Blip")), BankAction(.post(event: "Bed"))]),
        ]
        return Bank(
            name: "events", folder: rig.folder, sounds: sounds, containers: containers,
            stateGroups: ["TimeOfDay": BankStateGroup(name: "TimeOfDay", states: ["day", "night"], defaultState: "day")],
            switchGroups: ["Surface": BankSwitchGroup(name: "Surface", values: ["grass", "gravel", "snow"], defaultValue: "snow")],
            events: events)
    }

    static func start(avoidRepeat: Int = 2) throws -> ContentRig {
        let rig = try ContentRig()
        try rig.engine.loadBank(bank(rig, avoidRepeat: avoidRepeat))
        try rig.engine.registerGameObject(hero, name: "hero")
        try rig.engine.registerGameObject(npc, name: "npc")
        return rig
    }

    /// The sound a posting played (the last name on its one voice's path).
    static func played(_ rig: ContentRig, _ id: PlayingID) -> String? {
        let names = ["a", "b", "c", "d", "bed"]
        guard let last = rig.playingPaths(id).first?.last else { return nil }
        return names.first { ContentID($0) == last }
    }

    @Test func aRandomContainerNeverRepeatsItsRecentPicks() throws {
        let rig = try Self.start(avoidRepeat: 2)
        var picks: [String] = []
        for i in 0..<1000 {
            let id = try rig.engine.postEvent("Random", on: Self.hero)
            picks.append(try #require(Self.played(rig, id)))
            try rig.engine.stop(id)
            if i % 100 == 99 { #expect(rig.renderUntil { rig.contentVoiceCount == 0 }) }
        }
        for i in 2..<picks.count {
            #expect(picks[i] != picks[i - 1] && picks[i] != picks[i - 2], "pick \(i) repeats: \(picks[(i - 2)...i])")
        }
        let counts = Dictionary(grouping: picks, by: { $0 }).mapValues(\.count)
        #expect(counts.count == 4 && counts.values.allSatisfy { $0 > 150 }, "uneven picks: \(counts)")
    }

    @Test func aSequenceContainerKeepsItsOrderPerGameObject() throws {
        let rig = try Self.start()
        var hero: [String] = [], npc: [String] = []
        for i in 0..<7 {
            hero.append(try #require(Self.played(rig, try rig.engine.postEvent("Sequence", on: Self.hero))))
            if i % 2 == 0 { npc.append(try #require(Self.played(rig, try rig.engine.postEvent("Sequence", on: Self.npc)))) }
        }
        #expect(hero == ["a", "b", "c", "a", "b", "c", "a"])
        #expect(npc == ["a", "b", "c", "a"])
    }

    @Test func aSwitchContainerFollowsTheGameObjectsSwitch() throws {
        let rig = try Self.start()
        // "snow" has no child: the container's default child plays.
        #expect(Self.played(rig, try rig.engine.postEvent("Step", on: Self.hero)) == "d")
        try rig.engine.setSwitch("Surface", "grass", on: Self.hero)
        #expect(Self.played(rig, try rig.engine.postEvent("Step", on: Self.hero)) == "a")
        try rig.engine.setSwitch(.id(ContentID("Surface")), .id(ContentID("gravel")), on: Self.hero)
        #expect(Self.played(rig, try rig.engine.postEvent("Step", on: Self.hero)) == "b")
        #expect(try rig.engine.switchValue("Surface", on: Self.hero) == "gravel")
        // Per object: the npc still walks on the default.
        #expect(Self.played(rig, try rig.engine.postEvent("Step", on: Self.npc)) == "d")
    }

    @Test func aBlendPlaysEveryChildAndPostsShareThePlayingID() throws {
        let rig = try Self.start()
        let layers = try rig.engine.postEvent("Layers", on: Self.hero)
        #expect(rig.playingPaths(layers).count == 2)
        let both = try rig.engine.postEvent("Both", on: Self.hero)
        #expect(rig.playingPaths(both).count == 2)
    }

    @Test func anEventThatPlaysOutEndsOnceOnTheEventThread() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let id = try rig.engine.postEvent("Blip", on: Self.hero, callback: ends.callback)
        #expect(try rig.engine.isPlaying(id))
        #expect(rig.renderUntil { ends.count(id) == 1 })
        for _ in 0..<20 { rig.render() }
        #expect(eventually(within: 0.2) { ends.count(id) > 1 } == false)
        #expect(ends.count(id) == 1)
        #expect(ends.threads.withLock { $0 } == ["SoundEngine-evt"])
        #expect(try !rig.engine.isPlaying(id))
    }

    @Test func stoppingAPlayingIDEndsItOnce() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let id = try rig.engine.postEvent("Bed", on: Self.hero, callback: ends.callback)
        rig.render(4800)
        try rig.engine.stop(id, fade: .milliseconds(20))
        try rig.engine.stop(id)  // again, and while fading: nothing more
        #expect(rig.renderUntil { ends.count(id) == 1 })
        try rig.engine.stop(id)  // after the end: ignored
        for _ in 0..<10 { rig.render() }
        #expect(ends.count(id) == 1)
    }

    @Test func anEventThatPlaysNothingEndsAtOnce() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let id = try rig.engine.postEvent("Night", on: Self.hero, callback: ends.callback)
        #expect(eventually(within: 2) { ends.count(id) == 1 })  // no rendering needed
        #expect(try rig.engine.currentState("TimeOfDay") == "night")
    }

    @Test func anEventWithDelaysEndsAfterItsLastAction() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let id = try rig.engine.postEvent("Later", on: Self.hero, callback: ends.callback)
        #expect(rig.renderUntil { ends.count(id) == 1 })
        // The setState at 300 ms is the last action: the end cannot come
        // before the mixer clock got there.
        #expect(rig.engine.mixer.renderedFrames >= Int64(0.3 * Double(ContentRig.rate)))
        #expect(try rig.engine.currentState("TimeOfDay") == "night")
        for _ in 0..<10 { rig.render() }
        #expect(ends.count(id) == 1)
    }

    /// Issue 15: a delayed play starts at a frame of the mixer clock, which
    /// holds while nothing renders (a suspended engine); a delayed stop ran
    /// on wall time and could come before the play it follows. Here the
    /// mixer clock is the test's: wall time passes 300 ms while it stays at
    /// 100 ms, and the bed keeps playing until it has rendered past 300 ms.
    @Test func aDelayedStopWaitsForTheMixerClockNotTheWallClock() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let id = try rig.engine.postEvent("StopLater", on: Self.hero, callback: ends.callback)
        let before = rig.levels(4800)  // mixer clock: 0…100 ms
        #expect(before.left > 0.2, "the bed is not playing: \(before)")
        // Three times the delay on the wall clock, nothing rendered: nothing ends.
        #expect(!eventually(within: 0.9) { ends.count(id) > 0 })
        // Mixer clock 100…200 ms: still before the stop, the bed plays on at its level.
        let after = rig.levels(4800)
        #expect(abs(after.left - before.left) < 0.05 * before.left, "level \(before.left) → \(after.left)")
        #expect(try ends.count(id) == 0 && rig.engine.isPlaying(id))
        // Past 300 ms of mixer clock the stop runs and the posting ends.
        #expect(rig.renderUntil { ends.count(id) == 1 })
        #expect(rig.engine.mixer.renderedFrames >= Int64(0.3 * Double(ContentRig.rate)))
        #expect(rig.levels(1024).left == 0)
    }

    /// Idle corking holds the mixer clock; a delayed action waiting for it
    /// keeps the engine from idling, so it runs, and the engine idles after.
    @Test func aWaitingDelayedActionKeepsTheEngineFromIdleCorking() throws {
        var platform = PlatformInitSettings()
        platform.idleCorkTimeout = .milliseconds(100)
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), platform, backend: backend)
        defer { engine.terminate() }
        try engine.loadBank(
            Bank(
                name: "later", folder: "/",
                stateGroups: ["TimeOfDay": BankStateGroup(name: "TimeOfDay", states: ["day", "night"], defaultState: "day")],
                events: [
                    "Dusk": BankEvent(
                        name: "Dusk",
                        actions: [BankAction(.setState(group: "TimeOfDay", state: "night"), delay: .milliseconds(300))]),
                ]))
        try engine.registerGameObject(Self.hero)
        try engine.postEvent("Dusk", on: Self.hero)
        // Rendered at about real-time pace: the idle timeout passes long before the action is due.
        #expect(eventually { _ = backend.render(frames: 480); return (try? engine.currentState("TimeOfDay")) == "night" })
        #expect(eventually { backend.isPaused }, "the engine did not idle once nothing waited")
    }

    @Test func stoppingCancelsDelayedActions() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let id = try rig.engine.postEvent("Later", on: Self.hero, callback: ends.callback)
        try rig.engine.stop(id)
        #expect(rig.renderUntil { ends.count(id) == 1 })
        Thread.sleep(forTimeInterval: 0.4)  // past the 300 ms action: it must not run
        #expect(try rig.engine.currentState("TimeOfDay") == "day")
        #expect(ends.count(id) == 1)
    }

    @Test func unloadingTheBankEndsItsPlayingIDs() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let bed = try rig.engine.postEvent("Bed", on: Self.hero, callback: ends.callback)
        let forever = try rig.engine.postEvent("Forever", on: Self.npc, callback: ends.callback)
        rig.render(4800)
        try rig.engine.unloadBank(BankID(name: "events"))
        #expect(rig.renderUntil { ends.count(bed) == 1 && ends.count(forever) == 1 })
        #expect(rig.engine.mixer.loadedSoundCount == 0)
        #expect(throws: SoundEngineError.self) { try rig.engine.postEvent("Bed", on: Self.hero) }
        // Loading it again works: the names are free again.
        try rig.engine.loadBank(Self.bank(rig))
        _ = try rig.engine.postEvent("Bed", on: Self.hero)
    }

    @Test func terminateEndsWhatIsStillWaiting() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let forever = try rig.engine.postEvent("Forever", on: Self.hero, callback: ends.callback)
        let bed = try rig.engine.postEvent("Bed", on: Self.hero, callback: ends.callback)
        rig.engine.terminate()
        #expect(ends.count(forever) == 1 && ends.count(bed) == 1)
    }

    @Test func unregisteringAGameObjectStopsItsEvents() throws {
        let rig = try Self.start()
        let ends = EndCounter()
        let bed = try rig.engine.postEvent("Bed", on: Self.hero, callback: ends.callback)
        let other = try rig.engine.postEvent("Bed", on: Self.npc, callback: ends.callback)
        try rig.engine.unregisterGameObject(Self.hero)
        #expect(rig.renderUntil { ends.count(bed) == 1 })
        #expect(try ends.count(other) == 0 && rig.engine.isPlaying(other))
    }
}
