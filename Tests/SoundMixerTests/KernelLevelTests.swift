import CMixKernels
import Foundation
import SoundCore
import SoundMixer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every vector kernel set against the portable C set, the scalar reference
/// (docs/mixer.md, "Kernels and CPU dispatch"): through the real mixer, and
/// kernel by kernel on random segments. A set this CPU cannot run is skipped
/// by name, with the reason (`KernelSelection.isSupported` decides), so a run
/// on a machine without AVX-512 says so instead of passing quietly.
@Suite("Kernel sets against the portable reference")
struct KernelLevelTests {
    static let pitches = [0.25, 0.61, 0.95, 1.0, 1.07, 1.6, 1.9, 3.3]

    // MARK: - Through the mixer

    /// A mono sine panned and a stereo sound faded in and ramped, rendered in
    /// uneven blocks: every kind of segment the render path makes.
    static func mixerOutput(_ kernels: KernelSelection, pitch: Double, quality: ResamplerQuality) throws -> [Float] {
        let mixer = try makeMixer { $0.kernels = kernels }
        let sound = try mixer.loadSound(sine(frequency: 440, frames: 4800, amplitude: 0.7), name: "s")
        let stereo = try mixer.loadSound(
            DecodedAudio(sampleRate: 44_100, channelCount: 2, samples: (0..<8000).map { Float(sin(Double($0) * 0.01)) }),
            name: "st")
        try mixer.play(sound, VoiceParameters(volume: 0.8, pan: 0.3, pitch: pitch, loop: true, quality: quality))
        let v = try mixer.play(stereo, VoiceParameters(pitch: pitch, loop: true, fadeIn: .microseconds(700 * 1_000_000 / 48_000), quality: quality))
        var out = render(mixer, frames: 3000, block: 333).left
        try mixer.setVolume(v, 0.2, rampFrames: 1000)
        out += render(mixer, frames: 3000, block: 333).right
        return out
    }

    static func agreesThroughMixer(_ kernels: KernelSelection, pitch: Double, quality: ResamplerQuality) throws {
        let a = try mixerOutput(kernels, pitch: pitch, quality: quality)
        let p = try mixerOutput(.portable, pitch: pitch, quality: quality)
        #expect(zip(a, p).map { abs($0 - $1) }.max()! < 1e-5)
    }

    @Test("the automatic set agrees with the portable one through the mixer", arguments: pitches, ResamplerQuality.allCases)
    func automaticThroughMixer(pitch: Double, quality: ResamplerQuality) throws {
        try Self.agreesThroughMixer(.automatic, pitch: pitch, quality: quality)
    }

    @Test(
        "AVX2+FMA agrees with portable through the mixer",
        .enabled(if: KernelSelection.avx2.isSupported, "this CPU cannot run the AVX2+FMA kernels"),
        arguments: pitches, ResamplerQuality.allCases)
    func avx2ThroughMixer(pitch: Double, quality: ResamplerQuality) throws {
        try Self.agreesThroughMixer(.avx2, pitch: pitch, quality: quality)
    }

    @Test(
        "AVX-512 agrees with portable through the mixer",
        .enabled(if: KernelSelection.avx512.isSupported, "this CPU cannot run the AVX-512 kernels"),
        arguments: pitches, ResamplerQuality.allCases)
    func avx512ThroughMixer(pitch: Double, quality: ResamplerQuality) throws {
        try Self.agreesThroughMixer(.avx512, pitch: pitch, quality: quality)
    }

    // MARK: - Kernel by kernel

    /// Random segments (rate 0.03…4 plus every mode boundary, 1…600 frames,
    /// mono and stereo, constant and ramped gains, linear, cubic and sinc)
    /// mixed by `kernels` and by the portable set into the same random
    /// accumulators. The source ends exactly `MK_GUARD_FRAMES` samples past
    /// each segment's last position, against an unreadable page, so a kernel
    /// that reads further than its contract allows crashes the test; the
    /// accumulators carry sentinels past `frames` that must stay untouched.
    static func agreesOnSegments(_ kernels: KernelSelection, choice: mk_kernel_choice) {
        guard let vector = mk_select_kernels(choice), let portable = mk_select_kernels(MK_KERNELS_PORTABLE) else {
            Issue.record("mk_select_kernels refused \(kernels)")
            return
        }
        #expect(String(cString: mk_kernel_name(vector)) != "portable")
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = 16 * page
        guard let region = mmap(nil, length + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            region != MAP_FAILED
        else {
            Issue.record("mmap failed")
            return
        }
        defer { munmap(region, length + page) }
        #expect(mprotect(region + length, page, PROT_NONE) == 0)
        let floats = length / 4
        // Two planes: plane 1 ends at the unreadable page, plane 0 half-way.
        let memory = region.bindMemory(to: Float.self, capacity: floats)
        var rng = SplitMix64(state: 0x5EED)
        for i in 0..<floats { memory[i] = Float.random(in: -1...1, using: &rng) }

        let unit = Double(1 << 32)
        let boundaries: [Double] = [7.0 / 8, 9.0 / 8, 1, 2, 28.0 / 15, 0.5]
        var worst: Float = 0
        var failures = 0
        for trial in 0..<3000 {
            var step: UInt64
            if trial < boundaries.count * 4 {  // each boundary exactly and one unit either side
                step = UInt64(boundaries[trial / 4] * unit) &+ UInt64(bitPattern: Int64(trial % 4) - 2)
            } else {
                step = UInt64(Double.random(in: 0.03...4, using: &rng) * unit)
            }
            step = max(step, 1)
            let frames = trial % 7 == 0 ? Int.random(in: 1...40, using: &rng) : Int.random(in: 1...600, using: &rng)
            let position = UInt64.random(in: 0..<(4 << 32), using: &rng)
            let stereo = Bool.random(using: &rng)
            let ramp = Bool.random(using: &rng)
            let interpolation = mk_interpolation(UInt32(trial % 3))
            let last = Int((position &+ UInt64(frames - 1) &* step) >> 32)
            // Sources placed so that exactly MK_GUARD_FRAMES samples follow the last position.
            let end1 = floats, end0 = floats / 2
            let base1 = memory + (end1 - Int(MK_GUARD_FRAMES) - 1 - last)
            let base0 = memory + (end0 - Int(MK_GUARD_FRAMES) - 1 - last)
            var segment = mk_segment()
            segment.source = (UnsafePointer(base0), stereo ? UnsafePointer(base1) : nil)
            segment.position = position
            segment.step = step
            segment.gain = (Float.random(in: -1...1, using: &rng), Float.random(in: -1...1, using: &rng))
            segment.gain_step = ramp ? (Float.random(in: -1e-3...1e-3, using: &rng), Float.random(in: -1e-3...1e-3, using: &rng)) : (0, 0)
            segment.prefetch = (UnsafePointer(memory), stereo ? UnsafePointer(memory + 4096) : nil)
            let sentinel: Float = 12345
            let start = (0..<(2 * frames)).map { _ in Float.random(in: -1...1, using: &rng) }
            var a = start + [Float](repeating: sentinel, count: 32), b = a
            func run(_ table: OpaquePointer, _ out: inout [Float]) {
                out.withUnsafeMutableBufferPointer { o in
                    var s = segment
                    mk_mix(table, interpolation, &s, o.baseAddress!, o.baseAddress! + frames, Int32(frames))
                }
            }
            run(vector, &a)
            run(portable, &b)
            let difference = zip(a, b).map { abs($0 - $1) }.max()!
            worst = max(worst, difference)
            if difference >= 1e-5 || a[(2 * frames)...].contains(where: { $0 != sentinel }) {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "\(kernels) trial \(trial): step \(Double(step) / unit), frames \(frames), stereo \(stereo), ramp \(ramp), interpolation \(interpolation.rawValue): difference \(difference)")
                }
            }
        }
        #expect(failures == 0, "largest difference \(worst)")
    }

    @Test(
        "AVX2+FMA kernels agree with portable on random segments, reading only what they may",
        .enabled(if: KernelSelection.avx2.isSupported, "this CPU cannot run the AVX2+FMA kernels"))
    func avx2Segments() {
        Self.agreesOnSegments(.avx2, choice: MK_KERNELS_AVX2)
    }

    @Test(
        "AVX-512 kernels agree with portable on random segments, reading only what they may",
        .enabled(if: KernelSelection.avx512.isSupported, "this CPU cannot run the AVX-512 kernels"))
    func avx512Segments() {
        Self.agreesOnSegments(.avx512, choice: MK_KERNELS_AVX512)
    }

    /// A random segment over the samples at `base` (40,000 readable from 64
    /// before it): a step that permutes (below 1.9) or gathers (up to 3.5),
    /// mono or stereo, constant or ramped gains.
    static func randomSegment(over base: UnsafePointer<Float>, using rng: inout SplitMix64) -> mk_segment {
        var segment = mk_segment()
        let step = UInt64(Double.random(in: 0.2...(Bool.random(using: &rng) ? 1.9 : 3.5), using: &rng) * Double(1 << 32))
        let offset = Int.random(in: 0..<10_000, using: &rng)
        let stereo = Bool.random(using: &rng)
        segment.source = (base + offset, stereo ? base + offset + 12_000 : nil)
        segment.position = UInt64.random(in: 0..<(1 << 32), using: &rng)
        segment.step = step
        segment.gain = (Float.random(in: -1...1, using: &rng), Float.random(in: -1...1, using: &rng))
        segment.gain_step = Bool.random(using: &rng)
            ? (Float.random(in: -1e-3...1e-3, using: &rng), Float.random(in: -1e-3...1e-3, using: &rng)) : (0, 0)
        segment.prefetch = (base, nil)
        return segment
    }

    /// `mk_mix_batch` against `mk_mix` segment after segment with the same
    /// set: random batches of 1…8 segments of every kind (mono and stereo,
    /// constant and ramped, steps that permute and steps that gather, mixed
    /// within a batch), 1…600 frames and whole tiles of 64, each
    /// interpolation. The batch promises the same operations in the same
    /// order per sample, so the outputs must be bit for bit equal; the
    /// sentinels past `frames` must stay untouched.
    @Test("a batch of segments is exactly those segments mixed one after another", arguments: mk_kernel_choice.sets)
    func batchIsTheSegmentsInOrder(choice: mk_kernel_choice) throws {
        guard mk_kernels_supported(choice) != 0 else { return }  // this CPU cannot run the set: nothing to compare
        let table = try #require(mk_select_kernels(choice))
        var rng = SplitMix64(state: 0xBA7C4)
        let source = (0..<40_000).map { _ in Float.random(in: -1...1, using: &rng) }
        var failures = 0
        source.withUnsafeBufferPointer { samples in
            let base = samples.baseAddress! + 64
            for trial in 0..<1500 {
                let count = Int.random(in: 1...Int(MK_BATCH_MAX), using: &rng)
                let frames = trial % 3 == 0 ? 64 * Int.random(in: 1...9, using: &rng) : Int.random(in: 1...600, using: &rng)
                let interpolation = mk_interpolation(UInt32(trial % 3))
                let segments: [mk_segment] = (0..<count).map { _ in Self.randomSegment(over: base, using: &rng) }
                let sentinel: Float = 12345
                let start = (0..<(2 * frames)).map { _ in Float.random(in: -1...1, using: &rng) }
                var one = start + [Float](repeating: sentinel, count: 32), batch = one
                one.withUnsafeMutableBufferPointer { o in
                    for var segment in segments {
                        mk_mix(table, interpolation, &segment, o.baseAddress!, o.baseAddress! + frames, Int32(frames))
                    }
                }
                batch.withUnsafeMutableBufferPointer { o in
                    segments.withUnsafeBufferPointer {
                        mk_mix_batch(table, interpolation, $0.baseAddress!, Int32(count), o.baseAddress!, o.baseAddress! + frames, Int32(frames))
                    }
                }
                if one.map(\.bitPattern) != batch.map(\.bitPattern) {
                    failures += 1
                    if failures <= 5 {
                        let worst = zip(one, batch).map { abs($0 - $1) }.max()!
                        Issue.record("trial \(trial): \(count) segments, \(frames) frames, interpolation \(interpolation.rawValue): largest difference \(worst)")
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    /// `mk_mix_crossfade` against what it stands for: the segment mixed
    /// alone into zeroed planes, then added to the planes it leaves fading
    /// out and to those it enters fading in (`mk_accumulate_ramped`, the
    /// crossfade before the kernel existed). Random segments of every kind
    /// (mono and stereo, constant and ramped, steps that permute and steps
    /// that gather, 1…600 frames and more than the buffered path's chunk),
    /// each interpolation, weights that start anywhere in the fade; within
    /// float rounding (the fused kernel multiplies once where the reference
    /// rounds the mixed sample first), and nothing past `frames` written.
    @Test("a crossfade is the segment mixed once, added fading out and fading in", arguments: mk_kernel_choice.sets)
    func crossfadeIsTheSegmentFadedBothWays(choice: mk_kernel_choice) throws {
        guard mk_kernels_supported(choice) != 0 else { return }  // this CPU cannot run the set: nothing to compare
        let table = try #require(mk_select_kernels(choice))
        var rng = SplitMix64(state: 0xC0FFEE)
        let source = (0..<40_000).map { _ in Float.random(in: -1...1, using: &rng) }
        var failures = 0
        var worst: Float = 0
        source.withUnsafeBufferPointer { samples in
            let base = samples.baseAddress! + 64
            for trial in 0..<1500 {
                let frames = trial % 5 == 0 ? Int.random(in: 300...600, using: &rng) : Int.random(in: 1...600, using: &rng)
                let interpolation = mk_interpolation(UInt32(trial % 3))
                var segment = Self.randomSegment(over: base, using: &rng)
                let stereo = segment.source.1 != nil
                // A fade over `length` frames of which this segment is a part.
                let length = frames + Int.random(in: 0...200, using: &rng)
                let first = Int.random(in: 0...(length - frames), using: &rng)
                let weightStep = 1 / Float(length), weight = Float(first) * weightStep
                let sentinel: Float = 12345
                // Four planes of `frames`, each followed by sentinels.
                let stride = frames + 16
                let start = (0..<(4 * stride)).map { i in i % stride < frames ? Float.random(in: -1...1, using: &rng) : sentinel }
                var fused = start, reference = start
                fused.withUnsafeMutableBufferPointer { o in
                    let p = o.baseAddress!
                    mk_mix_crossfade(
                        table, interpolation, &segment, p, p + stride, p + 2 * stride, p + 3 * stride, Int32(frames),
                        weight, weightStep)
                }
                reference.withUnsafeMutableBufferPointer { o in
                    let p = o.baseAddress!
                    var alone = [Float](repeating: 0, count: 2 * frames)
                    alone.withUnsafeMutableBufferPointer { a in
                        let l = a.baseAddress!, r = a.baseAddress! + frames
                        mk_mix(table, interpolation, &segment, l, r, Int32(frames))
                        mk_accumulate_ramped(table, l, r, p, p + stride, 1 - weight, -weightStep, Int32(frames))
                        mk_accumulate_ramped(table, l, r, p + 2 * stride, p + 3 * stride, weight, weightStep, Int32(frames))
                    }
                }
                let difference = zip(fused, reference).map { abs($0 - $1) }.max()!
                worst = max(worst, difference)
                let written = (0..<(4 * stride)).contains { $0 % stride >= frames && fused[$0] != sentinel }
                if difference >= 1e-5 || written {
                    failures += 1
                    if failures <= 5 {
                        Issue.record(
                            "trial \(trial): \(frames) frames, stereo \(stereo), interpolation \(interpolation.rawValue), weight \(weight): difference \(difference), past the end written \(written)")
                    }
                }
            }
        }
        #expect(failures == 0, "largest difference \(worst)")
    }

    /// The meter is the same figure at every kernel level, bit for bit, and
    /// within float rounding of a double-precision sum; every length, the
    /// 16-lane tail included, and a NaN neither becomes the peak nor hides it.
    @Test("the meter gives the same figure in every kernel set", arguments: [1, 15, 16, 17, 333, 512, 1000])
    func meter(frames: Int) throws {
        var random = SplitMix64(state: UInt64(frames))
        let left = (0..<frames).map { _ in Float.random(in: -1...1, using: &random) }
        var right = (0..<frames).map { _ in Float.random(in: -0.5...0.5, using: &random) }
        right[frames / 2] = .nan
        right[frames - 1] = frames == 1 ? 1.5 : right[frames - 1]
        var results: [(peak: Float, sum: Double)] = []
        for choice in mk_kernel_choice.sets where mk_kernels_supported(choice) != 0 {
            let table = try #require(mk_select_kernels(choice))
            var peak: Float = 0.25
            var sum = 1.0
            mk_measure(table, left, right, Int32(frames), &peak, &sum)
            results.append((peak, sum))
        }
        #expect(results.count >= 1)
        for result in results.dropFirst() {
            #expect(result.peak == results[0].peak)
            #expect(result.sum.bitPattern == results[0].sum.bitPattern, "\(result.sum) against \(results[0].sum)")
        }
        let finite = (left + right).filter { !$0.isNaN }
        let expectedPeak = max(0.25, finite.map { abs($0) }.max() ?? 0)
        #expect(results[0].peak == expectedPeak)
        // The NaN's square is in the sum, as it was in the scalar meter.
        if frames > 2 {
            #expect(results[0].sum.isNaN)
        } else {
            let exact = 1 + finite.reduce(0.0) { $0 + Double($1) * Double($1) }
            #expect(abs(results[0].sum - exact) <= 1e-6 * exact)
        }
        var clean = right
        clean[frames / 2] = 0
        var peak: Float = 0
        var sum = 0.0
        mk_measure(mk_select_kernels(MK_KERNELS_AUTOMATIC), left, clean, Int32(frames), &peak, &sum)
        let exact = zip(left, clean).reduce(0.0) { $0 + Double($1.0) * Double($1.0) + Double($1.1) * Double($1.1) }
        #expect(abs(sum - exact) <= 1e-6 * exact, "\(sum) against \(exact)")
    }

    @Test("a set the CPU cannot run is refused, and automatic picks the widest one it can")
    func selection() throws {
        for kernels in KernelSelection.allCases where !kernels.isSupported {
            #expect(throws: SoundEngineError.self) { try makeMixer { $0.kernels = kernels } }
        }
        let expected =
            KernelSelection.avx512.isSupported ? "avx512" : KernelSelection.avx2.isSupported ? "avx2+fma" : "portable"
        #expect(try makeMixer().kernelName == expected)
        #expect(try makeMixer { $0.kernels = .portable }.kernelName == "portable")
    }
}

extension mk_kernel_choice {
    /// Every kernel set by itself (automatic is one of them on any CPU).
    static let sets: [mk_kernel_choice] = [MK_KERNELS_PORTABLE, MK_KERNELS_AVX2, MK_KERNELS_AVX512]
}

/// splitmix64 (the mix-N workload's noise generator, and a seeded generator
/// so a failing trial replays exactly).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
