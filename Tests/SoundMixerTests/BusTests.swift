import SoundServerSupport
import Foundation
import SoundCore
import SoundMixer
import Synchronization
import Testing

@Suite("Bus graph")
struct BusTests {
    @Test("bus volumes multiply down the tree and mutes silence a subtree")
    func volumesAndMutes() throws {
        let mixer = try makeMixer()
        let group = try mixer.createBus(name: "group")
        let leaf = try mixer.createBus(name: "leaf", parent: group)
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(sound, on: leaf, VoiceParameters(volume: 0.5, pan: -1, loop: true))
        try mixer.setBusVolume(leaf, 0.5)
        try mixer.setBusVolume(group, 0.8)
        try mixer.setBusVolume(.master, 0.9)
        var out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.5 * 0.5 * 0.8 * 0.9) < 1e-6)
        try mixer.setBusMuted(group, true, rampFrames: 300)
        out = render(mixer, frames: 1024).left
        #expect(maxStep(out[...]) < 0.19 / 300 * 1.01)
        #expect(out[500] == 0)
        try mixer.setBusMuted(group, false)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.18) < 1e-6)
        #expect(mixer.bus(named: "leaf") == leaf)
    }

    @Test("a solo leaves heard the soloed bus, what is under it and its way to the master; unsoloed, every mute is as it was")
    func solo() throws {
        let mixer = try makeMixer()
        let world = try mixer.createBus(name: "world")
        let steps = try mixer.createBus(name: "steps", parent: world)
        let wind = try mixer.createBus(name: "wind", parent: world)
        let music = try mixer.createBus(name: "music")
        let dc = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        // One voice per bus, each its own level, all on the left channel.
        try mixer.play(dc, on: steps, VoiceParameters(volume: 0.1, pan: -1, loop: true))
        try mixer.play(dc, on: wind, VoiceParameters(volume: 0.02, pan: -1, loop: true))
        try mixer.play(dc, on: music, VoiceParameters(volume: 0.004, pan: -1, loop: true))
        try mixer.setBusMuted(music, true)  // the game's own mute
        var out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.12) < 1e-6)

        try mixer.setBusSoloed(steps, true)
        out = render(mixer, frames: 1024).left
        #expect(maxStep(out[...]) < 0.02 / Float(mixer.configuration.quantumFrames) * 1.01, "the solo ramps over a quantum: no click")
        #expect(abs(out[1000] - 0.1) < 1e-6, "steps alone: wind (a sibling) silenced, world (its way) heard")
        #expect(mixer.busSummaries.first { $0.id == steps }?.soloed == true)

        try mixer.setBusSoloed(wind, true)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.12) < 1e-6, "two soloed")
        try mixer.setBusSoloed(world, true)
        try mixer.setBusSoloed(steps, false)
        try mixer.setBusSoloed(wind, false)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.12) < 1e-6, "a soloed parent: all under it heard")

        try mixer.setBusSoloed(world, false)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.12) < 1e-6, "no solo left: the game's mute of music still holds")
        try mixer.setBusMuted(music, false)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.124) < 1e-6, "and goes as the game takes it away")
        #expect(throws: SoundEngineError.self) { try mixer.setBusSoloed(BusID(index: 99), true) }
    }

    @Test("the background-music mute silences exactly the flagged buses, and brings them back")
    func backgroundMusic() throws {
        let mixer = try makeMixer()
        let music = try mixer.createBus(name: "music")
        let effects = try mixer.createBus(name: "effects")
        let dialogue = try mixer.createBus(name: "dialogue", parent: effects)
        try mixer.setBusMutedForBackgroundMusic(music, true)
        let dc = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(dc, on: music, VoiceParameters(volume: 0.1, pan: -1, loop: true))
        try mixer.play(dc, on: effects, VoiceParameters(volume: 0.01, pan: -1, loop: true))
        try mixer.play(dc, on: dialogue, VoiceParameters(volume: 0.001, pan: -1, loop: true))
        var out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.111) < 1e-6)
        try mixer.setBackgroundMusicMuted(true, fadeFrames: 2048)
        out = render(mixer, frames: 6144).left  // the fade and then one whole meter window
        #expect(maxStep(out[...]) <= 0.1 / 2048 * 1.01)
        #expect(abs(out[3000] - 0.011) < 1e-6)
        #expect(mixer.meter(music).peak == 0 && mixer.isBackgroundMusicMuted)
        try mixer.setBackgroundMusicMuted(false, fadeFrames: 256)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.111) < 1e-6)
    }

    @Test("metering reports the peak and RMS of a known signal")
    func metering() throws {
        let mixer = try makeMixer()
        let bus = try mixer.createBus(name: "meter")
        let sound = try mixer.loadSound(sine(frequency: 375, frames: 128, amplitude: 0.8), name: "sine")
        try mixer.play(sound, on: bus, VoiceParameters(loop: true))
        _ = render(mixer, frames: 8192)
        // Centre pan: each channel 0.8 · cos(π/4); RMS of a sine = peak / √2.
        let meter = mixer.meter(bus)
        #expect(abs(meter.peak - 0.8 * 0.70710677) < 1e-3)
        #expect(abs(meter.rms - 0.8 * 0.5) < 1e-3)
        #expect(abs(mixer.meter(.master).rms - 0.4) < 1e-3)
        try mixer.setBusMeterEvents(bus, true)
        _ = render(mixer, frames: 4096)  // two 2048-frame windows
        let readings = events(mixer).compactMap { event -> BusMeter? in
            if case .meter(bus, let m) = event { m } else { nil }
        }
        #expect(readings.count == 2 && readings.allSatisfy { abs($0.rms - 0.4) < 1e-3 })
    }

    /// The control thread keeps editing the graph (volumes, mutes, new buses,
    /// moves) while a render thread renders; every edit publishes a whole
    /// plan. A constant 1 on bus `a` (left) and on bus `b` (right) makes each
    /// quantum's last frame read out the gains of the plan that rendered it
    /// (ramps are one frame). The edits set `a` then `b` to the same new
    /// volume, so a published plan has `a == b`, `a` one step ahead, or `a`
    /// muted; a plan torn between two publications (entries of one, count or
    /// order of another) shows a pair that no published plan had.
    @Test("bus plans edited during rendering arrive whole on the render thread")
    func plansArriveWhole() throws {
        let mixer = try makeMixer { $0.maxBuses = 24 }
        let a = try mixer.createBus(name: "a")
        let b = try mixer.createBus(name: "b")
        let dc = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(dc, on: a, VoiceParameters(pan: -1, loop: true))
        try mixer.play(dc, on: b, VoiceParameters(pan: 1, loop: true))
        _ = render(mixer, frames: 1024)  // the voices' gains settle

        let seen = Observed()
        let stop = Atomic<Bool>(false)
        let quanta = Atomic<Int>(0), edits = Atomic<Int>(0)
        let renderer = JoinableThread {
            var buffer = [Float](repeating: 0, count: 2 * 256)
            seen.levels.reserveCapacity(1 << 16)
            var i = 0, editsSeen = 0
            while !stop.load(ordering: .relaxed) {
                buffer.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 256) }
                if seen.levels.count < 1 << 16 { seen.levels.append(Levels(left: buffer[510], right: buffer[511])) }
                i += 1
                quanta.store(i, ordering: .relaxed)
                // At least one new edit every two quanta, so that plans change
                // all along, also when the scheduler lets this thread run
                // while the editor is off the CPU (a cumulative count let it
                // run thousands of quanta on a few plans on a busy machine).
                if i % 2 == 0 {
                    while edits.load(ordering: .relaxed) == editsSeen && !stop.load(ordering: .relaxed) { sched_yield() }
                    editsSeen = edits.load(ordering: .relaxed)
                }
            }
        }
        var volume = (a: Float(1), b: Float(1)), mutedA = false
        var published: Set<Levels> = [Levels(left: 1, right: 1)], last = Levels(left: 1, right: 1)
        func edited() {
            last = Levels(left: mutedA ? 0 : volume.a, right: volume.b)
            published.insert(last)
            edits.add(1, ordering: .relaxed)
        }
        renderer.start()
        var extras: [BusID] = []
        var k = 0
        // 20000 quanta, each pair on at least one new plan, tear a broken
        // publication within a run; a busy machine, where each hand-off may
        // cost a time slice, stops after 5 s once 3000 quanta are done.
        let budget = ContinuousClock.now + .seconds(5)
        while quanta.load(ordering: .relaxed) < 20_000,
            quanta.load(ordering: .relaxed) < 3000 || ContinuousClock.now < budget
        {
            k += 1
            let v = Float(k % 61 + 2) / 64  // exact in binary; never 0 or 1
            try mixer.setBusVolume(a, v, rampFrames: 0)
            volume.a = v
            edited()
            try mixer.setBusVolume(b, v, rampFrames: 0)
            volume.b = v
            edited()
            if k % 3 == 0 {
                try mixer.setBusMuted(a, true, rampFrames: 0)
                mutedA = true
                edited()
                try mixer.setBusMuted(a, false, rampFrames: 0)
                mutedA = false
                edited()
            }
            if k % 5 == 0 {  // reshape the plan: more entries, other positions
                if extras.count < 20 {
                    extras.append(try mixer.createBus(name: "extra \(k)", parent: k % 2 == 0 ? a : b))
                } else {
                    try mixer.setBusParent(extras[k % extras.count], [a, b, .master][k % 3])
                }
                edited()
            }
        }
        stop.store(true, ordering: .relaxed)
        renderer.join()

        let valid = Array(published)
        let torn = seen.levels.filter { o in
            !valid.contains { abs($0.left - o.left) < 1e-6 && abs($0.right - o.right) < 1e-6 }
        }
        #expect(torn.isEmpty, "\(torn.count) of \(seen.levels.count) quanta used a plan never published")
        #expect(Set(seen.levels).count >= 10, "the render thread saw only \(Set(seen.levels).count) plans")
        #expect(extras.count == 20 && k > 400, "\(extras.count) extra buses, \(k) edit rounds")
        // The last plan arrives.
        let out = render(mixer, frames: 256)
        #expect(abs(out.left[255] - last.left) < 1e-6 && out.right[255] == last.right)
        #expect(mixer.statistics.overlappingRenderCalls == 0)
    }

    @Test("bad bus edits are refused and change nothing")
    func badEdits() throws {
        let mixer = try makeMixer { $0.maxBuses = 3 }
        let a = try mixer.createBus(name: "a")
        // A refused create takes no slot: the last one is still there for b.
        #expect(throws: SoundEngineError.self) { try mixer.createBus(name: "c", parent: BusID(index: 9)) }
        let b = try mixer.createBus(name: "b", parent: a)
        // A state every bad edit below would change: distinct volumes down
        // the tree master → a → b, a DC voice hard left on a and hard right
        // on b, so the left channel is master × a and the right master × a × b.
        try mixer.setBusVolume(.master, 0.8)
        try mixer.setBusVolume(a, 0.5)
        try mixer.setBusVolume(b, 0.25)
        let dc = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(dc, on: a, VoiceParameters(pan: -1, loop: true))
        try mixer.play(dc, on: b, VoiceParameters(pan: 1, loop: true))
        let settled = render(mixer, frames: 1024)  // past every ramp
        let level = (left: settled.left[1023], right: settled.right[1023])
        #expect(abs(level.left - 0.8 * 0.5) < 1e-6 && abs(level.right - 0.8 * 0.5 * 0.25) < 1e-6, "\(level)")
        func names() -> [String: BusID?] {
            Dictionary(uniqueKeysWithValues: ["master", "a", "b", "c"].map { ($0, mixer.bus(named: $0)) })
        }
        let namesBefore = names()
        let statisticsBefore = mixer.statistics

        #expect {
            try mixer.createBus(name: "c")
        } throws: { if case .maxReached = $0 as? SoundEngineError { true } else { false } }
        #expect {
            try mixer.setBusParent(a, b)
        } throws: { if case .invalidParameter = $0 as? SoundEngineError { true } else { false } }
        #expect(throws: SoundEngineError.self) { try mixer.setBusParent(.master, a) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusParent(b, BusID(index: 9)) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusVolume(a, .nan) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusVolume(a, -1) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusVolume(a, 0.9, rampFrames: -1) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusVolume(BusID(index: 9), 0.9) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusMuted(b, true, rampFrames: -1) }

        // Nothing changed: the names, the commands, and every frame of the mix.
        #expect(names() == namesBefore)
        #expect(mixer.bus(named: "c") == nil)
        #expect(mixer.statistics.commandsQueued == statisticsBefore.commandsQueued)
        #expect(mixer.statistics.commandsRejected == statisticsBefore.commandsRejected)
        #expect(!mixer.isBackgroundMusicMuted)
        let after = render(mixer, frames: 1024)
        #expect(after.left.allSatisfy { $0 == level.left }, "left \(Set(after.left))")
        #expect(after.right.allSatisfy { $0 == level.right }, "right \(Set(after.right))")
        // And the graph still takes good edits: b to the master leaves out a's 0.5.
        try mixer.setBusParent(b, .master)
        let moved = render(mixer, frames: 1024)
        #expect(abs(moved.right[1023] - 0.8 * 0.25) < 1e-6 && moved.left[1023] == level.left)
    }
}

/// A quantum's last frame, left and right.
private struct Levels: Hashable {
    var left: Float
    var right: Float
}

/// What a render thread saw; read once it finished.
private final class Observed: @unchecked Sendable {
    // @unchecked: written only by the render thread, read after it ended.
    var levels: [Levels] = []
}
