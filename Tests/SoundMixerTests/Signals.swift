import Foundation
import SoundCore
import SoundMixer
import Synchronization

// Test support: signal generators, offline rendering and measurements.

/// A mono sound of `frames` samples of a sine.
func sine(frequency: Double, rate: Int = 48_000, frames: Int, amplitude: Float = 1) -> DecodedAudio {
    let samples = (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    return DecodedAudio(sampleRate: rate, channelCount: 1, samples: samples)
}

/// A sound holding `value` in every sample of every channel.
func constant(_ value: Float, frames: Int, channels: Int = 1, rate: Int = 48_000) -> DecodedAudio {
    DecodedAudio(sampleRate: rate, channelCount: channels, samples: [Float](repeating: value, count: frames * channels))
}

/// A small mixer for tests: quantum 256, stereo float32 at 48 kHz.
func makeMixer(_ change: (inout MixerConfiguration) -> Void = { _ in }) throws -> Mixer {
    var c = MixerConfiguration(quantumFrames: 256, maxVoices: 32, maxBuses: 8, maxSounds: 32)
    change(&c)
    return try Mixer(c)
}

/// Renders `frames` stereo float32 frames through the render entry and splits the channels.
func render(_ mixer: Mixer, frames: Int, block: Int? = nil) -> (left: [Float], right: [Float]) {
    var interleaved = [Float](repeating: .nan, count: frames * 2)
    let step = block ?? frames
    interleaved.withUnsafeMutableBufferPointer { buffer in
        var done = 0
        while done < frames {
            let n = min(step, frames - done)
            mixer.render(into: UnsafeMutableRawPointer(buffer.baseAddress! + 2 * done), frames: n)
            done += n
        }
    }
    return (stride(from: 0, to: frames * 2, by: 2).map { interleaved[$0] },
            stride(from: 1, to: frames * 2, by: 2).map { interleaved[$0] })
}

/// Frequency from upward zero crossings between the first and the last one.
func zeroCrossingFrequency(_ x: ArraySlice<Float>, rate: Int = 48_000) -> Double {
    var crossings: [Double] = []
    var previous = x.first!
    for (i, v) in zip(x.indices, x).dropFirst() {
        if previous < 0 && v >= 0 { crossings.append(Double(i - 1) + Double(-previous / (v - previous))) }
        previous = v
    }
    guard crossings.count > 2 else { return 0 }
    return Double(crossings.count - 1) * Double(rate) / (crossings.last! - crossings.first!)
}

func rms(_ x: ArraySlice<Float>) -> Double {
    (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
}

func maxStep(_ x: ArraySlice<Float>) -> Float {
    zip(x.dropFirst(), x).map { abs($0 - $1) }.max() ?? 0
}

func correlation(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(a.count)
    let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
    var sab = 0.0, saa = 0.0, sbb = 0.0
    for i in a.indices {
        sab += (a[i] - ma) * (b[i] - mb)
        saa += (a[i] - ma) * (a[i] - ma)
        sbb += (b[i] - mb) * (b[i] - mb)
    }
    return sab / (saa * sbb).squareRoot()
}

/// Polls `condition` until it holds or `seconds` pass (yielding, never sleeping a fixed time).
func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        sched_yield()
    }
    return condition()
}

func events(_ mixer: Mixer) -> [MixerEvent] {
    var all: [MixerEvent] = []
    mixer.drainEvents { all.append($0) }
    return all
}

/// An in-memory `AudioFrameSource`: the test double for a decoder. `gate`
/// (if set) makes reads past that frame wait until it is raised, as slow I/O would.
final class MemorySource: AudioFrameSource, @unchecked Sendable {
    // @unchecked: `samples` and `format` are immutable; `state` is behind its lock.
    let samples: [Float]
    let format: SourceFormat
    private let state = ControlLock((position: 0, gate: Int.max, waiting: false))

    init(_ audio: DecodedAudio, gate: Int = .max) {
        samples = audio.samples
        format = SourceFormat(sampleRate: audio.sampleRate, channelCount: audio.channelCount, frameCount: audio.frameCount)
        state.withLock { $0.gate = gate }
    }

    func open(gateAt frame: Int) { state.withLock { $0.gate = frame } }

    /// Whether the reader is blocked at the gate: it has read all it can.
    var isWaitingAtGate: Bool { state.withLock { $0.waiting } }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(SoundEngineError) -> Int {
        let channels = format.channelCount
        // A read the gate would cut short waits until the test raises the
        // gate, as slow I/O would: a short read means the end of the data
        // (AudioFrameSource's contract), so the gate must never cause one.
        while true {
            let blocked = state.withLock { s in
                s.waiting = s.position + min(frames, samples.count / channels - s.position) > s.gate
                return s.waiting
            }
            if !blocked { break }
            sched_yield()
        }
        return state.withLock { s in
            let available = min(frames, samples.count / channels - s.position)
            for i in 0..<(available * channels) { buffer[i] = samples[s.position * channels + i] }
            s.position += available
            return available
        }
    }

    func seek(toFrame frame: Int) throws(SoundEngineError) {
        state.withLock { $0.position = frame }
    }
}

/// Writes `audio` as a 16-bit PCM WAV file (a real file for the real decoder);
/// samples are clamped to ±1 and rounded.
func writeWAV(_ audio: DecodedAudio, to path: String) throws {
    let channels = audio.channelCount, rate = audio.sampleRate
    let dataBytes = audio.samples.count * 2
    var bytes: [UInt8] = []
    bytes.reserveCapacity(44 + dataBytes)
    func text(_ s: String) { bytes += Array(s.utf8) }
    func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { bytes += $0 } }
    func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { bytes += $0 } }
    text("RIFF"); u32(36 + dataBytes); text("WAVE")
    text("fmt "); u32(16); u16(1); u16(channels); u32(rate); u32(rate * channels * 2); u16(channels * 2); u16(16)
    text("data"); u32(dataBytes)
    for x in audio.samples {
        withUnsafeBytes(of: Int16((max(-1, min(1, x)) * 32767).rounded()).littleEndian) { bytes += $0 }
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}
