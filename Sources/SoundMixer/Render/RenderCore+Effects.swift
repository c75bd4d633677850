import SoundEffects

/// A bus's insert effects on the render thread (docs/mixer.md, "Bus
/// effects"): run in slot order on the bus's summed input, before its gain.
/// Their memory comes with the plan; nothing is allocated here.
extension RenderCore {
    /// Runs the effects of a plan entry in place on bus `bus`'s planes in
    /// use. A compressor keyed by another bus reads that bus's output of
    /// this quantum (the plan mixes it first), or silence if it had none.
    @_noLocks
    mutating func runEffects(_ entry: PlanEntry, bus: Int) {
        let planes = busPlane(bus, 0)
        var k = 0
        while k < Int(entry.effectCount) {
            defer { k += 1 }
            guard let block = entry.effects[k] else { continue }
            let effect = block.assumingMemoryBound(to: RenderEffect.self)
            if effect.pointee.sampleRate != engineRate { effect.pointee.setSampleRate(engineRate) }
            var sidechain: UnsafePointer<Float>? = nil
            let key = Int(entry.sidechains[k])
            if key >= 0 && key < maxBuses {
                sidechain = busStates[key].heard ? UnsafePointer(busPlane(key, 0)) : UnsafePointer(silentPlanes)
            }
            effect.pointee.process(
                planes, stride: quantum, channels: mixChannels, frames: quantum, sidechain: sidechain,
                sidechainStride: quantum)
        }
    }

    /// Whether any effect of the entry may still sound with silent input (a
    /// delay's repeats, a reverb's tail, a limiter's lookahead).
    @_noLocks
    func effectsRing(_ entry: PlanEntry) -> Bool {
        var k = 0
        while k < Int(entry.effectCount) {
            if let block = entry.effects[k], block.assumingMemoryBound(to: RenderEffect.self).pointee.isRinging {
                return true
            }
            k += 1
        }
        return false
    }
}
