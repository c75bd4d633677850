import SoundServerSupport
import Foundation
import SoundCore
import SoundMixer
import Synchronization
import Testing

@Suite("Command and event queues")
struct QueueTests {
    @Test("a full command queue refuses the call and counts it; nothing is dropped")
    func queueFull() throws {
        let mixer = try makeMixer { $0.commandQueueBytes = 16 * Mixer.commandSlotBytes }
        let sound = try mixer.loadSound(constant(1, frames: 100), name: "s")
        let voice = try mixer.play(sound, VoiceParameters(loop: true))
        for _ in 0..<15 { try mixer.setVolume(voice, 0.5) }
        #expect {
            try mixer.setVolume(voice, 0.25)
        } throws: { if case .commandQueueFull = $0 as? SoundEngineError { true } else { false } }
        #expect(mixer.statistics.commandsRejected == 1 && mixer.statistics.commandsQueued == 16)
        _ = render(mixer, frames: 256)
        #expect(mixer.statistics.commandsProcessed == 16)
        try mixer.setVolume(voice, 0.25)
    }

    @Test("a full event queue loses meter readings, counts them and says so once there is room")
    func eventOverflow() throws {
        let mixer = try makeMixer { $0.maxBuses = 32; $0.eventQueueCapacity = 16; $0.meterWindowFrames = 256 }
        for i in 0..<20 { try mixer.setBusMeterEvents(try mixer.createBus(name: "bus \(i)"), true) }
        _ = render(mixer, frames: 256)  // one window: 20 readings for 16 places
        #expect(mixer.statistics.eventsDropped == 4 && events(mixer).count == 16)
        _ = render(mixer, frames: 256)
        let next = events(mixer)
        #expect(next.first == .eventsDropped(4) && next.count == 16)  // the notice, then 15 readings; 5 more lost
        let s = mixer.statistics
        #expect(s.eventsPosted == 31 && s.eventsDropped == 9 && s.voiceEndsDeferred == 0)
    }

    /// A render thread mixing quanta as fast as it can while this thread
    /// plays, changes and stops voices and edits buses: every accepted command
    /// is applied, every voice that ends is reported once.
    /// With a 16-event ring most ends overflow it and are found by sweeps,
    /// racing slot reuse: still each exactly once.
    @Test("two-thread stress: commands, plans and events cross intact", arguments: [4096, 16])
    func stress(eventQueueCapacity: Int) throws {
        let mixer = try makeMixer {
            $0.maxVoices = 64
            $0.commandQueueBytes = 64 * Mixer.commandSlotBytes
            $0.eventQueueCapacity = eventQueueCapacity
        }
        let sound = try mixer.loadSound(constant(0.01, frames: 3000), name: "short", loop: nil)
        let loop = try mixer.loadSound(sine(frequency: 100, frames: 480), name: "loop")
        let bus = try mixer.createBus(name: "bus")
        let stop = Atomic<Bool>(false)
        let quanta = Atomic<Int>(0)
        let renderer = JoinableThread {
            var buffer = [Float](repeating: 0, count: 2 * 256)
            while !stop.load(ordering: .relaxed) {
                buffer.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 256) }
                quanta.add(1, ordering: .relaxed)
            }
        }
        renderer.start()
        var started: [VoiceID] = [], ended = Set<VoiceID>(), accepted = 0, rejected = 0, duplicates = 0
        for round in 0..<20_000 {
            do {
                if round % 10 == 0 {
                    started.append(try mixer.play(round % 20 == 0 ? sound : loop, on: bus))
                } else if let voice = started.randomElement(), !ended.contains(voice) {
                    switch round % 5 {
                    case 1: try mixer.setVolume(voice, Float(round % 7) / 7)
                    case 2: try mixer.setPan(voice, Float(round % 3) - 1)
                    case 3: try mixer.setPitch(voice, 0.5 + Double(round % 4) / 4)
                    default: try mixer.stop(voice)
                    }
                } else {
                    try mixer.setBusVolume(bus, Float(round % 5) / 4)
                    accepted -= 1  // bus edits travel as plans, not commands
                }
                accepted += 1
            } catch .commandQueueFull {
                rejected += 1
            } catch .maxReached, .idNotFound {
                // the pool is full, or the voice ended meanwhile
            }
            if round % 50 == 0 {
                mixer.drainEvents { if case .voiceEnded(let v, _) = $0, !ended.insert(v).inserted { duplicates += 1 } }
            }
        }
        while true {
            do throws(SoundEngineError) {
                try mixer.stopAll()
                break
            } catch {
                rejected += 1
                sched_yield()
            }
        }
        let target = quanta.load(ordering: .relaxed) + 8
        func collect() {
            mixer.drainEvents { if case .voiceEnded(let v, _) = $0, !ended.insert(v).inserted { duplicates += 1 } }
        }
        #expect(waitUntil {
            collect()
            return quanta.load(ordering: .relaxed) > target
        })
        stop.store(true, ordering: .relaxed)
        renderer.join()
        collect()
        #expect(duplicates == 0)
        let s = mixer.statistics
        #expect(s.commandsQueued == UInt64(accepted + 1))  // + stopAll
        #expect(s.commandsProcessed == s.commandsQueued)
        #expect(s.commandsRejected == UInt64(rejected))
        #expect(s.eventsDropped == 0 && s.overlappingRenderCalls == 0)
        #expect(ended == Set(started))
        #expect(s.voicesActive == 0)
    }
}
