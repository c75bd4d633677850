import SoundCore

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
        var mutedForBackgroundMusic = false
        /// Ramp of the last change to this bus, in frames.
        var rampFrames = 0
        var meterEvents = false
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

    /// The gain the render thread ramps the bus to.
    func gain(_ bus: Int) -> Float {
        let b = buses[bus]
        if b.muted || (backgroundMusicMuted && b.mutedForBackgroundMusic) { return 0 }
        return b.volume
    }

    /// Writes the plan: every bus after all its descendants, the master last.
    func compile(into entries: UnsafeMutablePointer<PlanEntry>) -> Int {
        var children = [[Int]](repeating: [], count: buses.count)
        for i in 1..<buses.count { children[buses[i].parent].append(i) }
        var count = 0
        func visit(_ bus: Int) {
            for child in children[bus] { visit(child) }
            entries[count] = PlanEntry(
                bus: Int32(bus), parent: Int32(buses[bus].parent), gain: gain(bus),
                rampFrames: Int32(buses[bus].rampFrames), meterEvents: buses[bus].meterEvents)
            count += 1
        }
        visit(0)
        return count
    }
}
