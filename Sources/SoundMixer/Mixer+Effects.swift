package import SoundCore
package import SoundEffects
import Synchronization

/// Bus insert effects (control world; docs/mixer.md, "Bus effects"). Each
/// bus has ``Mixer/effectsPerBus`` insert slots, run in order on the bus's
/// summed input before its gain. Inserting, replacing or removing an effect
/// edits the bus graph and publishes a new plan (never the command queue);
/// a parameter change is a command.
extension Mixer {
    /// Insert slots per bus (Wwise: four bus effects).
    package static let effectsPerBus = 4

    /// Puts `effect` with `parameters` in insert slot `index` (0…3) of `bus`
    /// (replacing what was there), or removes the slot's effect (`nil`). The
    /// effect's memory is allocated here, sized for the mixer's rate and 8
    /// channels; the render thread takes it with the next plan and the old
    /// one is freed once the render thread has moved past it. A compressor
    /// may be keyed by another bus (`sidechain`): that bus is then mixed
    /// first each quantum. A new effect starts from silence (no tail).
    ///
    /// - Throws: `idNotFound` for an unknown bus or sidechain bus;
    ///   `invalidParameter` for an index outside 0…3, a parameter NaN,
    ///   infinite or out of its range (naming it), a sidechain on an effect
    ///   other than a compressor, or a sidechain that is the bus itself, one
    ///   of its ancestors, or keyed by it in turn (the order would loop).
    ///   Nothing changes when it throws.
    package func setBusEffect(
        _ bus: BusID, index: Int, _ effect: (kind: EffectKind, parameters: EffectParameters)?, sidechain: BusID? = nil
    ) throws(SoundEngineError) {
        guard (0..<Self.effectsPerBus).contains(index) else {
            throw .invalidParameter("bus effect index = \(index): must be 0…\(Self.effectsPerBus - 1)")
        }
        var block: EffectBlock?
        if let effect {
            let parameters: EffectParameters
            do throws(EffectParameterError) {
                parameters = try effect.parameters.validated(as: effect.kind)
            } catch {
                throw .invalidParameter(error.description)
            }
            if sidechain != nil && effect.kind != .compressor {
                throw .invalidParameter("a sidechain keys a compressor only, not a \(effect.kind.name)")
            }
            block = EffectBlock.make(
                effect.kind, parameters, rate: Double(max(configuration.sampleRate, 48_000)),
                kernelLevel: configuration.kernels.effectsLevel)
        }
        do throws(SoundEngineError) {
            reclaimEffects()
            try editGraph { graph throws(SoundEngineError) in
                let b = try graph.index(bus)
                let key = try sidechain.map { id throws(SoundEngineError) in try graph.index(id, "sidechain bus") }
                let old = graph.setEffect(b, index, block.map { BusGraph.Effect(block: $0, sidechain: key ?? -1) })
                try graph.checkOrder()
                return old
            }.map { old in retire(old.block) }
        } catch {
            block?.free()
            throw error
        }
    }

    /// Moves parameter `parameter` (an index of the kind's parameters) of
    /// the effect in slot `index` of `bus` to `value` over `rampFrames`
    /// (default one quantum; even 0 takes the effect's shortest smooth
    /// change, 10 ms, so nothing clicks).
    ///
    /// - Throws: `idNotFound` for an unknown bus or an empty slot;
    ///   `invalidParameter` for a parameter the effect does not have, a value
    ///   NaN, infinite or outside its range (naming both); `commandQueueFull`.
    package func setBusEffectParameter(
        _ bus: BusID, index: Int, parameter: Int, value: Float, rampFrames: Int? = nil
    ) throws(SoundEngineError) {
        let ramp = rampFrames ?? configuration.quantumFrames
        try Self.check(frames: ramp, "rampFrames")
        try control.withLock { state throws(SoundEngineError) in
            let b = try state.graph.index(bus)
            guard (0..<Self.effectsPerBus).contains(index), let effect = state.graph.buses[b].effects[index] else {
                throw .idNotFound("bus \(bus.index) has no effect in slot \(index)")
            }
            let kind = effect.block.kind
            guard let info = kind.parameters.first(where: { $0.index == parameter }) else {
                throw .invalidParameter("a \(kind.name) has no parameter \(parameter) (0…\(kind.parameterCount - 1))")
            }
            guard value.isFinite, value >= info.minimum, value <= info.maximum else {
                throw .invalidParameter(
                    "\(kind.name) parameter \(info.name) = \(value): must be finite, \(info.minimum)…\(info.maximum) \(info.unit)")
            }
            try push(.setEffectParameter(
                block: effect.block.pointer, parameter: UInt8(parameter), value: value, rampFrames: Int32(ramp)))
        }
    }

    /// The effect in slot `index` of `bus`: its kind and the sidechain bus, if any.
    package func busEffect(_ bus: BusID, index: Int) -> (kind: EffectKind, sidechain: BusID?)? {
        control.withLock { state in
            guard let b = try? state.graph.index(bus), (0..<Self.effectsPerBus).contains(index),
                let effect = state.graph.buses[b].effects[index]
            else { return nil }
            return (effect.block.kind, effect.sidechain >= 0 ? BusID(index: UInt32(effect.sidechain)) : nil)
        }
    }

    /// Queues a removed effect's memory for freeing once the render thread
    /// runs a plan without it. Control lock held.
    func retire(_ block: EffectBlock?) {
        guard let block else { return }
        control.withLock { state in
            // The plan just published (or a later one) no longer has it.
            state.retiredEffects.append((block, state.planGeneration))
        }
    }

    /// Frees the memory of removed effects the render thread has moved past.
    func reclaimEffects() {
        // acquiring: pairs with the render thread's releasing store of the
        // generation it took, after which it never reads an older plan's effects.
        let taken = core.pointee.atomics.pointee.planTaken.load(ordering: .acquiring)
        control.withLock { state in
            state.retiredEffects.removeAll { entry in
                guard entry.generation <= taken else { return false }
                entry.block.free()
                return true
            }
        }
    }
}

/// One insert effect's memory, owned by the control side: the render
/// thread's ``RenderEffect`` at the start, its state after it (64-byte
/// aligned). The render thread reaches it through the plan (and parameter
/// commands); the control side frees it after the render thread took a
/// plan without it.
struct EffectBlock: @unchecked Sendable {
    // @unchecked: the memory is the render thread's while a published plan
    // holds it; the control side only allocates, initialises and frees it.
    let pointer: UnsafeMutableRawPointer
    let kind: EffectKind

    /// Bytes before the state: the render effect, rounded to a cache line.
    static var headerBytes: Int { (MemoryLayout<RenderEffect>.stride + 63) & ~63 }

    /// Allocates and initialises an effect for 8 channels at `rate`, its
    /// kernels at `kernelLevel` (``KernelSelection/effectsLevel``).
    static func make(_ kind: EffectKind, _ parameters: EffectParameters, rate: Double, kernelLevel: Int32) -> EffectBlock {
        let stateBytes = RenderEffect.stateBytes(kind: kind, channels: RenderCore.maxChannels, capacityRate: rate)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: headerBytes + stateBytes, alignment: 64)
        let effect = RenderEffect.make(
            kind: kind, parameters: parameters, channels: RenderCore.maxChannels, sampleRate: rate,
            memory: memory + headerBytes, kernelLevel: kernelLevel)
        memory.bindMemory(to: RenderEffect.self, capacity: 1).initialize(to: effect)
        return EffectBlock(pointer: memory, kind: kind)
    }

    func free() { pointer.deallocate() }
}
