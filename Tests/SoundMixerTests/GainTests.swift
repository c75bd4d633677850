import CMixKernels
import Foundation
import SoundCore
import SoundMixer
import Testing

@Suite("Gains, pan, ramps and fades")
struct GainTests {
    @Test("mono pan follows the equal-power law", arguments: [-1.0, -0.5, 0, 0.25, 1] as [Float])
    func panLaw(pan: Float) throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(0.5, frames: 1000), name: "dc")
        try mixer.play(sound, VoiceParameters(pan: pan, loop: true))
        let out = render(mixer, frames: 512)
        let theta = (Double(pan) + 1) * Double.pi / 4
        #expect(abs(Double(out.left[300]) - 0.5 * cos(theta)) < 1e-5)
        #expect(abs(Double(out.right[300]) - 0.5 * sin(theta)) < 1e-5)
    }

    @Test("a stereo source is balanced, unchanged at the centre")
    func stereoBalance() throws {
        let mixer = try makeMixer()
        let audio = DecodedAudio(sampleRate: 48_000, channelCount: 2, samples: (0..<2000).map { $0 % 2 == 0 ? 0.25 : 0.5 })
        let sound = try mixer.loadSound(audio, name: "st")
        let voice = try mixer.play(sound, VoiceParameters(loop: true))
        var out = render(mixer, frames: 512)
        #expect(abs(out.left[300] - 0.25) < 1e-6 && abs(out.right[300] - 0.5) < 1e-6)
        try mixer.setPan(voice, 1)
        out = render(mixer, frames: 1024)
        #expect(abs(out.left[800]) < 1e-6 && abs(out.right[800] - 0.5) < 1e-6)
    }

    @Test("more than two channels are mixed down to stereo")
    func downmix() throws {
        let mixer = try makeMixer()
        var samples = [Float](repeating: 0, count: 6 * 1000)
        for f in 0..<1000 { samples[6 * f + 2] = 1 }  // centre only
        let sound = try mixer.loadSound(DecodedAudio(sampleRate: 48_000, channelCount: 6, samples: samples), name: "5.1")
        try mixer.play(sound, VoiceParameters(loop: true))
        let out = render(mixer, frames: 512)
        #expect(abs(out.left[300] - 0.70710677) < 1e-5 && abs(out.right[300] - 0.70710677) < 1e-5)
    }

    @Test("volume changes ramp without a step")
    func volumeRamp() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        let voice = try mixer.play(sound, VoiceParameters(volume: 0, pan: -1, loop: true))
        var out = render(mixer, frames: 512).left
        try mixer.setVolume(voice, 1)  // default ramp: one quantum (256)
        out += render(mixer, frames: 1024).left
        try mixer.setVolume(voice, 0.25, rampFrames: 700)
        out += render(mixer, frames: 1024).left
        #expect(maxStep(out[...]) <= 1.0 / 256 * 1.001)
        #expect(abs(out[1400] - 1) < 1e-6 && abs(out.last! - 0.25) < 1e-6)
    }

    @Test("fade in, stop with fade out, pause and resume are ramps, and stop ends the voice on time")
    func fades() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        let voice = try mixer.play(sound, VoiceParameters(pan: -1, loop: true, fadeIn: .microseconds(1000 * 1_000_000 / 48_000)))
        var out = render(mixer, frames: 1024).left
        #expect(abs(out[500] - 0.5) < 0.01)
        try mixer.pause(voice, fadeFrames: 300)
        out += render(mixer, frames: 1024).left
        #expect(out[1024 + 400] == 0 && mixer.isActive(voice))
        try mixer.resume(voice, fadeFrames: 100)
        out += render(mixer, frames: 1024).left
        #expect(abs(out[2048 + 200] - 1) < 1e-6)
        try mixer.stop(voice, fadeOutFrames: 512, atFrame: 3072 + 100)
        out += render(mixer, frames: 1024).left
        #expect(maxStep(out[...]) <= 1.0 / 100 * 1.001)
        #expect(out[3072 + 99] == 1 && out[3072 + 100 + 256] > 0.49 && out[3072 + 100 + 256] < 0.51)
        #expect(out[3072 + 612] == 0)
        let ended = events(mixer).contains { if case .voiceEnded(voice, sound) = $0 { true } else { false } }
        #expect(ended && !mixer.isActive(voice))
    }

    @Test("the master gain ramps and reports where it got to")
    func masterGain() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(sound, VoiceParameters(pan: -1, loop: true))
        _ = render(mixer, frames: 256)
        mixer.setMasterGain(0, rampFrames: 512)
        let out = render(mixer, frames: 1024).left
        #expect(maxStep(out[...]) <= 1.0 / 512 * 1.001)
        #expect(out[600] == 0 && mixer.currentMasterGain == 0)
    }
}

/// Issue 8, item 5: the render entry mixes with denormals flushed to zero
/// (DAZ: a denormal input counts as zero; FTZ: no denormal result), and gives
/// the calling thread its own floating-point mode back.
@Suite("Floating-point mode of the render")
struct DenormalTests {
    @Test("denormal input mixes as zero, and the caller's mode is restored")
    func denormalsAreFlushedWhileRendering() throws {
        let denormal = Float.leastNormalMagnitude / 4
        #expect(denormal.isSubnormal)
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(denormal, frames: 1000), name: "tiny")
        try mixer.play(sound, VoiceParameters(loop: true))
        let before = mk_fpu_flushes_denormals()
        let out = render(mixer, frames: 1024)
        #expect(out.left[800] == 0 && out.right[800] == 0, "a denormal reached the output: \(out.left[800])")
        #expect(mk_fpu_flushes_denormals() == before, "the caller's floating-point mode was changed")
    }
}

/// The master fade the engine puts around every cork (decision 0006) is a
/// straight ramp, whatever the render call sizes and kernel level: no jump.
@Suite("Master fade")
struct MasterFadeTests {
    @Test("a master fade-out over one quantum is a ramp without a jump", arguments: [64, 256, 441, 512, 1000])
    func masterFadeOutIsARamp(block: Int) throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(0.5, frames: 48_000), name: "dc")
        try mixer.play(sound, VoiceParameters(pan: -1, loop: true))
        _ = render(mixer, frames: 1024, block: block)
        mixer.setMasterGain(0, rampFrames: 512)
        let out = render(mixer, frames: 2048, block: block).left
        var largest: Float = 0
        for i in 1..<out.count { largest = max(largest, abs(out[i] - out[i - 1])) }
        #expect(largest <= 0.5 / 512 * 1.5, "a jump of \(largest) in the fade")
        #expect(out.last == 0)
        #expect(mixer.currentMasterGain == 0)
    }
}
