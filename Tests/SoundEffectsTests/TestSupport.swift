import Foundation
import SoundEffects

/// An effect with its own state memory and a planar buffer, for tests:
/// runs whole signals through the effect a quantum at a time, the way the
/// mixer does.
final class EffectHarness {
    /// The effect under test.
    var effect: RenderEffect
    /// Its state memory.
    let memory: UnsafeMutableRawPointer
    /// Frames per plane in `buffer` (the mixer's quantum capacity).
    let stride: Int
    /// Planes handed to `process` (8 × `stride`).
    let buffer: UnsafeMutablePointer<Float>
    /// Sidechain planes (8 × `stride`).
    let side: UnsafeMutablePointer<Float>

    /// An effect of `kind` with `parameters`, memory for `capacityChannels` channels at `rate`.
    init(
        _ kind: EffectKind, _ parameters: EffectParameters, rate: Double = 48000, capacityChannels: Int = 8,
        stride: Int = 4096
    ) {
        let bytes = RenderEffect.stateBytes(kind: kind, channels: capacityChannels, capacityRate: rate)
        memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: bytes)  // make() must clear it
        effect = RenderEffect.make(
            kind: kind, parameters: parameters, channels: capacityChannels, sampleRate: rate, memory: memory)
        self.stride = stride
        buffer = .allocate(capacity: 8 * stride)
        buffer.initialize(repeating: 0, count: 8 * stride)
        side = .allocate(capacity: 8 * stride)
        side.initialize(repeating: 0, count: 8 * stride)
    }

    deinit {
        memory.deallocate()
        buffer.deallocate()
        side.deallocate()
    }

    /// Runs `planes` (one array per channel, equal lengths) through the
    /// effect in place, `quantum` frames a call. `sidechain` (same shape)
    /// drives a compressor's detector. `control` runs before each call with
    /// the call's first frame.
    func process(
        _ planes: inout [[Float]], quantum: Int = 512, sidechain: [[Float]]? = nil,
        control: ((Int, inout RenderEffect) -> Void)? = nil
    ) {
        let channels = planes.count
        let frames = planes[0].count
        var at = 0
        while at < frames {
            let n = min(quantum, frames - at)
            control?(at, &effect)
            for c in 0..<channels {
                planes[c].withUnsafeBufferPointer { src in
                    (buffer + c * stride).update(from: src.baseAddress! + at, count: n)
                }
            }
            var sidePointer: UnsafePointer<Float>? = nil
            if let sidechain {
                for c in 0..<channels {
                    sidechain[c].withUnsafeBufferPointer { src in
                        (side + c * stride).update(from: src.baseAddress! + at, count: n)
                    }
                }
                sidePointer = UnsafePointer(side)
            }
            effect.process(
                buffer, stride: stride, channels: channels, frames: n, sidechain: sidePointer, sidechainStride: stride)
            for c in 0..<channels {
                planes[c].withUnsafeMutableBufferPointer { dst in
                    (dst.baseAddress! + at).update(from: buffer + c * stride, count: n)
                }
            }
            at += n
        }
    }
}

/// Test signals.
enum Signal {
    /// `frames` samples of a sine of `frequency` Hz and `amplitude` at `rate`.
    static func sine(_ frequency: Double, amplitude: Double, frames: Int, rate: Double = 48000, phase: Double = 0)
        -> [Float]
    {
        (0..<frames).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / rate + phase)) }
    }

    /// A unit impulse at frame `at` in `frames` samples.
    static func impulse(frames: Int, at: Int = 0, amplitude: Float = 1) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        x[at] = amplitude
        return x
    }

    /// Deterministic white noise in −amplitude…amplitude.
    static func noise(frames: Int, amplitude: Float, seed: UInt64) -> [Float] {
        var rng = SplitMix(seed: seed)
        return (0..<frames).map { _ in amplitude * (2 * rng.unit() - 1) }
    }
}

/// A small deterministic random generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in 0…1.
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
}

/// Decibels of a linear amplitude.
func dB(_ x: Double) -> Double { 20 * log10(max(x, 1e-30)) }

/// The largest |x| over `range`.
func peak(_ x: [Float], _ range: Range<Int>) -> Float {
    var m: Float = 0
    for i in range { m = max(m, abs(x[i])) }
    return m
}

/// The running maximum of |x| over a window of `radius` frames either side (van Herk / Gil-Werman, O(n)).
func localAmplitude(_ x: [Float], radius: Int) -> [Float] {
    let n = x.count, w = 2 * radius + 1
    let a = x.map { abs($0) }
    var prefix = a, suffix = a
    for i in 0..<n where i % w != 0 { prefix[i] = max(prefix[i - 1], a[i]) }
    if n > 1 {
        for i in stride(from: n - 2, through: 0, by: -1) where (i + 1) % w != 0 { suffix[i] = max(suffix[i + 1], a[i]) }
    }
    return (0..<n).map { i in
        let lo = max(0, i - radius), hi = min(n - 1, i + radius)
        return max(suffix[lo], prefix[hi])
    }
}

/// The click index of `y` from frame `from` on: the largest sample-to-sample
/// step divided by what a sine of `frequency` Hz at the signal's own local
/// amplitude (the largest |y| within ±`radius` frames) can step,
/// amplitude × 2π·frequency/rate. ≤ 1 for any slowly modulated sine.
/// Frames where the local amplitude is below `floor` are skipped.
func clickIndex(
    _ y: [Float], from: Int, frequency: Double = 440, rate: Double = 48000, radius: Int = 128, floor: Float = 1e-4
) -> (index: Double, at: Int) {
    let local = localAmplitude(y, radius: radius)
    let w = 2 * Double.pi * frequency / rate
    var worst = 0.0, at = -1
    for i in max(1, from)..<y.count where local[i] >= floor {
        let r = Double(abs(y[i] - y[i - 1])) / (Double(local[i]) * w)
        if r > worst {
            worst = r
            at = i
        }
    }
    return (worst, at)
}
