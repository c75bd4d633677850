import SoundCore
import SoundEffects

/// The bus tree as the control side edits it: names, parents, volumes,
/// mutes and the background-music flag. Compiled into a render plan after
/// every change (``compile(into:)``).
struct BusGraph {
    struct Bus {
        var name: String
        /// Index of the parent; -1 for the master.
        var parent: Int
        var volume: Float = 1
        var muted = false
        /// Soloed by the live profiler (``soloGain(_:)``); apart from `muted`,
        /// so a solo taken away leaves every mute as the game set it.
        var soloed = false
        var mutedForBackgroundMusic = false
        /// Ramp of the last change to this bus, in frames.
        var rampFrames = 0
        var meterEvents = false
        /// Insert effects, slot by slot (``Mixer/effectsPerBus``).
        var effects: [Effect?] = Array(repeating: nil, count: Mixer.effectsPerBus)
    }

    /// An insert effect: its memory, and the bus keying it (-1: none).
    struct Effect {
        var block: EffectBlock
        var sidechain: Int
    }

    private(set) var buses: [Bus]
    let capacity: Int
    private(set) var backgroundMusicMuted = false

    init(capacity: Int) {
        self.capacity = capacity
        buses = [Bus(name: "master", parent: -1)]
        buses.reserveCapacity(capacity)
    }

    /// The bus `id` names, or `idNotFound`.
    func index(_ id: BusID, _ role: String = "bus") throws(SoundEngineError) -> Int {
        guard Int(id.index) < buses.count else {
            throw .idNotFound("\(role) \(id.index) does not exist (\(buses.count) buses)")
        }
        return Int(id.index)
    }

    mutating func add(name: String, parent: BusID) throws(SoundEngineError) -> BusID {
        let p = try index(parent, "parent bus")
        guard buses.count < capacity else {
            throw .maxReached("all \(capacity) buses exist (MixerConfiguration.maxBuses)")
        }
        buses.append(Bus(name: name, parent: p))
        return BusID(index: UInt32(buses.count - 1))
    }

    mutating func setParent(_ bus: Int, _ parent: Int) throws(SoundEngineError) {
        guard bus != 0 else { throw .invalidParameter("the master bus has no parent") }
        var p = parent
        while p >= 0 {
            if p == bus { throw .invalidParameter("bus \(parent) is bus \(bus) or one of its descendants: a cycle") }
            p = buses[p].parent
        }
        buses[bus].parent = parent
    }

    mutating func update(_ bus: Int, rampFrames: Int, _ change: (inout Bus) -> Void) {
        change(&buses[bus])
        buses[bus].rampFrames = rampFrames
    }

    mutating func setBackgroundMusicMuted(_ muted: Bool, fadeFrames: Int) {
        backgroundMusicMuted = muted
        for i in buses.indices where buses[i].mutedForBackgroundMusic { buses[i].rampFrames = fadeFrames }
    }

    /// Puts `effect` in slot `index` of `bus` and returns what was there.
    mutating func setEffect(_ bus: Int, _ index: Int, _ effect: Effect?) -> Effect? {
        let old = buses[bus].effects[index]
        buses[bus].effects[index] = effect
        return old
    }

    /// Refuses sidechains that cannot be mixed before the bus they key: the
    /// bus itself, an ancestor (mixed after its children), or a chain of
    /// sidechains and children that comes back to the bus.
    func checkOrder() throws(SoundEngineError) {
        var state = [UInt8](repeating: 0, count: buses.count)  // 0 new, 1 on the path, 2 done
        var children = [[Int]](repeating: [], count: buses.count)
        for i in 1..<buses.count { children[buses[i].parent].append(i) }
        func visit(_ bus: Int) throws(SoundEngineError) {
            if state[bus] == 2 { return }
            if state[bus] == 1 {
                throw .invalidParameter(
                    "bus '\(buses[bus].name)' would have to be mixed before itself: a sidechain keys a bus on one it feeds")
            }
            state[bus] = 1
            for child in children[bus] { try visit(child) }
            for effect in buses[bus].effects { if let key = effect?.sidechain, key >= 0 { try visit(key) } }
            state[bus] = 2
        }
        for bus in buses.indices { try visit(bus) }
    }

    /// Solos or unsolos `bus`. Each bus the change silences or brings back
    /// ramps over `rampFrames` (no click); the others keep their own ramp (a
    /// fade the game started goes on as it was).
    mutating func setSoloed(_ bus: Int, _ soloed: Bool, rampFrames: Int) {
        let before = buses.indices.map { buses.contains(where: \.soloed) && silencedBySolo($0) }
        buses[bus].soloed = soloed
        let soloActive = buses.contains(where: \.soloed)
        for i in buses.indices where (soloActive && silencedBySolo(i)) != before[i] { buses[i].rampFrames = rampFrames }
    }

    /// Whether a solo silences `bus`, some bus being soloed: `bus` is not
    /// one of them, not on the way from one to the master (it carries it),
    /// and not under one (it is part of it) — a mixing console's solo. Voices
    /// that play straight into a bus on the way stay heard.
    func silencedBySolo(_ bus: Int) -> Bool {
        var b = bus
        while b >= 0 {  // soloed itself, or under a soloed bus
            if buses[b].soloed { return false }
            b = buses[b].parent
        }
        for i in buses.indices where buses[i].soloed {  // on the way from a soloed bus to the master
            var p = buses[i].parent
            while p >= 0 {
                if p == bus { return false }
                p = buses[p].parent
            }
        }
        return true
    }

    /// The gain the render thread ramps the bus to; `soloActive`: some bus
    /// is soloed (asked once per compile: without a solo nothing more is done).
    func gain(_ bus: Int, soloActive: Bool) -> Float {
        let b = buses[bus]
        if b.muted || (backgroundMusicMuted && b.mutedForBackgroundMusic) || (soloActive && silencedBySolo(bus)) { return 0 }
        return b.volume
    }

    /// Writes the plan: every bus after all its descendants, the master last.
    func compile(into entries: UnsafeMutablePointer<PlanEntry>) -> Int {
        var children = [[Int]](repeating: [], count: buses.count)
        for i in 1..<buses.count { children[buses[i].parent].append(i) }
        var count = 0
        var done = [Bool](repeating: false, count: buses.count)
        let soloActive = buses.contains(where: \.soloed)
        // Children first, and a sidechain's bus before the bus it keys
        // (``checkOrder()`` refused every order that loops).
        func visit(_ bus: Int) {
            guard !done[bus] else { return }
            done[bus] = true
            for child in children[bus] { visit(child) }
            var entry = PlanEntry(
                bus: Int32(bus), parent: Int32(buses[bus].parent), gain: gain(bus, soloActive: soloActive),
                rampFrames: Int32(buses[bus].rampFrames), meterEvents: buses[bus].meterEvents)
            for effect in buses[bus].effects {
                guard let effect else { continue }
                if effect.sidechain >= 0 { visit(effect.sidechain) }
                entry.effects[Int(entry.effectCount)] = effect.block.pointer
                entry.sidechains[Int(entry.effectCount)] = Int16(effect.sidechain)
                entry.effectCount += 1
            }
            entries[count] = entry
            count += 1
        }
        visit(0)
        return count
    }
}
