import SoundCore
import SoundMixer
import Testing

@Suite("Voices")
struct VoiceTests {
    @Test("a voice starts on the exact frame asked for")
    func sampleAccurateStart() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(sound, VoiceParameters(pan: -1, loop: true, start: .atFrame(1000)))
        let out = render(mixer, frames: 2048, block: 300).left
        #expect(out[999] == 0 && out[1000] == 1)
        try mixer.play(sound, VoiceParameters(pan: -1, loop: true, start: .afterFrames(77)))
        let next = render(mixer, frames: 512).left
        #expect(next[76] == 1 && next[77] == 2)
        #expect(mixer.renderedFrames == 2048 + 512)
    }

    @Test("a one-shot voice ends at the end of its sound and its ID goes stale")
    func staleVoice() throws {
        let mixer = try makeMixer { $0.maxVoices = 1 }
        let sound = try mixer.loadSound(constant(1, frames: 100), name: "short", loop: nil)
        let voice = try mixer.play(sound, VoiceParameters(pan: -1))
        let out = render(mixer, frames: 256).left
        #expect(out[99] == 1 && out[100] == 0)
        #expect(events(mixer) == [.voiceEnded(voice, sound)])
        #expect(throws: SoundEngineError.idNotFound("\(voice) has ended or never existed")) {
            try mixer.setVolume(voice, 0.5)
        }
        let second = try mixer.play(sound)  // reuses the slot with a new generation
        #expect(second.slot == voice.slot && second != voice)
        #expect(throws: SoundEngineError.self) { try mixer.stop(voice) }
        try mixer.setVolume(second, 0.5)
        #expect {
            try mixer.play(sound)
        } throws: { if case .maxReached = $0 as? SoundEngineError { true } else { false } }
    }

    @Test("bad parameters are refused with the parameter's name and nothing starts")
    func badParameters() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(1, frames: 100), name: "s", loop: nil)
        for (parameters, word) in [
            (VoiceParameters(volume: .nan), "volume"), (VoiceParameters(volume: -1), "volume"),
            (VoiceParameters(pan: 2), "pan"), (VoiceParameters(pitch: 0), "pitch"), (VoiceParameters(pitch: 100), "pitch"),
            (VoiceParameters(fadeIn: .milliseconds(-5)), "fadeIn"), (VoiceParameters(loop: true), "loop"),
        ] {
            #expect {
                try mixer.play(sound, parameters)
            } throws: { error in
                guard case .invalidParameter(let reason) = error as? SoundEngineError else { return false }
                return reason.contains(word)
            }
        }
        #expect(throws: SoundEngineError.self) { try mixer.play(SoundID(slot: 3, generation: 1)) }
        #expect(throws: SoundEngineError.self) { try mixer.play(sound, on: BusID(index: 5)) }
        #expect(mixer.statistics.commandsQueued == 0)
        #expect(throws: SoundEngineError.self) { try Mixer(MixerConfiguration(quantumFrames: 100)) }
        #expect(throws: SoundEngineError.invalidParameter("MixerConfiguration.maxVoices = 0: must be 1…65536")) {
            try Mixer(MixerConfiguration(maxVoices: 0))
        }
    }

    @Test("unloading a sound while it plays fades its voices out and frees it")
    func unloadWhilePlaying() throws {
        let mixer = try makeMixer { $0.maxSounds = 1 }
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        let voice = try mixer.play(sound, VoiceParameters(pan: -1, loop: true))
        _ = render(mixer, frames: 256)
        try mixer.unloadSound(sound)
        #expect(throws: SoundEngineError.self) { try mixer.play(sound) }
        let out = render(mixer, frames: 256).left
        #expect(maxStep(out[...]) <= 1.0 / 64 * 1.001 && out[64] == 0)
        #expect(events(mixer) == [.voiceEnded(voice, sound)])
        let again = try mixer.loadSound(constant(1, frames: 10), name: "again")
        #expect(again.slot == sound.slot && again != sound && mixer.loadedSoundCount == 1)
    }

    @Test("stopAll ends every voice")
    func stopAll() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        for _ in 0..<5 { try mixer.play(sound, VoiceParameters(loop: true)) }
        _ = render(mixer, frames: 256)
        #expect(mixer.statistics.voicesActive == 5)
        try mixer.stopAll(fadeOutFrames: 100)
        _ = render(mixer, frames: 512)
        #expect(mixer.statistics.voicesActive == 0 && events(mixer).count == 5)
    }
}
