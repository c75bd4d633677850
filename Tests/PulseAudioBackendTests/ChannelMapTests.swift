import Foundation
import PulseAudioBackend
import SoundBackend
import SoundCore
import SoundServerSupport
import Synchronization
import Testing

/// A sine on one channel and silence on the others: what the mixer writes
/// for a hard-panned stereo mix (left on channel 0, right on channel 1,
/// every further channel silent). ``side`` moves it while the stream plays.
final class PannedTone: @unchecked Sendable {
    // @unchecked: the render thread reads `state` (its own) and `channel`
    // (an atomic); the test thread only stores `channel`.
    struct State {
        var phase: Double = 0
        var step: Double
        var amplitude: Float
        var channels: Int
        var channel: UnsafeMutablePointer<Atomic<Int>>
    }

    private let state: UnsafeMutablePointer<State>
    private let channel: UnsafeMutablePointer<Atomic<Int>>

    init(channels: Int, amplitude: Float, frequency: Double = 440) {
        channel = .allocate(capacity: 1)
        channel.initialize(to: Atomic(0))
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(step: 2 * Double.pi * frequency / 48_000, amplitude: amplitude, channels: channels, channel: channel))
    }

    deinit {
        state.deallocate()
        channel.deinitialize(count: 1)
        channel.deallocate()
    }

    /// The channel the sine is on (0 = left, 1 = right).
    var side: Int {
        get { channel.pointee.load(ordering: .relaxed) }  // relaxed: one self-contained word
        set { channel.pointee.store(newValue, ordering: .relaxed) }
    }

    var entry: RenderEntry { RenderEntry(function: pannedToneRender, context: UnsafeMutableRawPointer(state)) }
}

private func pannedToneRender(_ context: UnsafeMutableRawPointer?, _ destination: UnsafeMutableRawPointer, _ frames: Int) {
    let tone = context!.assumingMemoryBound(to: PannedTone.State.self)
    let channels = tone.pointee.channels
    let side = tone.pointee.channel.pointee.load(ordering: .relaxed)  // relaxed: see PannedTone.side
    let out = destination.assumingMemoryBound(to: Float.self)
    var phase = tone.pointee.phase
    for f in 0..<frames {
        let v = tone.pointee.amplitude * Float(sin(phase))
        for c in 0..<channels { out[f * channels + c] = c == side ? v : 0 }
        phase += tone.pointee.step
    }
    tone.pointee.phase = phase.truncatingRemainder(dividingBy: 2 * Double.pi)
}

/// Our stream's speaker positions for 1…8 channels (WAVEFORMATEXTENSIBLE
/// order), checked against a 7.1 null sink on the server: the mix's left and
/// right come out of front-left and front-right, never out of the centre or
/// another speaker, and mono comes out of both front speakers.
@Suite struct ChannelMapTests {
    static let surround = [
        "front-left", "front-right", "front-center", "lfe", "rear-left", "rear-right", "side-left", "side-right",
    ]

    /// The positions the stream must have, by channel count.
    static let expected: [Int: [String]] = [
        1: ["mono"],
        2: ["front-left", "front-right"],
        3: ["front-left", "front-right", "front-center"],
        4: ["front-left", "front-right", "rear-left", "rear-right"],
        5: ["front-left", "front-right", "front-center", "rear-left", "rear-right"],
        6: ["front-left", "front-right", "front-center", "lfe", "rear-left", "rear-right"],
        7: ["front-left", "front-right", "front-center", "lfe", "rear-center", "side-left", "side-right"],
        8: surround,
    ]

    static let amplitude: Float = 0.5
    static let level = amplitude / Float(2).squareRoot()  // RMS of the sine

    @Test func stereoContentPlaysOnTheFrontSpeakersForEveryChannelCount() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let sink = try server.addOutput(name: "surround", channelMap: Self.surround)
        defer { try? sink.remove() }
        // pipewire-pulse takes a new default only once wireplumber has the sink.
        #expect(try eventually {
            _ = try? server.pactl("set-default-sink", "surround")
            return try server.defaultSink == "surround"
        })
        let recorder = try server.record("surround.monitor", channelMap: Self.surround)
        defer { recorder.stop() }
        for channels in 1...8 { try check(channels: channels, server, recorder) }
    }

    /// Opens a stream of `channels` channels on the 7.1 sink and checks its
    /// positions and where its left and right channels are heard.
    func check(channels: Int, _ server: PrivateSoundServer, _ recorder: MonitorRecorder) throws {
        let tone = PannedTone(channels: channels, amplitude: Self.amplitude)
        var config = configuration(server)
        config.format = StreamFormat(sampleRate: 48_000, channelCount: channels, sampleFormat: .float32)
        let backend = PulseAudioBackend()
        let granted = try backend.openStream(config, render: tone.entry, events: { _ in })
        defer { backend.close() }
        #expect(granted.format.channelCount == channels)
        #expect(granted.deviceName == "surround", "\(channels) channels")
        let ours = try server.sinkInputs().filter { $0.properties["application.name"] == config.applicationName }
        #expect(ours.map(\.channelMap) == [Self.expected[channels]!], "\(channels) channels")
        try backend.setPaused(false)
        let index = { (position: String) in Self.surround.firstIndex(of: position)! }
        if channels == 1 {
            // The server spreads mono over the speakers; both fronts carry it.
            let heard = Self.steadily(recorder) { rms in
                rms[0] > Self.level * 0.5 && abs(rms[0] - rms[1]) < Self.level * 0.05
            }
            #expect(heard.met, "mono: monitor RMS \(heard.rms)")
            return
        }
        // Our own positions other than the fronts carry our silence; positions
        // we do not have (and the sink does) are the server's upmix, not ours.
        let ownSilent = Self.expected[channels]!.dropFirst(2).filter(Self.surround.contains).map(index)
        for (side, name) in [(0, "left"), (1, "right")] {
            tone.side = side
            let heard = Self.steadily(recorder) { rms in
                abs(rms[side] - Self.level) < Self.level * 0.05 && rms[1 - side] < 1e-3
                    && ownSilent.allSatisfy { rms[$0] < 1e-3 }
            }
            #expect(heard.met, "\(channels) channels, \(name) tone: monitor RMS \(heard.rms) in \(Self.surround)")
        }
    }

    /// Reads 50 ms windows until `condition` holds for three in a row (so
    /// audio recorded before the change cannot pass it) or 10 s pass.
    static func steadily(_ recorder: MonitorRecorder, _ condition: ([Float]) -> Bool) -> (rms: [Float], met: Bool) {
        let end = Date().addingTimeInterval(10)
        var last: [Float] = [], run = 0
        while Date() < end && run < 3 {
            let window = recorder.read(seconds: 0.05)
            guard window.count >= recorder.channelCount * 100 else { continue }
            last = MonitorRecorder.rms(window, channels: recorder.channelCount)
            run = condition(last) ? run + 1 : 0
        }
        return (last, run == 3)
    }
}
