import CMixKernels
import Foundation
import SoundCore
@_spi(Testing) import SoundMixer
import Testing

/// The batched low-pass (`mk_lowpass_batch`, docs/mixer.md "The batched
/// low-pass") against the per-voice portable filter it replaces: kernel by
/// kernel on random lanes, and through the mixer against the per-voice path
/// (`MixerConfiguration.batchedLowPass = false`).
@Suite("Batched low-pass against the per-voice reference")
struct LowPassBatchTests {
    /// A deterministic generator, so a failure repeats.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func float(_ range: ClosedRange<Float>) -> Float {
            range.lowerBound + Float(Double(next() % 1_000_000) / 1_000_000) * (range.upperBound - range.lowerBound)
        }
    }

    struct Lane {
        var row: [Float]
        var state: [Float]
        var start: Int
        var rampEnd: Int
        var p0: Float
        var dp: Float
        var hold: Float
        var fuse: Bool
        var gain: (Float, Float)
        var gainStep: (Float, Float)
    }

    /// Random lanes: starts at 0 or anywhere, ramps ending anywhere (mid-block
    /// too), held and ramping coefficients, fused and written-back lanes,
    /// rows that fall silent part-way (a voice that ended mid-quantum).
    static func lanes(_ count: Int, frames: Int, seed: UInt64) -> [Lane] {
        var r = Random(state: seed)
        return (0..<count).map { _ in
            let start = r.int(0...3) == 0 ? r.int(0...frames) : 0
            let rampEnd = [start, frames, r.int(start...frames)][r.int(0...2)]
            let p0 = r.float(0...0.999)
            let dp = r.int(0...1) == 0 ? 0 : (r.float(0...0.999) - p0) / Float(max(frames, 1))
            let end = r.int(0...2) == 0 ? r.int(start...frames) : frames
            var row = [Float](repeating: 0, count: frames)
            for t in 0..<end { row[t] = r.float(-1...1) }
            return Lane(
                row: row, state: [r.float(-0.5...0.5), r.float(-0.5...0.5)], start: start, rampEnd: rampEnd, p0: p0,
                dp: dp, hold: r.float(0...0.999), fuse: start == 0 && r.int(0...1) == 0,
                gain: (r.float(0...1), r.float(0...1)), gainStep: (r.float(-0.001...0.001), r.float(-0.001...0.001)))
        }
    }

    /// The reference: `mk_lowpass` of the portable set, voice by voice, then
    /// the pan-add for fused lanes.
    static func reference(_ lanes: [Lane], frames: Int) -> (lanes: [Lane], left: [Float], right: [Float]) {
        let portable = mk_select_kernels(MK_KERNELS_PORTABLE)!
        var out = lanes
        var left = [Float](repeating: 0.25, count: frames), right = [Float](repeating: -0.25, count: frames)
        for i in out.indices {
            let l = out[i]
            var rowCopy = l.row, stateCopy = l.state
            rowCopy.withUnsafeMutableBufferPointer { row in
                stateCopy.withUnsafeMutableBufferPointer { state in
                    let x = row.baseAddress!, s = state.baseAddress!
                    if l.rampEnd > l.start {
                        mk_lowpass(portable, x + l.start, nil, Int32(l.rampEnd - l.start), s, l.p0, l.dp)
                    }
                    if frames > l.rampEnd { mk_lowpass(portable, x + l.rampEnd, nil, Int32(frames - l.rampEnd), s, l.hold, 0) }
                }
            }
            out[i].row = rowCopy
            out[i].state = stateCopy
            if l.fuse {
                for t in 0..<frames {
                    left[t] += (l.gain.0 + l.gainStep.0 * Float(t)) * out[i].row[t]
                    right[t] += (l.gain.1 + l.gainStep.1 * Float(t)) * out[i].row[t]
                }
                out[i].row = lanes[i].row  // a fused lane's row is not written back
            }
        }
        return (out, left, right)
    }

    static func batched(_ lanes: [Lane], frames: Int, kernels: OpaquePointer) -> (lanes: [Lane], left: [Float], right: [Float]) {
        var out = lanes
        var left = [Float](repeating: 0.25, count: frames), right = [Float](repeating: -0.25, count: frames)
        let rows = out.map { l -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
            p.initialize(from: l.row, count: frames)
            return p
        }
        let states = out.map { l -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: 2)
            p.initialize(from: l.state, count: 2)
            return p
        }
        defer {
            rows.forEach { $0.deallocate() }
            states.forEach { $0.deallocate() }
        }
        let descriptions = out.indices.map { i in
            let l = out[i]
            return mk_lowpass_lane(
                row: rows[i], state: states[i], start: Int32(l.start), ramp_end: Int32(l.rampEnd), coefficient: l.p0,
                coefficient_step: l.dp, hold: l.hold, fuse: l.fuse ? 1 : 0, gain: l.gain, gain_step: l.gainStep)
        }
        descriptions.withUnsafeBufferPointer { d in
            mk_lowpass_batch(kernels, d.baseAddress, Int32(d.count), Int32(frames), &left, &right)
        }
        for i in out.indices {
            out[i].row = Array(UnsafeBufferPointer(start: rows[i], count: frames))
            out[i].state = [states[i][0], states[i][1]]
        }
        return (out, left, right)
    }

    /// The C table of `kernels`, or `nil` (and a note) where this CPU cannot run it.
    static func table(_ kernels: KernelSelection) -> OpaquePointer? {
        guard kernels.isSupported else {
            print("skipped: this CPU cannot run the \(kernels) kernels")
            return nil
        }
        let choice: mk_kernel_choice =
            switch kernels {
            case .automatic: MK_KERNELS_AUTOMATIC
            case .portable: MK_KERNELS_PORTABLE
            case .avx2: MK_KERNELS_AVX2
            case .avx512: MK_KERNELS_AVX512
            }
        return mk_select_kernels(choice)
    }

    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    @Test(
        "every kernel set's batch matches the per-voice portable filter: partial batches, ramps, late starts, early ends",
        arguments: KernelSelection.allCases)
    func kernelAgainstReference(kernels: KernelSelection) throws {
        guard let table = Self.table(kernels) else { return }
        // Counts around the 8- and 16-lane groups; frames whole tiles and not.
        for (seed, count) in [1, 5, 8, 15, 16, 17, 31, 33, 40].enumerated() {
            for frames in [256, 512, 100, 16, 7] {
                let lanes = Self.lanes(count, frames: frames, seed: UInt64(seed * 1000 + frames))
                let want = Self.reference(lanes, frames: frames)
                let got = Self.batched(lanes, frames: frames, kernels: table)
                for i in lanes.indices {
                    let d = Self.maxDifference(got.lanes[i].row, want.lanes[i].row)
                    #expect(d < 1e-5, "\(kernels) count \(count) frames \(frames) lane \(i): row differs by \(d)")
                    #expect(Self.maxDifference(got.lanes[i].state, want.lanes[i].state) < 1e-5, "lane \(i) state")
                    // Frames before the start are left as they were.
                    #expect(Array(got.lanes[i].row[..<lanes[i].start]) == Array(lanes[i].row[..<lanes[i].start]))
                }
                #expect(Self.maxDifference(got.left, want.left) < 1e-5 * Float(max(count, 1)))
                #expect(Self.maxDifference(got.right, want.right) < 1e-5 * Float(max(count, 1)))
            }
        }
    }

    /// A batch row is mixed with `out_right == NULL` (mono into one plane):
    /// every set and quality writes the same left plane as with a right
    /// plane, including ramps, odd lengths and the masked last step.
    @Test("a mono mix with no right plane writes the same left plane", arguments: KernelSelection.allCases)
    func monoWithoutRightPlane(kernels: KernelSelection) throws {
        guard let table = Self.table(kernels) else { return }
        var r = Random(state: 42)
        let source = (0..<4096).map { _ in r.float(-1...1) }
        for quality in [MK_LINEAR, MK_CUBIC, MK_SINC] {
            for step in [0.5, 0.95, 1.0, 1.07, 1.9, 3.3] {
                for frames in [1, 15, 16, 100, 512] {
                    var withRight = [Float](repeating: 0.1, count: frames), right = withRight
                    var alone = withRight
                    source.withUnsafeBufferPointer { src in
                        var segment = mk_segment(
                            source: (src.baseAddress! + 64, nil), position: 0x1234_5678,
                            step: UInt64(step * 4_294_967_296.0), gain: (0.7, 0.3), gain_step: (0.001, -0.0005),
                            prefetch: (nil, nil))
                        mk_mix(table, quality, &segment, &withRight, &right, Int32(frames))
                        mk_mix(table, quality, &segment, &alone, nil, Int32(frames))
                    }
                    #expect(alone == withRight, "\(kernels) \(quality) step \(step) frames \(frames)")
                }
            }
        }
    }

    // MARK: - Through the mixer

    /// 37 filtered mono voices (two full batches and a partial one) on two
    /// buses, some starting mid-quantum, some short enough to end
    /// mid-quantum, with cutoff and pan ramps of odd lengths, plus a stereo
    /// filtered voice and an unfiltered one; rendered in uneven blocks.
    static func scene(batched: Bool, kernels: KernelSelection) throws -> [Float] {
        let mixer = try makeMixer {
            $0.kernels = kernels
            $0.maxVoices = 64
            $0.batchedLowPass = batched
            $0.sharedLowPass = false  // both sides filter each voice on its own
        }
        let bus = try mixer.createBus(name: "far")
        let long = try loopingSine(mixer, 440)
        let short = try mixer.loadSound(sine(frequency: 1000, frames: 700, amplitude: 0.4), name: "short")
        let stereo = try mixer.loadSound(
            DecodedAudio(sampleRate: 44_100, channelCount: 2, samples: (0..<8000).map { Float(sin(Double($0) * 0.02)) }),
            name: "st")
        var voices: [VoiceID] = []
        for i in 0..<37 {
            let p = VoiceParameters(
                volume: 0.05, pan: Float(i % 9) / 4 - 1, pitch: 0.7 + Double(i) * 0.03, loop: i % 5 != 0,
                start: i % 4 == 1 ? .afterFrames(37 * i) : .immediately, lowPassHz: 300 + Float(i) * 400)
            voices.append(try mixer.play(i % 5 == 0 ? short : long, on: i % 3 == 0 ? bus : .master, p))
        }
        try mixer.play(stereo, VoiceParameters(volume: 0.3, loop: true, lowPassHz: 2000))
        try mixer.play(long, VoiceParameters(volume: 0.2, pan: -0.4, loop: true))
        var out = render(mixer, frames: 1500, block: 333).left
        for (i, v) in voices.enumerated() where i % 5 != 0 {
            try mixer.setLowPass(v, cutoffHz: 20_000 - Float(i) * 300, rampFrames: 100 + 37 * i)
            try mixer.setVolumeAndPan(v, volume: 0.04, pan: Float(i % 7) / 3 - 1, rampFrames: 50 + 29 * i)
        }
        let r = render(mixer, frames: 3000, block: 500)
        out += r.left + r.right
        for (i, v) in voices.enumerated() where i % 5 != 0 && i % 2 == 0 {
            try mixer.setLowPass(v, cutoffHz: nil, rampFrames: 300)
        }
        out += render(mixer, frames: 2000, block: 256).right
        return out
    }

    @Test("through the mixer, the batched path sounds like the per-voice path", arguments: KernelSelection.allCases)
    func throughMixer(kernels: KernelSelection) throws {
        guard kernels.isSupported else {
            print("skipped: this CPU cannot run the \(kernels) kernels")
            return
        }
        let batched = try Self.scene(batched: true, kernels: kernels)
        let reference = try Self.scene(batched: false, kernels: .portable)
        let peak = reference.map(abs).max()!
        #expect(peak > 0.05, "the scene is audible")
        #expect(Self.maxDifference(batched, reference) < 1e-5 * max(1, peak))
    }
}
