import Foundation
import SoundCore
@_spi(Testing) import SoundMixer
import Testing

/// The shared low-pass (docs/mixer.md, "The shared low-pass"): low-passed
/// voices mixed into one filter per bus and 1/8-octave band, checked against
/// each voice filtered on its own (`sharedLowPass = false`, unbatched).
@Suite("Shared low-pass filters")
struct SharedLowPassTests {
    /// Band 56's cutoff, 10 Hz · 2^(56/8): shared and own filters use the same coefficient.
    static let bandCutoff: Float = 1280

    static func mixers(_ change: (inout MixerConfiguration) -> Void = { _ in }) throws -> (shared: Mixer, own: Mixer) {
        let shared = try makeMixer { $0.maxVoices = 64; change(&$0) }
        let own = try makeMixer {
            $0.maxVoices = 64
            change(&$0)
            $0.sharedLowPass = false
            $0.batchedLowPass = false
        }
        return (shared, own)
    }

    static func largestDifference(_ a: (left: [Float], right: [Float]), _ b: (left: [Float], right: [Float])) -> Float {
        zip(a.left + a.right, b.left + b.right).map { abs($0 - $1) }.max() ?? 0
    }

    @Test("a voice through a shared filter at a band's cutoff sounds as through a filter of its own")
    func matchesOwnFilter() throws {
        let (shared, own) = try Self.mixers()
        for mixer in [shared, own] {
            let mono = try loopingSine(mixer, 3000)
            let stereo = try mixer.loadSound(
                DecodedAudio(sampleRate: 48_000, channelCount: 2, samples: (0..<9600).map { Float(sin(Double($0) * 0.21)) * 0.3 }),
                name: "stereo")
            _ = try mixer.play(mono, VoiceParameters(pan: 0.3, loop: true, lowPassHz: Self.bandCutoff))
            _ = try mixer.play(stereo, VoiceParameters(volume: 0.7, loop: true, lowPassHz: Self.bandCutoff))
        }
        let a = render(shared, frames: 4096), b = render(own, frames: 4096)
        #expect(rms(a.left[1024...]) > 0.05, "the filtered voices are heard")
        // Same filter, same coefficient; the pan comes before it instead of after: rounding only.
        #expect(Self.largestDifference(a, b) < 1e-4)
        #expect(shared.statistics.sharedLowPassFilters == 1)
        #expect(shared.statistics.voicesFilteredAlone == 0)
    }

    @Test("voices whose cutoffs round to one band share its filter; each bus has its own")
    func oneFilterPerBusAndBand() throws {
        let (shared, own) = try Self.mixers()
        for mixer in [shared, own] {
            let bus = try mixer.createBus(name: "far")
            let tone = try loopingSine(mixer, 700)
            for i in 0..<40 {
                _ = try mixer.play(tone, on: i < 30 ? .master : bus, VoiceParameters(
                    volume: 0.02, pan: Float(i % 7) / 3 - 1, pitch: 0.8 + Double(i) * 0.01, loop: true,
                    lowPassHz: Self.bandCutoff))
            }
        }
        let a = render(shared, frames: 4096), b = render(own, frames: 4096)
        #expect(Self.largestDifference(a, b) < 1e-4)
        #expect(shared.statistics.sharedLowPassFilters == 2, "one for each bus")

        // Cutoffs a little either side of the band's (within 1/16 octave) land in it too.
        let spread = try makeMixer()
        let tone = try loopingSine(spread, 700)
        for cutoff: Float in [1240, 1260, 1280, 1300, 1330] {
            _ = try spread.play(tone, VoiceParameters(loop: true, lowPassHz: cutoff))
        }
        _ = render(spread, frames: 1024)
        #expect(spread.statistics.sharedLowPassFilters == 1)
        // A cutoff a band away takes a second filter.
        _ = try spread.play(tone, VoiceParameters(loop: true, lowPassHz: 1400))
        _ = render(spread, frames: 1024)
        #expect(spread.statistics.sharedLowPassFilters == 2)
    }

    @Test("when the voices stop, each filter rings out and is released, and the bus is silent")
    func filtersAreReleased() throws {
        let mixer = try makeMixer()
        let tone = try loopingSine(mixer, 500)
        for cutoff: Float in [100, 800, 5000] {
            _ = try mixer.play(tone, VoiceParameters(volume: 0.3, loop: true, lowPassHz: cutoff))
        }
        _ = render(mixer, frames: 2048)
        #expect(mixer.statistics.sharedLowPassFilters == 3)
        try mixer.stopAll(fadeOutFrames: 256)
        var out = render(mixer, frames: 4096)
        // The slowest (100 Hz: τ ≈ 1 ms) decays below 1e-9 within a few hundred frames.
        #expect(mixer.statistics.sharedLowPassFilters == 0, "filters still running: \(mixer.statistics.sharedLowPassFilters)")
        out = render(mixer, frames: 1024)
        #expect(out.left.allSatisfy { $0 == 0 } && out.right.allSatisfy { $0 == 0 })
    }

    @Test("with every filter taken, a voice is filtered on its own, and still sounds the same")
    func fallsBackToItsOwnFilter() throws {
        // Band centres, so the shared and the own filters have the same coefficients.
        let cutoffs: [Float] = [640, 1280, 2560]
        let (shared, own) = try Self.mixers { $0.sharedLowPassFilters = 2 }
        for mixer in [shared, own] {
            let tone = try loopingSine(mixer, 2000)
            for (i, cutoff) in cutoffs.enumerated() {
                _ = try mixer.play(tone, VoiceParameters(volume: 0.3, pan: Float(i) - 1, loop: true, lowPassHz: cutoff))
            }
        }
        let a = render(shared, frames: 4096), b = render(own, frames: 4096)
        #expect(shared.statistics.sharedLowPassFilters == 2)
        #expect(shared.statistics.voicesFilteredAlone == 1)
        #expect(Self.largestDifference(a, b) < 1e-4)
    }

    @Test("a cutoff swept down over a second crossfades from band to band without a click")
    func sweepDoesNotClick() throws {
        let mixer = try makeMixer()
        let amplitude: Float = 0.5
        let voice = try mixer.play(try loopingSine(mixer, 440, amplitude: amplitude), VoiceParameters(loop: true, lowPassHz: 20_000))
        var out: [Float] = []
        // 60 updates, one per 800-frame game frame, 20 kHz → 200 Hz (about 37 bands).
        for step in 0..<60 {
            let cutoff = Float(20_000 * pow(0.01, Double(step) / 59))
            try mixer.setLowPass(voice, cutoffHz: cutoff)
            out += render(mixer, frames: 800).left
        }
        out += render(mixer, frames: 4800).left
        // Centre pan: each side at 1/√2. A 440 Hz sine moves at most this much per frame.
        let own = amplitude * Float(0.5.squareRoot()) * Float(2 * sin(Double.pi * 440 / 48_000))
        #expect(maxStep(out[...]) <= own * 1.05, "largest step \(maxStep(out[...])) against the sine's own \(own)")
        // It ends at the 200 Hz band's response (199.7 Hz), within the band rounding.
        let level = decibels(rms(out[(out.count - 4800)...]) / (Double(amplitude) * 0.5.squareRoot() / 2.0.squareRoot()))
        let expected = lowPassGainDB(cutoff: 200, frequency: 440)
        #expect(abs(level - expected) < 0.5, "level \(level) dB, response \(expected) dB")
    }
}
