import Foundation
import SoundCore
@testable import SoundMixer
import Testing

/// Mixing in the output's layout (issue 17, item 6; docs/mixer.md,
/// "Surround"): 2D voices on the front pair, placed voices over the
/// speakers by pairwise panning, spread, the LFE only where asked, and a
/// stereo output exactly as before.
@Suite("Surround")
struct SurroundTests {
    /// Renders `frames` frames of a `channels`-channel float32 output, channel by channel.
    static func renderChannels(_ mixer: Mixer, channels: Int, frames: Int, block: Int? = nil) -> [[Float]] {
        var interleaved = [Float](repeating: .nan, count: frames * channels)
        let step = block ?? frames
        interleaved.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < frames {
                let n = min(step, frames - done)
                mixer.render(into: UnsafeMutableRawPointer(buffer.baseAddress! + channels * done), frames: n)
                done += n
            }
        }
        return (0..<channels).map { c in stride(from: c, to: frames * channels, by: channels).map { interleaved[$0] } }
    }

    static func surroundMixer(channels: Int) throws -> Mixer {
        let mixer = try makeMixer()
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: channels, sampleFormat: .float32))
        return mixer
    }

    static func level(_ x: [Float]) -> Double { rms(x[(x.count / 2)...]) }

    static func db(_ a: Double, over b: Double) -> Double { 20 * log10(max(a, 1e-12) / max(b, 1e-12)) }

    @Test("a 2D voice plays on the front pair of a 5.1 output, the rest silent")
    func twoDimensionalVoicesStayInFront() throws {
        let mixer = try Self.surroundMixer(channels: 6)
        let sound = try mixer.loadSound(constant(0.5, frames: 48_000), name: "dc")
        try mixer.play(sound, VoiceParameters(pan: 0))
        let out = Self.renderChannels(mixer, channels: 6, frames: 4096)
        let expected = Float(0.5 * cos(Double.pi / 4))
        #expect(abs(out[0][2000] - expected) < 1e-6 && abs(out[1][2000] - expected) < 1e-6)
        for c in 2..<6 { #expect(out[c].allSatisfy { $0 == 0 }, "channel \(c)") }
    }

    @Test("a source at +110° on 5.1 is in the surround right only (≥ 20 dB over front left)")
    func plus110IsSurroundRight() throws {
        let mixer = try Self.surroundMixer(channels: 6)
        let sound = try mixer.loadSound(sine(frequency: 440, frames: 48_000, amplitude: 0.5), name: "tone")
        let azimuth = Float(110 * Double.pi / 180)
        try mixer.play(sound, VoiceParameters(pan: Float(sin(110 * Double.pi / 180)), placement: SpeakerPlacement(azimuth: azimuth)))
        let out = Self.renderChannels(mixer, channels: 6, frames: 8192)
        let rr = Self.level(out[5]), fl = Self.level(out[0])
        #expect(rr > 0.3)
        #expect(Self.db(rr, over: fl) >= 20, "RR \(rr), FL \(fl)")
        for c in [0, 1, 2, 3, 4] { #expect(Self.level(out[c]) < 1e-6, "channel \(c)") }
        // Heard from its first frame: it waited for its placement, never on the front pair.
        #expect(out[0].allSatisfy { abs($0) < 1e-5 } && out[1].allSatisfy { abs($0) < 1e-5 }, "\(maxStep(out[1][...]))")
    }

    @Test("between two speakers: the pair's VBAP gains at unit power, nothing elsewhere")
    func betweenSpeakersIsTheirPair() throws {
        let layout = try #require(SpeakerLayout(channels: 6))
        for degrees in [5.0, 45, 70, 150, -150, -60, 180] {
            let g = layout.gains(volume: 1, pan: 0, placement: SpeakerPlacement(azimuth: Float(degrees * Double.pi / 180)))
            let power = g.enumerated().filter { $0.offset != 3 }.map { Double($0.element * $0.element) }.reduce(0, +)
            #expect(abs(power - 1) < 1e-5, "\(degrees)°: power \(power)")
            #expect(g.filter { $0 > 1e-6 }.count <= 2, "\(degrees)°: \(g)")
            #expect(g[3] == 0, "no LFE unless asked")
        }
        // +70° lies between FR (30°) and RR (110°), nearer the middle: both sound.
        let g = layout.gains(volume: 1, pan: 0, placement: SpeakerPlacement(azimuth: Float(70 * Double.pi / 180)))
        #expect(g[1] > 0.5 && g[5] > 0.5 && abs(g[1] - g[5]) < 0.01, "\(g)")
        // Straight ahead is the centre speaker alone.
        let ahead = layout.gains(volume: 1, pan: 0, placement: SpeakerPlacement(azimuth: 0))
        #expect(abs(ahead[2] - 1) < 1e-6 && ahead[0] == 0 && ahead[1] == 0)
        // Every direction reaches a speaker on every layout, the back of 3.0 included.
        for channels in 3...8 {
            let l = try #require(SpeakerLayout(channels: channels))
            for d in stride(from: -180.0, through: 180, by: 7.5) {
                let gains = l.gains(volume: 1, pan: 0, placement: SpeakerPlacement(azimuth: Float(d * Double.pi / 180)))
                let p = gains.enumerated().filter { $0.offset != l.lfeChannel }.map { Double($0.element * $0.element) }
                #expect(abs(p.reduce(0, +) - 1) < 1e-5, "\(channels) channels, \(d)°")
            }
        }
    }

    @Test("spread 1 is the same level from every speaker; the LFE gets only what it is sent")
    func spreadAndLFE() throws {
        let mixer = try Self.surroundMixer(channels: 6)
        let sound = try mixer.loadSound(constant(0.5, frames: 48_000), name: "dc")
        try mixer.play(sound, VoiceParameters(placement: SpeakerPlacement(azimuth: 1, spread: 1, lfe: 0.5)))
        let out = Self.renderChannels(mixer, channels: 6, frames: 4096)
        for c in [0, 1, 2, 4, 5] { #expect(abs(out[c][3000] - 0.5 / Float(5).squareRoot()) < 1e-6, "channel \(c)") }
        #expect(abs(out[3][3000] - 0.25) < 1e-6, "LFE: volume × 0.5")
    }

    @Test("on a stereo output a placement changes nothing: the same samples as volume and pan")
    func stereoIsExactlyAsBefore() throws {
        func run(_ placed: Bool) throws -> [Float] {
            let mixer = try makeMixer()
            let sound = try mixer.loadSound(sine(frequency: 330, frames: 48_000, amplitude: 0.5), name: "tone")
            let voice = try mixer.play(sound, VoiceParameters(volume: 0.7, pan: 0.3, lowPassHz: 3000,
                                                               placement: placed ? SpeakerPlacement(azimuth: 2.5, spread: 0.4, lfe: 1) : nil))
            var out: [Float] = []
            for step in 0..<20 {
                let r = render(mixer, frames: 1000, block: 333)
                out += zip(r.left, r.right).flatMap { [$0, $1] }
                let pan = Float(step % 7) / 7 - 0.4
                if placed {
                    try mixer.setPlacement(voice, volume: 0.5, pan: pan, placement: SpeakerPlacement(azimuth: Float(step % 25) / 4 - 3, spread: 0.5))
                } else {
                    try mixer.setVolumeAndPan(voice, volume: 0.5, pan: pan)
                }
            }
            return out
        }
        #expect(try run(true) == run(false))
    }

    @Test("moving a placed voice ramps: no step beyond the signal's own")
    func movingDoesNotClick() throws {
        let mixer = try Self.surroundMixer(channels: 8)
        let sound = try mixer.loadSound(sine(frequency: 440, frames: 48_000, amplitude: 0.5), name: "tone")
        let voice = try mixer.play(sound, VoiceParameters(loop: false, placement: SpeakerPlacement(azimuth: 0)))
        var channels = [[Float]](repeating: [], count: 8)
        for step in 0..<60 {
            // Around the listener in 60 game frames of 512 frames, jumping 24° each.
            try mixer.setPlacement(
                voice, volume: 1, pan: 0, placement: SpeakerPlacement(azimuth: Float(step * 24 % 360 - 180) * .pi / 180))
            let out = Self.renderChannels(mixer, channels: 8, frames: 512)
            for c in 0..<8 { channels[c] += out[c] }
        }
        let own = Float(0.5 * 2 * Double.pi * 440 / 48_000)
        for c in 0..<8 { #expect(maxStep(channels[c][...]) <= own * 1.05, "channel \(c): \(maxStep(channels[c][...]))") }
    }

    @Test("a change of layout places every placed voice again, and back")
    func layoutChangesPlaceAgain() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(0.5, frames: 480_000), name: "dc")
        try mixer.play(sound, VoiceParameters(pan: 1, placement: SpeakerPlacement(azimuth: .pi * 110 / 180)))
        let stereo = render(mixer, frames: 2048)
        #expect(abs(stereo.right[1000] - 0.5) < 1e-6 && abs(stereo.left[1000]) < 1e-6)
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 6, sampleFormat: .float32))
        let surround = Self.renderChannels(mixer, channels: 6, frames: 2048)
        #expect(abs(surround[5][1000] - 0.5) < 1e-6 && abs(surround[1][1000]) < 1e-5, "placed for 5.1")
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32))
        let back = render(mixer, frames: 2048)
        #expect(abs(back.right[1000] - 0.5) < 1e-6 && abs(back.left[1000]) < 1e-6)
    }

    @Test("a placed voice's low-pass filters it; a stereo source is placed as its average")
    func filteredAndStereoSources() throws {
        let mixer = try Self.surroundMixer(channels: 4)
        let hiss = try mixer.loadSound(sine(frequency: 8000, frames: 48_000, amplitude: 0.5), name: "high")
        try mixer.play(hiss, VoiceParameters(lowPassHz: 500, placement: SpeakerPlacement(azimuth: .pi * 135 / 180)))
        let out = Self.renderChannels(mixer, channels: 4, frames: 8192)
        #expect(Self.level(out[3]) < 0.5 / 2.squareRoot() * 0.02, "8 kHz through 500 Hz is ≥ 34 dB down")
        let mixer2 = try Self.surroundMixer(channels: 4)
        let stereo = try mixer2.loadSound(constant(0.5, frames: 48_000, channels: 2), name: "stereo")
        try mixer2.play(stereo, VoiceParameters(placement: SpeakerPlacement(azimuth: -.pi * 135 / 180)))
        let out2 = Self.renderChannels(mixer2, channels: 4, frames: 4096)
        #expect(abs(out2[2][3000] - 0.5) < 1e-6, "rear left: (L + R) / 2")
    }

    @Test("int16 and wider outputs interleave the mix's channels, then zeros; the meter counts every channel")
    func outputsAndMeters() throws {
        let mixer = try makeMixer { $0.meterWindowFrames = 512 }
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 10, sampleFormat: .int16))
        let sound = try mixer.loadSound(constant(0.5, frames: 48_000), name: "dc")
        try mixer.play(sound, VoiceParameters(placement: SpeakerPlacement(azimuth: .pi / 2)))
        var samples = [Int16](repeating: 1, count: 2048 * 10)
        samples.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 2048) }
        let frame = Array(samples[1500 * 10..<1501 * 10])
        // 7.1 mix (8 channels) into 10: SR is channel 7; channels 8 and 9 silent.
        #expect(frame == [0, 0, 0, 0, 0, 0, 0, 16384, 0, 0], "\(frame)")
        let m = mixer.meter(.master)
        #expect(abs(m.peak - 0.5) < 1e-6)
        #expect(abs(m.rms - (0.25 / 8 as Float).squareRoot()) < 1e-5, "per sample of the 8 channels: \(m.rms)")
    }

    @Test("bad placements are refused naming the field, and nothing starts")
    func badPlacements() throws {
        let mixer = try Self.surroundMixer(channels: 6)
        let sound = try mixer.loadSound(constant(0.5, frames: 480), name: "dc")
        for bad in [SpeakerPlacement(azimuth: .nan), SpeakerPlacement(azimuth: 4), SpeakerPlacement(azimuth: .infinity),
                    SpeakerPlacement(spread: -0.1), SpeakerPlacement(spread: .nan), SpeakerPlacement(lfe: 17),
                    SpeakerPlacement(lfe: -.infinity)] {
            #expect { try mixer.play(sound, VoiceParameters(placement: bad)) } throws: { error in
                if case SoundEngineError.invalidParameter(let why) = error { why.contains("VoiceParameters.placement") } else { false }
            }
        }
        let voice = try mixer.play(sound, VoiceParameters(loop: false))
        #expect(throws: SoundEngineError.self) {
            try mixer.setPlacement(voice, volume: 1, pan: 0, placement: SpeakerPlacement(spread: 2))
        }
        #expect(mixer.statistics.voicesActive <= 1)
    }
}
