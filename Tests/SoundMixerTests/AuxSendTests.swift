import Foundation
import SoundCore
import SoundMixer
import Testing

/// Aux sends of a voice (issue 17, item 3): the voice's output, scaled by
/// the send's gain, also reaches the send's bus, whatever path the voice
/// renders on, and a send's change is ramped.
@Suite("Aux sends")
struct AuxSendTests {
    /// A mixer with a dry bus and an aux bus (both under the master) and a
    /// looping DC voice of 0.25 on the dry bus, hard left.
    static func rig(lowPassHz: Float? = nil, _ change: (inout MixerConfiguration) -> Void = { _ in })
        throws -> (Mixer, dry: BusID, aux: BusID, voice: VoiceID)
    {
        let mixer = try makeMixer(change)
        let dry = try mixer.createBus(name: "dry")
        let aux = try mixer.createBus(name: "reverb")
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        let voice = try mixer.play(sound, on: dry, VoiceParameters(volume: 0.25, pan: -1, loop: true, lowPassHz: lowPassHz))
        return (mixer, dry, aux, voice)
    }

    @Test("a send of 0.5 puts the voice at −6 dB into the aux bus, and the dry path is unchanged")
    func halfIsMinusSix() throws {
        let (mixer, dry, aux, voice) = try Self.rig()
        _ = render(mixer, frames: 1024)
        let dryBefore = render(mixer, frames: 4096).left
        try mixer.setSend(voice, index: 0, bus: aux, gain: 0.5, rampFrames: 0)
        _ = render(mixer, frames: 4096)  // one whole meter window with the send
        let both = render(mixer, frames: 4096).left
        #expect(abs(both[2000] - 0.25 * 1.5) < 1e-6, "master: dry plus the aux bus (\(both[2000]))")
        let wet = mixer.meter(aux).peak, direct = mixer.meter(dry).peak
        #expect(abs(direct - dryBefore[2000]) < 1e-6)
        #expect(abs(20 * log10(Double(wet / direct)) + 6.0206) < 0.01, "aux \(wet), dry \(direct)")
        // The aux bus's own volume applies to what it receives.
        try mixer.setBusVolume(aux, 0.5, rampFrames: 0)
        _ = render(mixer, frames: 1024)
        let out = render(mixer, frames: 1024).left
        #expect(abs(out[500] - 0.25 * 1.25) < 1e-6)
    }

    @Test("a low-passed voice sends its filtered output, on its own filter")
    func filteredVoicesSendTheirFilteredOutput() throws {
        // Shared filters (the default) and the batched path both give way to the voice's own filter.
        for shared in [true, false] {
            let (mixer, dry, aux, voice) = try Self.rig(lowPassHz: 500) { $0.sharedLowPass = shared }
            try mixer.setSend(voice, index: 2, bus: aux, gain: 1, rampFrames: 0)
            _ = render(mixer, frames: 8192)  // the DC passes the low-pass unchanged once settled
            _ = render(mixer, frames: 4096)
            #expect(abs(mixer.meter(aux).peak - mixer.meter(dry).peak) < 1e-4, "shared \(shared)")
            #expect(abs(mixer.meter(aux).peak - 0.25) < 1e-3)
        }
    }

    @Test("a send's change ramps, with no step larger than the ramp's")
    func sendChangesRamp() throws {
        let (mixer, _, aux, voice) = try Self.rig()
        try mixer.setSend(voice, index: 1, bus: aux, gain: 0, rampFrames: 0)
        _ = render(mixer, frames: 1024)
        try mixer.setSend(voice, index: 1, bus: aux, gain: 1, rampFrames: 1000)
        let out = render(mixer, frames: 2048).left
        #expect(maxStep(out[...]) <= Float(0.25 / 1000 * 1.01), "step \(maxStep(out[...]))")
        #expect(abs(out[2000] - 0.5) < 1e-6)
    }

    @Test("voices with alike sends are summed once; mixed kinds and a ramping send keep each voice's own gains")
    func alikeSendsAreGathered() throws {
        let mixer = try makeMixer { _ in }
        let dry = try mixer.createBus(name: "dry")
        let a = try mixer.createBus(name: "a"), b = try mixer.createBus(name: "b"), c = try mixer.createBus(name: "c")
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        // Binary volumes, so a voice counted twice or lost shows in the sums.
        // In play order: two alike (a 0.5), one other (b 0.25), alike again,
        // two sends (a 0.5, b 1), one ramping (c, 0 → 0.5 over 10⁶ frames).
        let sends: [[VoiceSend]] = [
            [VoiceSend(bus: a, gain: 0.5)], [VoiceSend(bus: a, gain: 0.5)], [VoiceSend(bus: b, gain: 0.25)],
            [VoiceSend(bus: a, gain: 0.5)], [VoiceSend(bus: a, gain: 0.5), VoiceSend(bus: b, gain: 1)], [],
        ]
        var voices: [VoiceID] = []
        for (k, send) in sends.enumerated() {
            let volume = Float(0.01) * Float(1 << k)
            voices.append(try mixer.play(sound, on: dry, VoiceParameters(volume: volume, pan: -1, loop: true, sends: send)))
        }
        try mixer.setSend(voices[5], index: 0, bus: c, gain: 0.5, rampFrames: 1_000_000)
        _ = render(mixer, frames: 4096)
        _ = render(mixer, frames: 4096)
        #expect(abs(mixer.meter(dry).peak - 0.63) < 1e-5, "dry \(mixer.meter(dry).peak)")
        #expect(abs(mixer.meter(a).peak - 0.5 * (0.01 + 0.02 + 0.08 + 0.16)) < 1e-5, "a \(mixer.meter(a).peak)")
        #expect(abs(mixer.meter(b).peak - (0.25 * 0.04 + 0.16)) < 1e-5, "b \(mixer.meter(b).peak)")
        let ramped = mixer.meter(c).peak
        #expect(ramped > 0 && ramped < 0.32 * 0.5 * 0.01, "c \(ramped): on its ramp, alone")
    }

    @Test("bad sends are refused naming what is wrong")
    func badSends() throws {
        let (mixer, _, aux, voice) = try Self.rig()
        for (index, gain) in [(4, Float(0.5)), (-1, 0.5), (0, .nan), (0, .infinity), (0, -0.1), (0, 17)] {
            #expect(throws: SoundEngineError.self) { try mixer.setSend(voice, index: index, bus: aux, gain: gain) }
        }
        #expect { try mixer.setSend(voice, index: 0, bus: BusID(index: 999), gain: 1) } throws: { error in
            if case SoundEngineError.idNotFound(let why) = error { why.contains("send bus") } else { false }
        }
        _ = render(mixer, frames: 4096)
        #expect(mixer.meter(aux).peak == 0, "a refused send sent nothing")
    }

    @Test("a voice starts with its sends in the same quantum, refused ones start nothing")
    func startsWithItsSends() throws {
        let mixer = try makeMixer()
        let dry = try mixer.createBus(name: "dry")
        let aux = try mixer.createBus(name: "reverb")
        let sound = try mixer.loadSound(constant(1, frames: 48_000), name: "dc")
        try mixer.play(sound, on: dry, VoiceParameters(volume: 0.25, sends: [VoiceSend(bus: aux, gain: 0.5)]))
        let out = render(mixer, frames: 512)
        // The first frame already has the dry voice and the send (pan 0: cos π/4 each side).
        let dryLeft = Float(0.25 * cos(Double.pi / 4))
        #expect(abs(out.left[0] - dryLeft * 1.5) < 1e-6, "\(out.left[0])")
        for bad in [[VoiceSend(bus: aux, gain: .nan)], [VoiceSend(bus: aux, gain: 1), VoiceSend(bus: aux, gain: 1)],
                    Array(repeating: VoiceSend(bus: aux, gain: 1), count: 5), [VoiceSend(bus: BusID(index: 99), gain: 1)]] {
            #expect(throws: SoundEngineError.self) { try mixer.play(sound, on: dry, VoiceParameters(sends: bad)) }
        }
        #expect(mixer.statistics.voicesActive == 1)
    }

    @Test("a placed voice on a surround output sends every channel it plays on")
    func surroundSends() throws {
        let mixer = try makeMixer()
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 6, sampleFormat: .float32))
        let dry = try mixer.createBus(name: "dry")
        let aux = try mixer.createBus(name: "reverb")
        try mixer.setBusVolume(dry, 0, rampFrames: 0)  // only the send is heard
        let sound = try mixer.loadSound(constant(0.5, frames: 48_000), name: "dc")
        try mixer.play(sound, on: dry, VoiceParameters(
            placement: SpeakerPlacement(azimuth: .pi * 110 / 180), sends: [VoiceSend(bus: aux, gain: 0.5)]))
        var samples = [Float](repeating: .nan, count: 6 * 2048)
        samples.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 2048) }
        let frame = Array(samples[6 * 1500..<6 * 1501])
        #expect(abs(frame[5] - 0.25) < 1e-5 && frame[0...4].allSatisfy { abs($0) < 1e-5 }, "\(frame)")
    }
}
