import SoundServerSupport
import CAllocationCounter
import Foundation
import SoundCore
import SoundMixer
import SoundEffects
import Synchronization
import Testing

@Suite("Real-time safety")
struct AllocationTests {
    /// This suite's counter slot (each allocation test has its own).
    let slot: Int32 = 0

    /// Where the positive control keeps what it allocates, so that the
    /// optimizer can neither remove nor stack-promote the allocations.
    final class Sink: @unchecked Sendable {
        // @unchecked: written by one thread, read after it finished.
        var values: [Int] = []
        var object: AnyObject?
    }

    /// Whether Swift runtime allocations (an array growing, an object) made
    /// on a thread armed like the render thread reach the counter: the C
    /// self-test only proves that C's malloc does.
    func swiftAllocationsAreCounted() -> Bool {
        let sink = Sink()
        let thread = JoinableThread {
            se_alloc_counter_arm(slot)
            sink.values.append(contentsOf: 0..<64)
            sink.object = Sink()
            se_alloc_counter_disarm()
        }
        se_alloc_counter_reset(slot)
        thread.start()
        thread.join()
        let counted = se_alloc_counter_allocations(slot) >= 2 && se_alloc_counter_armings(slot) == 1
        se_alloc_counter_reset(slot)
        return counted && sink.values.count == 64 && sink.object != nil
    }

    /// Drives the real render entry from a thread of its own, with the
    /// allocation counter armed only there, for thousands of quanta while
    /// this thread starts, changes and stops voices (in memory and streamed),
    /// edits buses and drains events: the render thread must not allocate or
    /// free once.
    @Test("the render thread makes no heap calls while voices start, stop and stream", .disabled(if: se_alloc_counter_compiled_out() == 1, "a sanitizer build: its runtime owns malloc"))
    func noAllocationsOnTheRenderThread() throws {
        #expect(se_alloc_counter_self_test(slot) == 1, "the allocation counter must see allocations for a zero to mean anything")
        #expect(swiftAllocationsAreCounted(), "the counter must see Swift's allocations on an armed thread too")
        let mixer = try makeMixer {
            $0.maxVoices = 48
            $0.maxAudibleVoices = 5  // the voice limit ranks, kills and virtualises all along
            $0.maxStreams = 4
            $0.streamBufferFrames = 4096
            $0.limiter = true
        }
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .int16))
        let shortSound = try mixer.loadSound(sine(frequency: 300, frames: 2000), name: "short", loop: nil)
        let loopSound = try mixer.loadSound(
            DecodedAudio(sampleRate: 44_100, channelCount: 2, samples: (0..<8820).map { Float(sin(Double($0) * 0.02)) }),
            name: "loop", loop: LoopRegion(start: 1000, end: 4000))
        let stream = try mixer.loadStream(name: "music") { MemorySource(sine(frequency: 220, rate: 32_000, frames: 64_000)) }
        let bus = try mixer.createBus(name: "sfx")
        // Every kind of insert effect, a compressor keyed by another bus, and a reverb aux bus voices send to.
        let key = try mixer.createBus(name: "key")
        let room = try mixer.createBus(name: "room")
        try mixer.setBusEffect(bus, index: 0, (.parametricEQ, try EffectParameters.parametricEQ(bands: [EQBand(.peak, frequency: 1000, gain: 6, q: 2)])))
        try mixer.setBusEffect(bus, index: 1, (.compressor, try EffectParameters.compressor(threshold: -30)), sidechain: key)
        try mixer.setBusEffect(bus, index: 2, (.delay, try EffectParameters.delay(time: 30)))
        try mixer.setBusEffect(room, index: 0, (.reverb, try EffectParameters.reverb(rt60: 0.5)))
        try mixer.setBusEffect(.master, index: 0, (.limiter, try EffectParameters.limiter(ceiling: -3)))
        // Music that streams through the whole run (the voices the loop below
        // starts are often stopped before their ring is ready): pre-filled
        // before the render thread starts, so it plays at least that much.
        let music = try mixer.play(stream, VoiceParameters(volume: 0.5, loop: true, priority: 100))  // never limited
        #expect(waitUntil { mixer.streamProgress(music)?.ready == true })

        let quantaToRender = 6000
        let rendered = Atomic<Int>(0)
        let rounds = Atomic<Int>(0)
        let renderer = JoinableThread {
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: 4 * 1024 * 2, alignment: 16)
            let entry = mixer.renderEntry
            se_alloc_counter_arm(slot)
            for i in 0..<quantaToRender {
                entry(bytes, frames: 200 + (i % 3) * 56)  // uneven calls: the carry-over path too
                rendered.add(1, ordering: .relaxed)
                // Keep pace with the control thread so commands arrive all along.
                while rounds.load(ordering: .relaxed) < i / 4 { sched_yield() }
            }
            se_alloc_counter_disarm()
            bytes.deallocate()
        }
        se_alloc_counter_reset(slot)
        renderer.start()
        var voices: [VoiceID] = []
        var round = 0
        let seeks = Atomic<Int>(0)
        while rendered.load(ordering: .relaxed) < quantaToRender {
            round += 1
            switch round % 6 {
            case 0:
                let filter: Float? = round % 12 == 0 ? 900 : nil  // half of them on the filtered path
                if let v = try? mixer.play(shortSound, on: bus, VoiceParameters(pitch: 1.3, lowPassHz: filter, priority: round % 100, whenInaudible: round % 4 == 0 ? .resume : .kill)) { voices.append(v) }
            case 1: if let v = try? mixer.play(loopSound, VoiceParameters(pitch: 0.8, loop: true, quality: .sinc, priority: round % 97, whenInaudible: .resume)) { voices.append(v) }
            case 2: if let v = try? mixer.play(stream, VoiceParameters(loop: true, quality: .cubic)) { voices.append(v) }
            case 3: if let v = voices.popLast() { try? mixer.stop(v, fadeOutFrames: 300) }
            case 4:
                try? mixer.setBusVolume(bus, Float(round % 4) / 3, rampFrames: 500)
                // Effect parameters move; now and then an effect is replaced (a new plan, a retired block).
                try? mixer.setBusEffectParameter(room, index: 0, parameter: EffectParameters.Reverb.wet, value: Float(round % 10) / 10)
                try? mixer.setBusEffectParameter(bus, index: 0, parameter: EffectParameters.EQ.gain(band: 0), value: Float(round % 13) - 6)
                if round % 60 == 4 { try? mixer.setBusEffect(bus, index: 2, round % 120 == 4 ? nil : (.delay, EffectParameters.defaults(for: .delay))) }
                if round == 2000 { try? mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 6, sampleFormat: .int16)) }
            default:
                guard let v = voices.last else { break }
                switch (round / 6) % 5 {
                case 1: try? mixer.setPan(v, Float(round % 3) - 1)
                case 2: try? mixer.setSend(v, index: round % 4, bus: round % 2 == 0 ? room : key, gain: Float(round % 3) / 2)  // the sends path
                case 4: if (try? mixer.seek(v, to: .frame(round % 3000))) != nil { seeks.add(1, ordering: .relaxed) }  // a stream's too: a new ring, a fade slot
                case 3: try? mixer.setVolumeAndPan(v, volume: 0.5, pan: Float(round % 3) - 1)
                default: try? mixer.setLowPass(v, cutoffHz: round % 4 == 0 ? nil : Float(200 + round % 5000))
                }
            }
            mixer.drainEvents { _ in }
            rounds.add(1, ordering: .relaxed)
            sched_yield()
        }
        renderer.join()
        #expect(se_alloc_counter_armings(slot) == 1)
        #expect(se_alloc_counter_allocations(slot) == 0)
        #expect(se_alloc_counter_frees(slot) == 0)
        let s = mixer.statistics
        #expect(s.quantaRendered > 4000 && s.commandsProcessed > 500)
        #expect(seeks.load(ordering: .relaxed) > 0, "voices were sought")
        #expect(s.voicesKilledByLimit > 0, "the voice limit was exercised")
        // The render thread read the stream while it was watched: at least the
        // pre-filled half ring (less the 32-frame margin) was played.
        #expect(s.streamedFrames >= 2048 - 32, "streamed \(s.streamedFrames) frames")
        #expect(mixer.isActive(music))
        mixer.shutdown()
    }
}
