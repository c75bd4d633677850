import Foundation
import SoundCore
import Testing

@Suite struct SampleFormatTests {
    @Test(arguments: [
        (SampleFormat.float32, MemoryLayout<Float32>.size, "float32"),
        (.int16, MemoryLayout<Int16>.size, "int16"),
    ])
    func sizeAndName(format: SampleFormat, size: Int, name: String) throws {
        #expect(format.bytesPerSample == size)
        #expect(format.description == name)
        #expect(SampleFormat(rawValue: name) == format)
        #expect(try JSONDecoder().decode(SampleFormat.self, from: JSONEncoder().encode(format)) == format)
    }

    @Test func unknownNamesAreRefused() {
        #expect(SampleFormat(rawValue: "int24") == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SampleFormat.self, from: Data("\"s16le\"".utf8))
        }
    }
}

@Suite struct StreamFormatTests {
    @Test(arguments: [SampleFormat.float32, .int16], [1, 2, 6, 8])
    func bytesPerFrameIsChannelsTimesSampleSize(sampleFormat: SampleFormat, channels: Int) {
        let format = StreamFormat(sampleRate: 48_000, channelCount: channels, sampleFormat: sampleFormat)
        #expect(format.bytesPerFrame == channels * sampleFormat.bytesPerSample)
    }

    @Test func descriptionNamesEncodingChannelsAndRate() {
        let format = StreamFormat(sampleRate: 44_100, channelCount: 2, sampleFormat: .int16)
        #expect(format.description == "int16 2ch 44100 Hz")
    }

    /// The doc says there is no validation here: the façade validates once.
    @Test func initStoresWhatItIsGiven() {
        let format = StreamFormat(sampleRate: 0, channelCount: 0, sampleFormat: .float32)
        #expect(format.sampleRate == 0)
        #expect(format.channelCount == 0)
        #expect(format.bytesPerFrame == 0)
    }

    @Test func valueSemanticsAndCodable() throws {
        let stereo = StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32)
        var mono = stereo
        mono.channelCount = 1
        #expect(stereo.channelCount == 2)
        #expect(mono != stereo)
        #expect(Set([stereo, mono, stereo]).count == 2)
        #expect(try JSONDecoder().decode(StreamFormat.self, from: JSONEncoder().encode(stereo)) == stereo)
    }
}

@Suite struct SourceFormatTests {
    @Test func unknownLengthIsNotZeroLength() throws {
        let unknown = SourceFormat(sampleRate: 44_100, channelCount: 2, frameCount: nil)
        let empty = SourceFormat(sampleRate: 44_100, channelCount: 2, frameCount: 0)
        #expect(unknown != empty)
        for format in [unknown, empty] {
            #expect(try JSONDecoder().decode(SourceFormat.self, from: JSONEncoder().encode(format)) == format)
        }
    }
}

@Suite struct DecodedAudioTests {
    @Test(arguments: [(1, 0), (1, 7), (2, 10), (6, 6 * 480)])
    func framesAndDuration(channels: Int, sampleCount: Int) {
        let samples = (0..<sampleCount).map(Float.init)
        let audio = DecodedAudio(sampleRate: 48_000, channelCount: channels, samples: samples)
        #expect(audio.frameCount * channels == sampleCount)
        #expect(audio.duration == Double(sampleCount / channels) / 48_000)
        #expect(audio.samples == samples)
    }

    @Test func oneSecondLastsOneSecond() {
        let audio = DecodedAudio(sampleRate: 22_050, channelCount: 2, samples: .init(repeating: 0, count: 2 * 22_050))
        #expect(audio.frameCount == 22_050)
        #expect(audio.duration == 1)
    }

    /// Odd values are stored without trapping (a game's code must not crash
    /// building one); loading refuses them, naming the field (`problem`).
    @Test(arguments: [
        (0, [Float](), "channelCount"), (-1, [0], "channelCount"), (1025, [0], "channelCount"),
        (.max, [0], "channelCount"), (2, [0, 0, 0], "samples.count"), (1, [0, .nan], "samples[1]"),
        (2, [0, 0, .infinity, 0], "samples[2]"),
    ])
    func badChannelsOrSamplesAreNamedNotTrapped(channels: Int, samples: [Float], field: String) {
        let audio = DecodedAudio(sampleRate: 48_000, channelCount: channels, samples: samples)
        _ = (audio.frameCount, audio.duration)
        #expect(audio.problem?.hasPrefix(field) == true, "\(String(describing: audio.problem))")
    }

    @Test func aSoundThatCanBeLoadedHasNoProblem() {
        #expect(DecodedAudio(sampleRate: 0, channelCount: 2, samples: [0, 1, -1, 0.5]).problem == nil)
        #expect(DecodedAudio(sampleRate: 0, channelCount: 2, samples: [0, 1]).duration == 0)
    }
}
