import SoundCore
import SoundMixer
import Testing

@Suite("Output conversion and render calls")
struct OutputTests {
    @Test("int16, mono and multichannel outputs")
    func formats() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(0.5, frames: 1000), name: "dc")
        try mixer.play(sound, VoiceParameters(pan: -1, loop: true))
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .int16))
        var s16 = [Int16](repeating: 7, count: 512)
        s16.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 256) }
        #expect(s16[200] == 16384 && s16[201] == 0)
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 1, sampleFormat: .float32))
        var mono = [Float](repeating: 7, count: 256)
        mono.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 256) }
        #expect(mono[100] == 0.25)
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 4, sampleFormat: .float32))
        var quad = [Float](repeating: 7, count: 4 * 256)
        quad.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 256) }
        #expect(Array(quad[400..<404]) == [0.5, 0, 0, 0])
        #expect(throws: SoundEngineError.self) {
            try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: 0, sampleFormat: .float32))
        }
        #expect(mixer.outputFormat.channelCount == 4)
        #expect(mixer.frames(.milliseconds(250)) == 12_000)
    }

    /// The backend's channel maps put channel 0 on front-left and 1 on
    /// front-right for every count (docs/pulseaudio.md): the stereo mix must
    /// be there, and nothing anywhere else (no upmix, like Wwise's 2D stereo).
    @Test("the stereo mix is on channels 0 and 1 and the rest are silent", arguments: 1...8)
    func stereoOnTheFrontChannels(channels: Int) throws {
        let mixer = try makeMixer()
        let dc = try mixer.loadSound(constant(0.5, frames: 1000), name: "dc")
        try mixer.play(dc, VoiceParameters(volume: 0.5, pan: -1, loop: true))  // left 0.25
        try mixer.play(dc, VoiceParameters(volume: 1, pan: 1, loop: true))  // right 0.5
        try mixer.setOutputFormat(StreamFormat(sampleRate: 48_000, channelCount: channels, sampleFormat: .float32))
        var out = [Float](repeating: 7, count: channels * 512)
        out.withUnsafeMutableBytes { mixer.render(into: $0.baseAddress!, frames: 512) }
        let frame = Array(out[(300 * channels)..<(301 * channels)])
        let expected: [Float] = channels == 1 ? [0.375] : [0.25, 0.5] + [Float](repeating: 0, count: channels - 2)
        #expect(frame.indices.allSatisfy { abs(frame[$0] - expected[$0]) < 1e-6 }, "\(channels) channels: \(frame)")
    }

    @Test("render calls of any size produce the same audio as whole quanta")
    func anyFrameCount() throws {
        func run(_ blocks: [Int]) throws -> [Float] {
            let mixer = try makeMixer()
            let sound = try mixer.loadSound(sine(frequency: 700, frames: 4800), name: "s")
            try mixer.play(sound, VoiceParameters(pitch: 1.1, loop: true, start: .afterFrames(33)))
            var out: [Float] = []
            var i = 0
            while out.count < 6000 {
                out += render(mixer, frames: blocks[i % blocks.count]).left
                i += 1
            }
            return Array(out.prefix(6000))
        }
        #expect(try run([256]) == run([1, 100, 37, 1000, 255, 3]))
    }

    @Test("the limiter keeps the output inside full scale, and is off by default")
    func limiter() throws {
        let mixer = try makeMixer()
        let sound = try mixer.loadSound(constant(1, frames: 1000), name: "dc")
        try mixer.play(sound, VoiceParameters(volume: 3, pan: -1, loop: true))
        #expect(render(mixer, frames: 512).left[300] == 3)
        mixer.setLimiter(true)
        let limited = render(mixer, frames: 512).left[300]
        #expect(limited < 1 && limited > 0.9)
    }
}
