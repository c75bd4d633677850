import Foundation
import SoundCore
import SoundDecoding
import SoundMixer
import Testing

@Suite("Streaming")
struct StreamingTests {
    @Test("a streamed source renders like the same audio in memory", arguments: [1.0, 0.77, 1.31])
    func streamEqualsMemory(pitch: Double) throws {
        let audio = DecodedAudio(
            sampleRate: 44_100, channelCount: 2,
            samples: (0..<(2 * 20_000)).map { i -> Float in Float(sin(Double(i) * 0.0123)) * (i % 2 == 0 ? 0.5 : 0.3) })
        let reference: [Float]
        do {
            let mixer = try makeMixer()
            try mixer.play(try mixer.loadSound(audio, name: "memory", loop: nil), VoiceParameters(pitch: pitch))
            reference = render(mixer, frames: 48_000).left
        }
        let mixer = try makeMixer()
        let stream = try mixer.loadStream(name: "stream") { MemorySource(audio) }
        let voice = try mixer.play(stream, VoiceParameters(pitch: pitch))
        // The whole sound fits the ring: wait until it is decoded, then the
        // voice starts at the next quantum; compare sample for sample.
        #expect(waitUntil { mixer.streamProgress(voice)?.reachedEnd == true })
        #expect(mixer.streamProgress(voice) == StreamProgress(decodedFrames: 20_000, reachedEnd: true, ready: true))
        let streamed = render(mixer, frames: 48_000).left
        #expect(zip(streamed, reference).map { abs($0 - $1) }.max()! < 1e-6)
        #expect(!mixer.isActive(voice) && mixer.statistics.starvations == 0)
        mixer.shutdown()
    }

    /// A real WAV file, decoded by libsndfile twice: whole into memory, and
    /// on the streaming thread into a ring of 1024 frames (the file is 64
    /// times longer, so the ring refills and wraps about 64 times). Between
    /// quanta the test waits, with a deadline, until the decoder has
    /// published every frame the next quantum reads, as a real-time schedule
    /// would allow: the comparison cannot depend on thread timing.
    @Test("a streamed sound file renders like its in-memory decode, across many ring refills", arguments: [
        (1.0, ResamplerQuality.linear), (0.77, .cubic), (1.31, .sinc),
    ])
    func streamedFileEqualsDecode(pitch: Double, quality: ResamplerQuality) throws {
        let rate = 44_100, frames = 65_536
        var seed: UInt64 = 0x5EED
        var samples: [Float] = []
        for i in 0..<frames {
            let t = Double(i) / Double(rate)
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Float(Int64(bitPattern: seed) >> 40) / Float(1 << 23) * 0.05
            samples.append(Float(0.4 * sin(2 * Double.pi * 440 * t) + 0.2 * sin(2 * Double.pi * 3100 * t)) + noise)
            samples.append(Float(0.3 * sin(2 * Double.pi * 660 * t + 1)) - noise)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID()).wav").path
        try writeWAV(DecodedAudio(sampleRate: rate, channelCount: 2, samples: samples), to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let decoded = try SoundFileDecoder.decode(path: path)
        #expect(decoded.frameCount == frames && decoded.channelCount == 2)
        let start = 1024
        let parameters = VoiceParameters(pitch: pitch, start: .atFrame(Int64(start)), quality: quality)
        let step = UInt64(pitch * Double(rate) / 48_000 * 4_294_967_296.0)
        let quantum = 256
        let played = Int(Double(frames) * 4_294_967_296.0 / Double(step))
        let total = (start + played + 1024) / quantum * quantum

        let memory = try makeMixer()
        try memory.play(try memory.loadSound(decoded, name: "memory", loop: nil), parameters)
        let reference = render(memory, frames: total, block: quantum)
        #expect(rms(reference.left[...]) > 0.2 && rms(reference.right[...]) > 0.1)

        let mixer = try makeMixer { $0.streamBufferFrames = 1024 }
        let stream = try mixer.loadStream(name: path) { () throws(SoundEngineError) -> any AudioFrameSource in
            try SoundFileDecoder(path: path)
        }
        let voice = try mixer.play(stream, parameters)
        var left: [Float] = [], right: [Float] = []
        while left.count < total {
            // Source frames read by the end of the next quantum, plus the
            // interpolator's taps and the ring's 32-frame margin.
            let needed = Int((UInt64(max(0, left.count + quantum - start)) &* step) >> 32) + 64
            let decodedAhead = waitUntil {
                guard let progress = mixer.streamProgress(voice) else { return true }  // ended
                return progress.reachedEnd || (progress.ready && progress.decodedFrames >= needed)
            }
            guard decodedAhead else {
                Issue.record("the decoder did not reach frame \(needed) within the deadline")
                break
            }
            let out = render(mixer, frames: quantum)
            left += out.left
            right += out.right
        }
        let s = mixer.statistics
        #expect(s.starvations == 0)
        #expect(s.streamedFrames >= UInt64(frames - 8), "streamed \(s.streamedFrames) of \(frames) frames")
        #expect(!mixer.isActive(voice))
        mixer.shutdown()
        #expect(left.count == total)
        let error = max(
            zip(left, reference.left).map { abs($0 - $1) }.max() ?? .infinity,
            zip(right, reference.right).map { abs($0 - $1) }.max() ?? .infinity)
        #expect(error < 1e-6, "largest difference \(error)")
        let first = left.indices.first { abs(left[$0] - reference.left[$0]) >= 1e-6 }
        #expect(first == nil, "first difference at output frame \(first ?? -1) (the voice starts at \(start))")
    }

    @Test("a streamed sound reports its markers as their audio is rendered, on every lap")
    func streamedMarkersEveryLap() throws {
        let audio = sine(frequency: 1000, frames: 4800, amplitude: 0.5)
        let mixer = try makeMixer { $0.streamBufferFrames = 2048 }
        // Given out of order: indices follow the sorted frames (1200 is 0, 3600 is 1).
        let stream = try mixer.loadStream(name: "marked", markers: [3600, 1200], frames: 4800) { MemorySource(audio) }
        let voice = try mixer.play(stream, VoiceParameters(loop: true))
        var out: [Float] = []
        var marks: [(index: Int, rendered: Int)] = []
        // Render until the voice has begun (the ring pre-fills), then 2.5 laps.
        #expect(waitUntil { out += render(mixer, frames: 256).left; return out.contains { $0 != 0 } })
        let start = out.firstIndex { $0 != 0 }! - 1
        while out.count - start < 12_000 {
            let played = out.count - start
            #expect(waitUntil { (mixer.streamProgress(voice)?.decodedFrames ?? 0) >= played + 600 })
            out += render(mixer, frames: 256).left
            for case .marker(let v, let s, let index) in events(mixer) where v == voice && s == stream {
                marks.append((index, out.count - start))
            }
        }
        // Crossed at 1200, 3600, 6000, 8400, 10800 frames of the voice: each
        // reported by the block (256 frames) that rendered it.
        #expect(marks.map(\.index) == [0, 1, 0, 1, 0], "\(marks)")
        for (mark, frame) in zip(marks, [1200, 3600, 6000, 8400, 10_800]) {
            #expect(mark.rendered > frame && mark.rendered <= frame + 256 + 1, "marker \(mark.index) at \(frame): \(mark.rendered)")
        }
        mixer.shutdown()
    }

    @Test("stream markers need the length, and must fall inside it; a refused stream takes no slot")
    func streamedMarkersAreChecked() throws {
        let audio = sine(frequency: 1000, frames: 4800)
        let mixer = try makeMixer { $0.maxSounds = 1 }
        #expect(throws: SoundEngineError.self) {
            try mixer.loadStream(name: "no length", markers: [10]) { MemorySource(audio) }
        }
        #expect(throws: SoundEngineError.self) {
            try mixer.loadStream(name: "past the end", markers: [4800], frames: 4800) { MemorySource(audio) }
        }
        // The one sound slot is still free.
        _ = try mixer.loadStream(name: "fine", markers: [0, 4799], frames: 4800) { MemorySource(audio) }
        mixer.shutdown()
    }

    @Test("a stream longer than its ring loops through it with the decoder keeping up")
    func ringWrapsAndLoops() throws {
        let audio = sine(frequency: 1000, frames: 4800, amplitude: 0.5)
        let mixer = try makeMixer { $0.streamBufferFrames = 1024 }
        let source = MemorySource(audio)
        let stream = try mixer.loadStream(name: "loop") { source }
        let voice = try mixer.play(stream, VoiceParameters(pan: -1, loop: true))
        var out: [Float] = []
        #expect(waitUntil { out += render(mixer, frames: 256).left; return out.contains { $0 != 0 } })
        let start = out.firstIndex { $0 != 0 }! - 1
        for _ in 0..<100 {
            // Wait until the decoder has topped the ring up again, as it would have in real time.
            let playedSoFar = out.count - start
            #expect(waitUntil { (mixer.streamProgress(voice)?.decodedFrames ?? 0) >= playedSoFar + 700 })
            out += render(mixer, frames: 256).left
        }
        let played = out[start...]
        #expect(mixer.statistics.starvations == 0)
        #expect(maxStep(played) <= Float(0.5 * 2 * Double.pi * 1000 / 48_000 * 1.02))
        #expect(abs(zeroCrossingFrequency(played) - 1000) < 1)
        mixer.shutdown()
    }

    @Test("a starved stream plays silence, reports it once and resumes")
    func starvation() throws {
        let mixer = try makeMixer { $0.streamBufferFrames = 2048 }
        let source = MemorySource(constant(0.5, frames: 100_000), gate: 3000)
        let stream = try mixer.loadStream(name: "slow") { source }
        let voice = try mixer.play(stream, VoiceParameters(pan: -1))
        var out: [Float] = []
        #expect(waitUntil { out += render(mixer, frames: 256).left; return out.contains { $0 != 0 } })
        // Play on until the decoder is stuck at the gate, so everything it can
        // decode is in the ring (a loaded machine may lag; without this wait a
        // late chunk would end the silence and starve the voice a second time).
        let start = out.firstIndex { $0 != 0 }!
        #expect(waitUntil {
            if source.isWaitingAtGate { return true }
            // Render only with 512 frames buffered ahead, as real time would allow.
            if (mixer.streamProgress(voice)?.decodedFrames ?? 0) >= out.count - start + 512 {
                out += render(mixer, frames: 256).left
            }
            return false
        })
        #expect(mixer.statistics.starvations == 0)
        out += render(mixer, frames: 8192).left  // far more than the ≤ 3000 frames decoded
        #expect(mixer.statistics.starvations == 1)
        #expect(out.suffix(1000).allSatisfy { $0 == 0 })
        #expect(events(mixer) == [.streamStarved(voice)])
        source.open(gateAt: .max)
        #expect(waitUntil { out = render(mixer, frames: 256).left; return out.last == 0.5 })
        #expect(mixer.isActive(voice))
        mixer.shutdown()
    }

    @Test("a source that cannot open ends its voice with the error")
    func failedOpen() throws {
        let mixer = try makeMixer()
        let stream = try mixer.loadStream(name: "missing") { () throws(SoundEngineError) -> any AudioFrameSource in
            throw .fileNotFound("nope.ogg")
        }
        let voice = try mixer.play(stream)
        var seen: [MixerEvent] = []
        #expect(waitUntil { _ = render(mixer, frames: 256); seen += events(mixer); return seen.count == 2 })
        let failed = seen.firstIndex(of: .streamFailed(voice, .fileNotFound("nope.ogg")))
        let ended = seen.firstIndex { if case .voiceEnded(voice, stream) = $0 { true } else { false } }
        #expect(failed != nil && ended != nil)
        #expect((failed ?? .max) < (ended ?? .min), "the failure must come before the end: \(seen)")
        mixer.shutdown()
    }
}
