import Foundation
import SoundCore
@_spi(Testing) import SoundMixer
import Testing

/// The filter's documented response (``Mixer/setLowPass(_:cutoffHz:rampFrames:)``):
/// two one-pole stages, each with `p = exp(−2π · fc / √(√2 − 1) / rate)`,
/// so `|H(f)| = ((1 − p) / |1 − p·e^(−jω)|)²`. Written out here from the
/// formula rather than taken from the mixer, so that a change of the filter
/// fails the test.
func lowPassGainDB(cutoff: Double, frequency: Double, rate: Double = 48_000) -> Double {
    let p = exp(-2 * Double.pi * cutoff / (2.0.squareRoot() - 1).squareRoot() / rate)
    let w = 2 * Double.pi * frequency / rate
    let magnitude = (1 - p) * (1 - p) / (1 - 2 * p * cos(w) + p * p)
    return 20 * log10(magnitude)
}

func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

/// A whole-loop sine with a whole number of cycles in 4800 frames.
func loopingSine(_ mixer: Mixer, _ frequency: Double, amplitude: Float = 0.5) throws -> SoundID {
    try mixer.loadSound(sine(frequency: frequency, frames: 4800, amplitude: amplitude), name: "\(frequency) Hz")
}

@Suite("Per-voice low-pass filter")
struct LowPassTests {
    /// Steady-state level change (dB) of a looping sine through `cutoff`,
    /// against the same voice unfiltered, measured on both channels.
    func measuredGainDB(frequency: Double, cutoff: Float, kernels: KernelSelection = .automatic) throws -> Double {
        let plain = try makeMixer { $0.kernels = kernels }
        let filtered = try makeMixer { $0.kernels = kernels }
        try plain.play(try loopingSine(plain, frequency), VoiceParameters(pan: 0.3, loop: true))
        try filtered.play(try loopingSine(filtered, frequency), VoiceParameters(pan: 0.3, loop: true, lowPassHz: cutoff))
        let a = render(plain, frames: 9600), b = render(filtered, frames: 9600)
        // After the filter's transient (≪ 4800 frames even at 10 Hz… not needed here).
        let left = decibels(rms(b.left[4800...]) / rms(a.left[4800...]))
        let right = decibels(rms(b.right[4800...]) / rms(a.right[4800...]))
        #expect(abs(left - right) < 0.01, "both channels are filtered alike")
        return left
    }

    @Test("a 200 Hz sine through a 1 kHz cutoff is nearly unchanged")
    func passband() throws {
        let measured = try measuredGainDB(frequency: 200, cutoff: 1000)
        let expected = lowPassGainDB(cutoff: 1000, frequency: 200)
        #expect(abs(measured) < 0.5, "passband: \(measured) dB")
        #expect(abs(measured - expected) < 0.1, "measured \(measured) dB, analytic \(expected) dB")
    }

    @Test("an 8 kHz sine through a 500 Hz cutoff is attenuated as the response says", arguments: KernelSelection.allCases)
    func stopband(kernels: KernelSelection) throws {
        guard kernels.isSupported else {
            print("skipped: this CPU cannot run the \(kernels) kernels")
            return
        }
        let measured = try measuredGainDB(frequency: 8000, cutoff: 500, kernels: kernels)
        let expected = lowPassGainDB(cutoff: 500, frequency: 8000)
        #expect(expected < -35, "the analytic response itself: \(expected) dB")
        #expect(abs(measured - expected) < 1.5, "measured \(measured) dB, analytic \(expected) dB")
    }

    @Test("the cutoff is −3 dB", arguments: [100, 1000, 4000] as [Float])
    func cutoffIsHalfPower(cutoff: Float) throws {
        let measured = try measuredGainDB(frequency: Double(cutoff), cutoff: cutoff)
        #expect(abs(measured + 3) < 0.5, "\(measured) dB at the cutoff")
    }

    @Test("every kernel set filters alike, ramps included")
    func kernelSetsAgree() throws {
        func run(_ kernels: KernelSelection) throws -> [Float] {
            let mixer = try makeMixer { $0.kernels = kernels }
            let noise = DecodedAudio(
                sampleRate: 48_000, channelCount: 2, samples: (0..<9600).map { Float(sin(Double($0) * 0.7) * cos(Double($0) * 0.013)) })
            let voice = try mixer.play(try mixer.loadSound(noise, name: "n"), VoiceParameters(loop: true, lowPassHz: 3000))
            var out = render(mixer, frames: 700).left
            try mixer.setLowPass(voice, cutoffHz: 200, rampFrames: 333)
            out += render(mixer, frames: 1000, block: 77).left
            try mixer.setLowPass(voice, cutoffHz: nil, rampFrames: 100)
            out += render(mixer, frames: 700).right
            return out
        }
        let reference = try run(.portable)
        for set in KernelSelection.allCases where set != .portable && set.isSupported {
            let other = try run(set)
            let worst = zip(reference, other).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-5, "\(set) differs from portable by \(worst)")
        }
    }

    /// Steps of a 1 kHz sine while its filter goes 300 Hz → 12 kHz → 150 Hz
    /// → off, each change ramped over `rampFrames` (nil: one quantum).
    func stepsThroughChanges(rampFrames: Int?, shared: Bool = true) throws -> (worst: [Float], own: Float) {
        let mixer = try makeMixer { $0.sharedLowPass = shared }
        let sound = try loopingSine(mixer, 1000, amplitude: 0.9)
        let voice = try mixer.play(sound, VoiceParameters(loop: true, lowPassHz: 300))
        var out = render(mixer, frames: 1024).left
        for cutoff: Float? in [12_000, 150, nil] {
            try mixer.setLowPass(voice, cutoffHz: cutoff, rampFrames: rampFrames)
            out += render(mixer, frames: 1024).left
        }
        // The unfiltered signal's largest sample-to-sample step.
        let own = 0.9 * Float(0.5.squareRoot()) * Float(2 * sin(Double.pi * 1000 / 48_000))
        let worst = stride(from: 1024, to: out.count, by: 1024).map { maxStep(out[($0 - 1)..<($0 + 1024)]) }
        return (worst, own)
    }

    @Test("ramping the cutoff makes no click: no step beyond the signal's own slope and the catch-up",
          arguments: [true, false])
    func rampDoesNotClick(shared: Bool) throws {
        // Opening the filter, the output has to catch up with its input (it
        // lagged by up to the signal's amplitude); spread over a quantum that
        // adds at most a quarter of the signal's own largest step. Closing
        // it, and switching it off, stay within the signal's own steps plus
        // that catch-up.
        let ramped = try stepsThroughChanges(rampFrames: nil, shared: shared)
        for (change, worst) in ramped.worst.enumerated() {
            #expect(worst <= ramped.own * 1.25, "change \(change): largest step \(worst) against the signal's \(ramped.own)")
        }
        let abrupt = try stepsThroughChanges(rampFrames: 0, shared: shared)
        if shared {
            // The shared filters crossfade every change of band over a
            // quantum, so even a change made at once does not click.
            for (change, worst) in abrupt.worst.enumerated() {
                #expect(worst <= abrupt.own * 1.25, "unramped change \(change): largest step \(worst)")
            }
        } else {
            // A filter of its own retuned at once does click: the test can tell.
            #expect(abrupt.worst[0] > abrupt.own * 2, "an unramped opening jumps: \(abrupt.worst[0])")
        }
    }

    @Test("removing the filter ramps it open, then the voice is bit-identical to an unfiltered one",
          arguments: [true, false])
    func offReturnsToTheDirectPath(shared: Bool) throws {
        let plain = try makeMixer(), filtered = try makeMixer { $0.sharedLowPass = shared }
        try plain.play(try loopingSine(plain, 3000), VoiceParameters(loop: true))
        let voice = try filtered.play(try loopingSine(filtered, 3000), VoiceParameters(loop: true, lowPassHz: 800))
        _ = render(plain, frames: 1024)
        _ = render(filtered, frames: 1024)
        try filtered.setLowPass(voice, cutoffHz: nil, rampFrames: 300)
        let a = render(plain, frames: 2048), b = render(filtered, frames: 2048)
        // The ramp spans quantum 0 and part of 1 (300 frames); from the next
        // quantum on the voice mixes straight into its bus again.
        // Shared: quantum 1 crossfades from the filter into the bus, and the
        // filter's tail (τ ≈ 6 frames at 800 Hz) rings out in quantum 2 and
        // is then released.
        let exactFrom = shared ? 1024 : 512
        #expect(Array(a.left[exactFrom...]) == Array(b.left[exactFrom...]))
        #expect(Array(a.right[exactFrom...]) == Array(b.right[exactFrom...]))
        let tail = zip(a.left[512..<exactFrom], b.left[512..<exactFrom]).map { abs($0 - $1) }.max() ?? 0
        #expect(tail < 1e-3, "the filter's tail after the crossfade: \(tail)")
        #expect(rms(b.left[..<300]) > 0.1, "not muted while the filter opens")
    }

    @Test("invalid cutoffs and ended voices are refused")
    func validation() throws {
        let mixer = try makeMixer()
        let sound = try loopingSine(mixer, 440)
        for bad: Float in [0, -5, 9.9, 24_001, .nan, .infinity] {
            #expect(throws: SoundEngineError.self) { try mixer.play(sound, VoiceParameters(lowPassHz: bad)) }
        }
        let voice = try mixer.play(sound, VoiceParameters(loop: true))
        for bad: Float in [0, -1, 5, 30_000, .nan, -.infinity] {
            #expect {
                try mixer.setLowPass(voice, cutoffHz: bad)
            } throws: { if case .invalidParameter = $0 as? SoundEngineError { true } else { false } }
        }
        #expect(throws: SoundEngineError.self) { try mixer.setLowPass(voice, cutoffHz: 1000, rampFrames: -1) }
        try mixer.setLowPass(voice, cutoffHz: 10)
        try mixer.setLowPass(voice, cutoffHz: 24_000)
        try mixer.stop(voice)
        _ = render(mixer, frames: 1024)
        #expect {
            try mixer.setLowPass(voice, cutoffHz: 1000)
        } throws: { if case .idNotFound = $0 as? SoundEngineError { true } else { false } }
    }
}

@Suite("Combined volume and pan")
struct VolumeAndPanTests {
    @Test("setVolumeAndPan is one command and lands where setVolume + setPan do")
    func oneCommand() throws {
        let a = try makeMixer(), b = try makeMixer()
        let va = try a.play(try a.loadSound(constant(0.5, frames: 1000), name: "dc"), VoiceParameters(loop: true))
        let vb = try b.play(try b.loadSound(constant(0.5, frames: 1000), name: "dc"), VoiceParameters(loop: true))
        _ = render(a, frames: 256)
        _ = render(b, frames: 256)
        let before = a.statistics.commandsQueued
        try a.setVolumeAndPan(va, volume: 0.3, pan: -0.6, rampFrames: 100)
        #expect(a.statistics.commandsQueued == before + 1)
        try b.setVolume(vb, 0.3, rampFrames: 100)
        try b.setPan(vb, -0.6, rampFrames: 100)
        let x = render(a, frames: 512), y = render(b, frames: 512)
        let theta = (-0.6 + 1) * Double.pi / 4
        #expect(abs(Double(x.left[400]) - 0.5 * 0.3 * cos(theta)) < 1e-6)
        #expect(abs(Double(x.right[400]) - 0.5 * 0.3 * sin(theta)) < 1e-6)
        #expect(zip(x.left, y.left).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(throws: SoundEngineError.self) { try a.setVolumeAndPan(va, volume: 17, pan: 0) }
        #expect(throws: SoundEngineError.self) { try a.setVolumeAndPan(va, volume: 1, pan: 1.5) }
    }
}

@Test("a command is still one 64-byte slot")
func commandSlotSize() {
    #expect(Mixer.commandSlotBytes == 64)
}
