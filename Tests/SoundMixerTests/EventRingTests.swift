import SoundCore
import SoundMixer
import Testing

/// Voice ends cross from the render thread through a bounded ring; these
/// tests overflow it on purpose. Every end must still be reported exactly
/// once, with nothing lost and nothing twice.
@Suite("Voice ends through a full event ring")
struct EventRingTests {
    /// The ends `drainEvents` delivers, counted per voice, and the other events.
    struct Ends {
        var count: [VoiceID: Int] = [:]
        var sounds: [VoiceID: SoundID] = [:]
        var others: [MixerEvent] = []

        mutating func collect(_ mixer: Mixer) {
            mixer.drainEvents { event in
                if case .voiceEnded(let voice, let sound) = event {
                    count[voice, default: 0] += 1
                    sounds[voice] = sound
                } else {
                    others.append(event)
                }
            }
        }

        /// `nil` when every voice of `voices` ended exactly once and nothing
        /// else did; otherwise what went wrong, in numbers.
        func mismatch(_ voices: Set<VoiceID>) -> String? {
            let missing = voices.subtracting(count.keys).count
            let extra = Set(count.keys).subtracting(voices).count
            let twice = count.values.filter { $0 > 1 }.count
            guard missing + extra + twice > 0 else { return nil }
            return "of \(voices.count) voices: \(missing) not reported, \(twice) reported more than once; \(extra) unknown"
        }
    }

    @Test("4,096 voices stopped in one quantum through the default 1,024-event ring: each end reported once")
    func stopAllOverflowsTheRing() throws {
        let mixer = try makeMixer {
            $0.maxVoices = 4096
            $0.commandQueueBytes = 8192 * Mixer.commandSlotBytes
        }
        #expect(mixer.configuration.eventQueueCapacity == 1024)
        let sound = try mixer.loadSound(constant(0.001, frames: 480), name: "bed")
        var voices = Set<VoiceID>()
        for _ in 0..<4096 { voices.insert(try mixer.play(sound, VoiceParameters(loop: true))) }
        _ = render(mixer, frames: 256)
        try mixer.stopAll()
        _ = render(mixer, frames: 256)  // the de-click fade (64 frames) ends them all in this quantum
        let s = mixer.statistics
        #expect(s.voicesActive == 0)
        #expect(s.voiceEndsDeferred == 4096 - 1024 && s.eventsDropped == 0)
        var ends = Ends()
        ends.collect(mixer)
        #expect(ends.mismatch(voices) == nil)
        #expect(ends.sounds.values.allSatisfy { $0 == sound })
        #expect(ends.others.isEmpty)
        ends.collect(mixer)  // nothing more, not even after another sweep
        _ = render(mixer, frames: 256)
        ends.collect(mixer)
        #expect(ends.mismatch(voices) == nil)
    }

    @Test("voices that play out together overflow a 16-event ring: each end reported once")
    func playedOutTogether() throws {
        let mixer = try makeMixer { $0.maxVoices = 1000; $0.eventQueueCapacity = 16 }
        let blip = try mixer.loadSound(constant(0.001, frames: 100), name: "blip", loop: nil)
        var voices = Set<VoiceID>()
        for _ in 0..<1000 { voices.insert(try mixer.play(blip)) }
        _ = render(mixer, frames: 512)
        #expect(mixer.statistics.voiceEndsDeferred == 1000 - 16)
        var ends = Ends()
        ends.collect(mixer)
        #expect(ends.mismatch(voices) == nil)
        #expect(ends.others.isEmpty && mixer.statistics.eventsDropped == 0)
    }

    /// The slot of an ended voice is reused before any drain, twice over:
    /// the first ends are handed over when their slots are taken, the second
    /// found by the sweep, and the ring's stale copies of the first are
    /// recognised as duplicates.
    @Test("slots reused before their ends were drained still report those ends, once")
    func reuseBeforeDrain() throws {
        let mixer = try makeMixer { $0.maxVoices = 32; $0.eventQueueCapacity = 16 }
        let blip = try mixer.loadSound(constant(0.001, frames: 100), name: "blip", loop: nil)
        var first = Set<VoiceID>(), second = Set<VoiceID>()
        for _ in 0..<32 { first.insert(try mixer.play(blip)) }
        _ = render(mixer, frames: 256)  // 16 ends in the ring, 16 deferred
        for _ in 0..<32 { second.insert(try mixer.play(blip)) }  // every slot reused, no drain yet
        #expect(first.isDisjoint(with: second))
        _ = render(mixer, frames: 256)  // the ring is still full: all 32 deferred
        #expect(mixer.statistics.voiceEndsDeferred == 16 + 32)
        var ends = Ends()
        ends.collect(mixer)
        #expect(ends.mismatch(first.union(second)) == nil)
    }

    @Test("a drain between the overflow and the sweep does not report an end twice")
    func drainsInterleavedWithOverflow() throws {
        let mixer = try makeMixer { $0.maxVoices = 64; $0.eventQueueCapacity = 16 }
        let blip = try mixer.loadSound(constant(0.001, frames: 100), name: "blip", loop: nil)
        var all = Set<VoiceID>()
        var ends = Ends()
        for round in 0..<50 {
            for _ in 0..<(round % 3 == 0 ? 64 : 20) { all.insert(try mixer.play(blip)) }
            _ = render(mixer, frames: 256)
            if round % 2 == 0 { ends.collect(mixer) }
        }
        ends.collect(mixer)
        #expect(ends.mismatch(all) == nil)
        #expect(mixer.statistics.voiceEndsDeferred > 0)
    }
}
