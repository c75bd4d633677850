import Foundation
import SoundCore
import SoundEffects
@testable import SoundMixer
import Testing

/// Insert effects on the mixer's buses (issue 17, item 2; docs/mixer.md,
/// "Bus effects"), measured on rendered output: the DSP itself is tested in
/// SoundEffectsTests, here what the mixer does with it — order, sidechains,
/// tails, parameter commands, replacing and freeing.
@Suite("Bus effects")
struct BusEffectTests {
    static func db(_ a: Double, _ b: Double) -> Double { 20 * log10(max(a, 1e-12) / max(b, 1e-12)) }

    @Test("an EQ on a bus shapes what plays through it, and only that bus")
    func eqOnABus() throws {
        let mixer = try makeMixer()
        let sfx = try mixer.createBus(name: "sfx")
        let tone = try mixer.loadSound(sine(frequency: 1000, frames: 96_000, amplitude: 0.1), name: "tone")
        try mixer.setBusEffect(sfx, index: 0, (.parametricEQ, try EffectParameters.parametricEQ(
            bands: [EQBand(.peak, frequency: 1000, gain: 12, q: 1)])))
        try mixer.play(tone, on: sfx, VoiceParameters(pan: -1))
        try mixer.play(tone, on: .master, VoiceParameters(pan: 1))
        _ = render(mixer, frames: 9600)
        let out = render(mixer, frames: 9600)
        #expect(abs(Self.db(rms(out.left[...]), rms(out.right[...])) - 12) < 0.5, "through the EQ vs beside it")
    }

    @Test("a compressor keyed by the dialogue bus turns music down while dialogue plays, by the ratio")
    func sidechainDucksMusic() throws {
        let mixer = try makeMixer()
        let music = try mixer.createBus(name: "music")
        let dialogue = try mixer.createBus(name: "dialogue")
        let quiet = try mixer.loadSound(sine(frequency: 220, frames: 480_000, amplitude: 0.05), name: "music")
        let loud = try mixer.loadSound(constant(0.5, frames: 480_000), name: "voice")
        try mixer.setBusEffect(music, index: 0, (.compressor, try EffectParameters.compressor(
            threshold: -30, ratio: 4, attack: 1, release: 50)), sidechain: dialogue)
        try mixer.play(quiet, on: music, VoiceParameters(pan: -1))  // music on the left, dialogue on the right
        _ = render(mixer, frames: 9600)
        let before = rms(render(mixer, frames: 9600).left[...])
        // The key: the dialogue bus's output, a constant 0.5 on the right (−6 dBFS; the
        // detector is linked, the loudest channel): 24 dB over, 18 dB of reduction at 4:1.
        try mixer.play(loud, on: dialogue, VoiceParameters(pan: 1))
        _ = render(mixer, frames: 9600)
        let during = rms(render(mixer, frames: 9600).left[...])
        #expect(abs(Self.db(during, before) + 18) < 0.5, "reduction \(Self.db(during, before)) dB")
        // The key is mixed before the bus it keys, whichever was created first.
        let plan = mixer.core.pointee.planEntries + mixer.core.pointee.frontPlan * mixer.configuration.maxBuses
        let order = (0..<mixer.core.pointee.planCounts[mixer.core.pointee.frontPlan]).map { Int(plan[$0].bus) }
        #expect(try #require(order.firstIndex(of: 2)) < #require(order.firstIndex(of: 1)), "\(order)")
    }

    @Test("a limiter on the master keeps every sample under its ceiling")
    func limiterOnTheMaster() throws {
        let mixer = try makeMixer()
        let loud = try mixer.loadSound(sine(frequency: 330, frames: 96_000, amplitude: 1), name: "loud")
        try mixer.setBusEffect(.master, index: 0, (.limiter, try EffectParameters.limiter(ceiling: -6)))
        for _ in 0..<4 { try mixer.play(loud, VoiceParameters(volume: 2)) }
        let out = render(mixer, frames: 48_000, block: 333)
        let ceiling = Float(pow(10, -6.0 / 20))
        #expect((out.left + out.right).allSatisfy { abs($0) <= ceiling + 1e-6 })
        #expect(rms(out.left[24_000...]) > 0.3, "it still plays, limited")
    }

    @Test("a reverb's tail goes on after its input stops, then the bus falls silent and is skipped")
    func tailsRingOutThenStop() throws {
        let mixer = try makeMixer()
        let room = try mixer.createBus(name: "room")
        try mixer.setBusEffect(room, index: 0, (.reverb, try EffectParameters.reverb(rt60: 0.3, preDelay: 0, wet: 1, dry: 0)))
        let click = try mixer.loadSound(constant(0.8, frames: 480), name: "click")
        try mixer.play(click, on: room)
        let first = render(mixer, frames: 4800)
        #expect(rms(first.left[2400...]) > 1e-3, "the tail after the 10 ms click")
        let later = render(mixer, frames: 48_000)
        #expect(rms(later.left[...]) > 0, "rings on")
        #expect(rms(later.left[40_000...]) < 1e-5, "decays")
        // Once quiet, the bus is skipped like any silent bus.
        _ = render(mixer, frames: 48_000)
        #expect(mixer.core.pointee.busStates[Int(room.index)].heard == false)
    }

    @Test("a parameter moves by command, smoothly; a replaced effect's memory is freed once the render moved on")
    func parametersAndReplacement() throws {
        let mixer = try makeMixer()
        let sfx = try mixer.createBus(name: "sfx")
        let tone = try mixer.loadSound(sine(frequency: 440, frames: 480_000, amplitude: 0.5), name: "tone")
        try mixer.setBusEffect(sfx, index: 1, (.parametricEQ, EffectParameters.defaults(for: .parametricEQ)))
        try mixer.play(tone, on: sfx, VoiceParameters(pan: -1))
        var left: [Float] = []
        for step in 0..<40 {  // an RTPC sweeping the output gain each game frame
            try mixer.setBusEffectParameter(sfx, index: 1, parameter: EffectParameters.EQ.outputGain, value: Float(step % 20) - 10)
            left += render(mixer, frames: 512).left
        }
        let loudest = Double(left.map(abs).max() ?? 0)
        #expect(Double(maxStep(left[...])) <= loudest * 2 * Double.pi * 440 / 48_000 * 1.05)
        #expect(throws: SoundEngineError.self) {
            try mixer.setBusEffectParameter(sfx, index: 1, parameter: EffectParameters.EQ.outputGain, value: 30)
        }
        #expect(throws: SoundEngineError.self) {
            try mixer.setBusEffectParameter(sfx, index: 1, parameter: 99, value: 0)
        }
        #expect(throws: SoundEngineError.self) { try mixer.setBusEffectParameter(sfx, index: 2, parameter: 0, value: 0) }
        try mixer.setBusEffect(sfx, index: 1, (.delay, EffectParameters.defaults(for: .delay)))
        try mixer.setBusEffect(sfx, index: 1, nil)
        #expect(mixer.control.withLock { $0.retiredEffects.count } == 2)
        _ = render(mixer, frames: 512)
        mixer.drainEvents { _ in }
        #expect(mixer.control.withLock { $0.retiredEffects.count } == 0, "freed after the render took the plan")
    }

    @Test("bad effects are refused naming what is wrong, and change nothing")
    func refusals() throws {
        let mixer = try makeMixer()
        let a = try mixer.createBus(name: "a")
        let b = try mixer.createBus(name: "b", parent: a)
        let compressor = (EffectKind.compressor, EffectParameters.defaults(for: .compressor))
        func refused(_ words: String, _ call: () throws -> Void) {
            #expect { try call() } throws: { error in
                if case SoundEngineError.invalidParameter(let why) = error { why.contains(words) } else { false }
            }
        }
        refused("index") { try mixer.setBusEffect(a, index: 4, compressor) }
        refused("before itself") { try mixer.setBusEffect(a, index: 0, compressor, sidechain: a) }
        refused("before itself") { try mixer.setBusEffect(b, index: 0, compressor, sidechain: a) }  // a is b's parent
        try mixer.setBusEffect(a, index: 0, compressor, sidechain: b)  // a child keys its parent: fine
        let c = try mixer.createBus(name: "c")
        try mixer.setBusEffect(c, index: 0, compressor, sidechain: a)
        refused("before itself") { try mixer.setBusEffect(b, index: 1, compressor, sidechain: c) }  // c ← a ← b ← c
        refused("sidechain") { try mixer.setBusEffect(c, index: 1, (.reverb, EffectParameters.defaults(for: .reverb)), sidechain: a) }
        var bad = EffectParameters.defaults(for: .compressor)
        bad.values[EffectParameters.Compressor.ratio] = .nan
        refused("ratio") { try mixer.setBusEffect(c, index: 1, (.compressor, bad)) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusEffect(BusID(index: 77), index: 0, compressor) }
        #expect(mixer.busEffect(b, index: 1) == nil && mixer.busEffect(c, index: 1) == nil)
        #expect(mixer.busEffect(c, index: 0)?.sidechain == a)
    }

    /// The effects' C kernels follow the mixer's kernel set, so a mixer
    /// forced to `portable` (to rule the vector kernels out) runs no vector
    /// effects either; a set the CPU cannot run is refused before that.
    @Test("the effects' kernels follow the mixer's kernel set", arguments: KernelSelection.allCases)
    func effectsFollowTheKernelSet(kernels: KernelSelection) throws {
        guard kernels.isSupported else { return }
        let mixer = try makeMixer { $0.kernels = kernels }
        try mixer.setBusEffect(.master, index: 0, (.reverb, EffectParameters.defaults(for: .reverb)))
        try mixer.setBusEffect(.master, index: 1, (.parametricEQ, EffectParameters.defaults(for: .parametricEQ)))
        let levels = mixer.control.withLock { state in
            state.graph.buses[0].effects.compactMap { effect in
                effect.map { $0.block.pointer.assumingMemoryBound(to: RenderEffect.self).pointee.kernelLevel }
            }
        }
        let expected: Int32 =
            switch kernels {
            case .portable: 0
            case .avx2: 1
            case .avx512: 2
            case .automatic:
                KernelSelection.avx512.isSupported ? 2 : KernelSelection.avx2.isSupported ? 1 : 0
            }
        #expect(levels == [expected, expected])
    }
}
