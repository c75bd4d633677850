import Foundation
import SoundCore
import SoundMixer
import Testing

@Suite("Resampling and looping")
struct ResamplingTests {
    @Test("a looped sine keeps its frequency under pitch and has no step at the loop point", arguments: [
        (0.5, ResamplerQuality.linear), (1, .linear), (2, .linear), (0.5, .cubic), (2, .cubic), (0.5, .sinc), (2, .sinc),
    ])
    func pitchedLoop(pitch: Double, quality: ResamplerQuality) throws {
        let mixer = try makeMixer()
        // 480 frames = exactly 10 periods of 1 kHz: a seamless loop.
        let sound = try mixer.loadSound(sine(frequency: 1000, frames: 480, amplitude: 0.5), name: "sine")
        try mixer.play(sound, VoiceParameters(pan: -1, pitch: pitch, loop: true, quality: quality))
        let out = render(mixer, frames: 9600).left
        let expected = 1000 * pitch
        let measured = zeroCrossingFrequency(out[256...])
        #expect(abs(measured / expected - 1) < 0.002, "measured \(measured) Hz, expected \(expected)")
        // The largest step a 0.5-amplitude sine of this frequency can make, plus 2 %.
        let limit = Float(0.5 * 2 * Double.pi * expected / 48_000 * 1.02)
        #expect(maxStep(out[...]) <= limit)
        #expect(abs(rms(out[256...]) - 0.5 / 2.0.squareRoot()) < 0.01)
    }

    @Test("a source at another rate plays at its own pitch")
    func otherSourceRate() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(sine(frequency: 1000, rate: 24_000, frames: 240), name: "24k")
        try mixer.play(sound, VoiceParameters(loop: true))
        let measured = zeroCrossingFrequency(render(mixer, frames: 9600).left[...])
        #expect(abs(measured - 1000) < 2)
    }

    @Test("an inner loop region repeats without a step")
    func innerLoopRegion() throws {
        let mixer = try makeMixer()
        // Silence, then 20 periods of 1 kHz at frames 1000..<1960 as the loop, then silence again.
        var samples = [Float](repeating: 0, count: 3000)
        for i in 1000..<1960 {
            let phase: Double = 2 * Double.pi * 1000 * Double(i - 1000) / 48_000
            samples[i] = 0.5 * Float(sin(phase))
        }
        let audio = DecodedAudio(sampleRate: 48_000, channelCount: 1, samples: samples)
        let sound = try mixer.loadSound(audio, name: "region", loop: LoopRegion(start: 1000, end: 1960))
        try mixer.play(sound, VoiceParameters(pan: -1, pitch: 1.5, loop: true, quality: .cubic))
        let out = render(mixer, frames: 12_000).left
        #expect(maxStep(out[...]) <= Float(0.5 * 2 * Double.pi * 1500 / 48_000 * 1.03))
        #expect(abs(zeroCrossingFrequency(out[1000...]) - 1500) < 3)
        #expect(abs(rms(out[1000...]) - 0.5 / 2.0.squareRoot()) < 0.01)
    }

    @Test("better interpolation is closer to the ideal signal")
    func qualityOrdering() throws {
        func error(_ quality: ResamplerQuality) throws -> Double {
            let mixer = try makeMixer()
            let sound = try mixer.loadSound(sine(frequency: 6000, frames: 48, amplitude: 0.5), name: "6k")
            try mixer.play(sound, VoiceParameters(pan: -1, pitch: 0.73, loop: true, quality: quality))
            let out = render(mixer, frames: 4800).left
            var e = 0.0
            for t in 1000..<4800 {
                let phase: Double = 2 * Double.pi * 6000 * 0.73 * Double(t) / 48_000
                let ideal = 0.5 * sin(phase)
                e += (Double(out[t]) - ideal) * (Double(out[t]) - ideal)
            }
            return (e / 3800).squareRoot()
        }
        let linear = try error(.linear), cubic = try error(.cubic), sinc = try error(.sinc)
        #expect(cubic < linear)
        #expect(sinc < cubic)
        #expect(sinc < 0.005)
    }

    /// A 6 kHz sine pitched by 0.73 (in memory or streamed, sound and voice
    /// quality as given): sinc follows the ideal signal closely, linear's
    /// error is many times larger, so the output tells which one played.
    @Test("a sound's quality chosen at load plays unless the voice overrides it")
    func perSoundQuality() throws {
        let audio = sine(frequency: 6000, frames: 4800, amplitude: 0.5)
        let start = 512
        func play(loadedWith sound: ResamplerQuality?, voice: ResamplerQuality?, streamed: Bool = false) throws
            -> [Float]
        {
            let mixer = try makeMixer()
            defer { mixer.shutdown() }
            let id: SoundID
            switch (sound, streamed) {
            case (nil, false): id = try mixer.loadSound(audio, name: "6k", loop: nil)
            case (let q?, false): id = try mixer.loadSound(audio, name: "6k", loop: nil, quality: q)
            case (nil, true): id = try mixer.loadStream(name: "6k") { MemorySource(audio) }
            case (let q?, true): id = try mixer.loadStream(name: "6k", quality: q) { MemorySource(audio) }
            }
            let parameters = VoiceParameters(pan: -1, pitch: 0.73, start: .atFrame(Int64(start)), quality: voice)
            let v = try mixer.play(id, parameters)
            // A stream fits its ring whole: wait until it is decoded so it starts on time.
            if streamed { #expect(waitUntil { mixer.streamProgress(v)?.reachedEnd == true }) }
            return render(mixer, frames: 4800).left
        }
        func error(_ out: [Float]) -> Double {
            var e = 0.0
            for t in 1000..<4800 {
                let phase: Double = 2 * Double.pi * 6000 * 0.73 * Double(t - start) / 48_000
                e += (Double(out[t]) - 0.5 * sin(phase)) * (Double(out[t]) - 0.5 * sin(phase))
            }
            return (e / 3800).squareRoot()
        }
        func same(_ a: [Float], _ b: [Float]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) < 1e-7 } }

        let sincSound = try play(loadedWith: .sinc, voice: nil)
        let plainSound = try play(loadedWith: nil, voice: nil)
        #expect(error(sincSound) < 0.005, "a sound loaded with .sinc must play with sinc")
        #expect(error(plainSound) > 4 * error(sincSound), "linear \(error(plainSound)), sinc \(error(sincSound))")
        // The voice's choice wins over the sound's, both ways.
        #expect(same(try play(loadedWith: .sinc, voice: .linear), plainSound))
        #expect(same(try play(loadedWith: .linear, voice: nil), plainSound))
        #expect(same(try play(loadedWith: nil, voice: .sinc), sincSound))
        let cubicVoice = try play(loadedWith: .sinc, voice: .cubic)
        #expect(same(cubicVoice, try play(loadedWith: .linear, voice: .cubic)) && !same(cubicVoice, sincSound))
        // The same for a streamed sound.
        #expect(same(try play(loadedWith: .sinc, voice: nil, streamed: true), sincSound))
        #expect(same(try play(loadedWith: nil, voice: nil, streamed: true), plainSound))
        #expect(same(try play(loadedWith: .sinc, voice: .linear, streamed: true), plainSound))
    }

    // The kernel sets are compared with each other in KernelLevelTests.
}
