import SoundCore
import SoundMixer
import Testing

@Suite("Bus graph")
struct BusTests {
    @Test("bus volumes multiply down the tree and mutes silence a subtree")
    func volumesAndMutes() throws {
        let mixer = try makeMixer()
        let group = try mixer.createBus(name: "group")
        let leaf = try mixer.createBus(name: "leaf", parent: group)
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(sound, on: leaf, VoiceParameters(volume: 0.5, pan: -1, loop: true))
        try mixer.setBusVolume(leaf, 0.5)
        try mixer.setBusVolume(group, 0.8)
        try mixer.setBusVolume(.master, 0.9)
        var out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.5 * 0.5 * 0.8 * 0.9) < 1e-6)
        try mixer.setBusMuted(group, true, rampFrames: 300)
        out = render(mixer, frames: 1024).left
        #expect(maxStep(out[...]) < 0.19 / 300 * 1.01)
        #expect(out[500] == 0)
        try mixer.setBusMuted(group, false)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.18) < 1e-6)
        #expect(mixer.bus(named: "leaf") == leaf)
    }

    @Test("the background-music mute silences exactly the flagged buses, and brings them back")
    func backgroundMusic() throws {
        let mixer = try makeMixer()
        let music = try mixer.createBus(name: "music")
        let effects = try mixer.createBus(name: "effects")
        let dialogue = try mixer.createBus(name: "dialogue", parent: effects)
        try mixer.setBusMutedForBackgroundMusic(music, true)
        let dc = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(dc, on: music, VoiceParameters(volume: 0.1, pan: -1, loop: true))
        try mixer.play(dc, on: effects, VoiceParameters(volume: 0.01, pan: -1, loop: true))
        try mixer.play(dc, on: dialogue, VoiceParameters(volume: 0.001, pan: -1, loop: true))
        var out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.111) < 1e-6)
        try mixer.setBackgroundMusicMuted(true, fadeFrames: 2048)
        out = render(mixer, frames: 6144).left  // the fade and then one whole meter window
        #expect(maxStep(out[...]) <= 0.1 / 2048 * 1.01)
        #expect(abs(out[3000] - 0.011) < 1e-6)
        #expect(mixer.meter(music).peak == 0 && mixer.isBackgroundMusicMuted)
        try mixer.setBackgroundMusicMuted(false, fadeFrames: 256)
        out = render(mixer, frames: 1024).left
        #expect(abs(out[1000] - 0.111) < 1e-6)
    }

    @Test("metering reports the peak and RMS of a known signal")
    func metering() throws {
        let mixer = try makeMixer()
        let bus = try mixer.createBus(name: "meter")
        let sound = try mixer.loadSound(sine(frequency: 375, frames: 128, amplitude: 0.8), name: "sine")
        try mixer.play(sound, on: bus, VoiceParameters(loop: true))
        _ = render(mixer, frames: 8192)
        // Centre pan: each channel 0.8 · cos(π/4); RMS of a sine = peak / √2.
        let meter = mixer.meter(bus)
        #expect(abs(meter.peak - 0.8 * 0.70710677) < 1e-3)
        #expect(abs(meter.rms - 0.8 * 0.5) < 1e-3)
        #expect(abs(mixer.meter(.master).rms - 0.4) < 1e-3)
        try mixer.setBusMeterEvents(bus, true)
        _ = render(mixer, frames: 4096)  // two 2048-frame windows
        let readings = events(mixer).compactMap { event -> BusMeter? in
            if case .meter(bus, let m) = event { m } else { nil }
        }
        #expect(readings.count == 2 && readings.allSatisfy { abs($0.rms - 0.4) < 1e-3 })
    }

    @Test("bad bus edits are refused and change nothing")
    func badEdits() throws {
        let mixer = try makeMixer { $0.maxBuses = 3 }
        let a = try mixer.createBus(name: "a")
        let b = try mixer.createBus(name: "b", parent: a)
        #expect(throws: SoundEngineError.self) { try mixer.createBus(name: "c", parent: BusID(index: 9)) }
        #expect {
            try mixer.createBus(name: "c")
        } throws: { if case .maxReached = $0 as? SoundEngineError { true } else { false } }
        #expect {
            try mixer.setBusParent(a, b)
        } throws: { if case .invalidParameter = $0 as? SoundEngineError { true } else { false } }
        #expect(throws: SoundEngineError.self) { try mixer.setBusVolume(a, .nan) }
        #expect(throws: SoundEngineError.self) { try mixer.setBusVolume(a, -1) }
        try mixer.setBusParent(b, .master)
    }
}
