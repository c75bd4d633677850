import CMixKernels

/// One insert effect on a bus, as the render thread runs it.
///
/// Plain data (BitwiseCopyable): the kind, the current, target and ramp
/// state of the parameters, and a pointer to the effect's state memory
/// (delay lines, filter states, detector state), which the control side
/// allocates once with ``stateBytes(kind:channels:capacityRate:)`` bytes
/// and hands to ``make(kind:parameters:channels:sampleRate:memory:)``.
/// Copies share that memory: keep one live copy per insert slot.
///
/// Everything but `stateBytes` and `make` runs on the render thread and is
/// `@_noLocks`: no locks, no allocation, no reference counting, no libm.
///
/// Smoothing: ``setTarget(_:rampFrames:)`` moves every parameter from where
/// it is to its target over `rampFrames` frames — but never faster than
/// 10 ms, so a change "at once" does not click. Frequencies, Q, ratios and
/// times move linearly in their logarithm, dB values in dB, linear gains
/// linearly. While anything moves, coefficients are recomputed every 16
/// frames and interpolated per frame in between (gains, the EQ's filter
/// coefficients, the compressor's makeup, the limiter's ceiling). Changes
/// that cannot be interpolated crossfade: an EQ band's type (over the
/// ramp, at least 40 ms), a delay time or pre-delay (two read heads, 20 ms), the reverb's
/// room size (the 16 lines' read heads, 40 ms). The limiter's look-ahead
/// slides its read head at most 1/32 frame per frame.
package struct RenderEffect: BitwiseCopyable {
    /// What this effect is.
    package let kind: EffectKind
    /// Where the parameters are going (the last ``setTarget(_:rampFrames:)``, clamped).
    package private(set) var target: EffectParameters
    /// Where the parameters are now: the values the last processed frame used.
    package private(set) var current: EffectParameters
    /// The ramp's start, in each parameter's smoothing domain (log2 for logarithmic ones).
    var rampFrom: EffectParameters
    /// The ramp's end, in each parameter's smoothing domain.
    var rampTo: EffectParameters
    /// Frames the running ramp takes.
    var rampLength: Int
    /// Frames of the ramp done; equal to `rampLength` when settled.
    var rampPosition: Int
    /// Frames the last change of targets was given (at least the 10 ms
    /// minimum): what a crossfaded discrete change (an EQ band's type) takes.
    var transitionFrames: Int
    /// The instruction-set level of the C kernels this effect calls
    /// (2 AVX-512, 1 AVX2+FMA, 0 portable): the mixer's kernel set's, at
    /// most the CPU's best (`fx_best_level`); tests lower it to compare the
    /// levels.
    package var kernelLevel: Int32
    /// The rate the effect renders at, Hz.
    package private(set) var sampleRate: Double
    /// The rate the state memory was sized for (``make(kind:parameters:channels:sampleRate:memory:)``'s
    /// `sampleRate`): above it, delay times are clamped to what fits.
    package let capacityRate: Double
    /// The most channels the state memory holds (`make`'s `channels`).
    package let capacityChannels: Int
    /// The channel count of the last ``process(_:stride:channels:frames:sidechain:sidechainStride:)``
    /// call (0 before the first; its layout is ``ChannelLayout``'s for that
    /// count); a change clears the state.
    package private(set) var channels: Int
    /// The channels processed: `channels`, at most ``capacityChannels``.
    var activeChannels: Int
    /// The state memory (``stateBytes(kind:channels:capacityRate:)`` bytes, 64-byte aligned).
    package let memory: UnsafeMutableRawPointer
    /// Where each part of the state lives in `memory`.
    let layout: StateLayout
    /// Whether the effect may still produce output from silent input (a
    /// delay line, reverb tail, filter ringing or the limiter's look-ahead
    /// holds signal above −120 dBFS). The mixer keeps processing a bus whose
    /// effect is ringing after its input stops, and may stop once this is false.
    package private(set) var isRinging: Bool
    /// How many frames the effect delays its signal: the limiter's
    /// look-ahead; 0 for the other kinds.
    package internal(set) var latencyFrames: Int
    /// Frames whose gain or output the limiter's guards (a cap of the gain
    /// at what the frames read need, a clamp of the output to the ceiling)
    /// had to change by more than float rounding (10⁻⁶ relative) since the
    /// last reset: always 0 unless the gain computation is broken (the tests
    /// require 0). 0 for the other kinds.
    package var limiterGuardClamps: Int {
        @_noLocks get { kind == .limiter ? memory.assumingMemoryBound(to: LimiterState.self).pointee.clamps : 0 }
    }

    /// The coefficients must be computed afresh (no interpolation from old ones) at the next block.
    var fresh: Bool
    /// The effect's own transitions (an EQ type fade, the reverb's line
    /// crossfade) need their coefficients recomputed every block while they
    /// run (blocks of ``movingBlockFrames``).
    var needsTicks: Bool
    /// Absolute index of the next frame to process (since the last reset).
    var frame: Int
    /// The last frame at which input or internal signal was above −120 dBFS.
    var lastLoud: Int
    /// Whether a limiter whose ceiling and look-ahead are settled runs its
    /// block in passes (``limiterSettledBlock``), which gives the same
    /// output, bit for bit, as the frame-by-frame loop; tests turn it off
    /// to compare the two.
    package var settledLimiterPath = true
    /// Whether a delay whose parameters are settled runs its block through
    /// the lean loop (``delaySettledBlock``), which gives the same output,
    /// bit for bit, as the general one; tests turn it off to compare the two.
    package var settledDelayPath = true

    /// Frames between two recomputations of coefficients while parameters move.
    static var controlInterval: Int { @_noLocks @inline(__always) get { 16 } }
    /// The same for kinds whose blocks move every coefficient linearly frame
    /// by frame (the EQ, the reverb): the per-block set-up then runs four
    /// times a 512-frame quantum, not 32.
    static var linearBlockFrames: Int { @_noLocks @inline(__always) get { 128 } }
    /// The shortest ramp, seconds: a change asked "at once" takes this long.
    static var minimumRampSeconds: Double { @_noLocks @inline(__always) get { 0.01 } }
    /// Below this level (−120 dBFS) a signal counts as silence for ``isRinging``.
    static var silence: Float { @_noLocks @inline(__always) get { 1e-6 } }

    // MARK: - Control side

    /// Bytes of state memory an effect of `kind` needs for up to `channels`
    /// channels (1…8) at rates up to `capacityRate` Hz (control side).
    ///
    /// Pass the largest channel count the bus may get (8 covers every
    /// layout) and the engine's rate. Delay lines are sized for that rate:
    /// delay 2 s; reverb lines 83 ms, pre-delay 200 ms; limiter look-ahead
    /// 10 ms, each rounded up to a power of two of frames. Rendering at a
    /// higher rate clamps those times to what fits: a delay sized at 48 kHz
    /// (131 072 frames) holds up to 1.36 s at 96 kHz; a reverb's lines shrink
    /// as if the room were smaller.
    /// At 48 kHz: parametric EQ 0.4 KiB (2 channels) / 0.6 KiB (8);
    /// compressor 0.6 KiB; limiter 16 / 28 KiB; delay 1 / 4 MiB (one
    /// 131 072-frame line per channel); reverb 426 KiB whatever the channels.
    package static func stateBytes(kind: EffectKind, channels: Int, capacityRate: Double) -> Int {
        StateLayout(kind: kind, channels: max(1, min(channels, 8)), capacityRate: sanitizedRate(capacityRate))
            .totalBytes
    }

    /// An effect of `kind` with `parameters` (clamped to their ranges; a NaN
    /// takes the default), ready to process up to `channels` channels at
    /// `sampleRate` (control side).
    ///
    /// `memory` must hold ``stateBytes(kind:channels:capacityRate:)`` bytes
    /// for the same `kind` and `channels` with `capacityRate` equal to this
    /// `sampleRate` (the memory is laid out for it), 64-byte aligned; this
    /// zeroes it. The parameters start settled (no ramp). `kernelLevel`
    /// picks the C kernels' instruction set (`fx_kernels.h`; nil: the
    /// CPU's best); a level the CPU cannot run is lowered to its best.
    package static func make(
        kind: EffectKind, parameters: EffectParameters, channels: Int, sampleRate: Double,
        memory: UnsafeMutableRawPointer, kernelLevel: Int32? = nil
    ) -> RenderEffect {
        let rate = sanitizedRate(sampleRate)
        let capacity = max(1, min(channels, 8))
        var clean = EffectParameters.defaults(for: kind)
        for i in 0..<kind.parameterCount {
            clean[i] = kind.clamp(parameters[i], index: i, fallback: clean[i])
        }
        let layout = StateLayout(kind: kind, channels: capacity, capacityRate: rate)
        layout.bind(memory, kind: kind)
        let best = fx_best_level()
        var effect = RenderEffect(
            kind: kind, target: clean, current: clean, rampFrom: clean, rampTo: clean, rampLength: 0,
            rampPosition: 0, transitionFrames: 1, kernelLevel: min(max(kernelLevel ?? best, 0), best), sampleRate: rate, capacityRate: rate, capacityChannels: capacity,
            channels: 0, activeChannels: 0, memory: memory, layout: layout,
            isRinging: false, latencyFrames: 0, fresh: true, needsTicks: false, frame: 0, lastLoud: 0)
        effect.clearState()
        return effect
    }

    /// A usable rate: finite and within 1 kHz…1 MHz (else 48 kHz).
    static func sanitizedRate(_ rate: Double) -> Double {
        rate.isFinite && rate >= 1000 && rate <= 1_000_000 ? rate : 48000
    }

    // MARK: - Render side

    /// Moves the parameters to `parameters` over `rampFrames` frames (0: at
    /// once, which still takes the 10 ms minimum so nothing clicks). Runs on
    /// the render thread.
    ///
    /// Values are clamped to their ranges (at rates above the capacity
    /// rate, delay times further to what fits); a NaN keeps the previous
    /// target. A target equal to the current one changes nothing (a running
    /// ramp goes on). A new target mid-ramp starts a new ramp from where the
    /// parameters are.
    @_noLocks
    package mutating func setTarget(_ parameters: EffectParameters, rampFrames: Int) {
        let count = kind.parameterCount
        var clean = target
        for i in 0..<count { clean[i] = kind.clamp(parameters[i], index: i, fallback: target[i]) }
        if clean.sameValues(as: target, count: count) { return }
        target = clean
        let length = max(min(rampFrames, 1 << 40), minimumRampFrames)
        transitionFrames = length
        for i in 0..<count {
            switch kind.spec(i).domain {
            case .linear:
                rampFrom[i] = current[i]
                rampTo[i] = target[i]
            case .logarithmic:
                rampFrom[i] = fastLog2(current[i])
                rampTo[i] = fastLog2(target[i])
            case .discrete:
                current[i] = target[i]
                rampFrom[i] = target[i]
                rampTo[i] = target[i]
            }
        }
        rampLength = length
        rampPosition = 0
    }

    /// Renders at `rate` Hz from now on (e.g. the output device changed).
    /// Runs on the render thread. The state (tails, delay lines, detectors)
    /// is cleared, since it was recorded at the old rate, and a running ramp
    /// ends at its target. Times that no longer fit the memory (a rate above
    /// the capacity rate) are clamped. Ignores rates that are not finite or
    /// outside 1 kHz…1 MHz.
    @_noLocks
    package mutating func setSampleRate(_ rate: Double) {
        guard rate.isFinite && rate >= 1000 && rate <= 1_000_000, rate != sampleRate else { return }
        sampleRate = rate
        reset()
    }

    /// Clears the state (tails, delay lines, filter and detector states) and
    /// ends a running ramp at its target. Runs on the render thread; its
    /// cost is that of zeroing the state memory (a delay's lines: about
    /// 0.1 ms per MiB).
    @_noLocks
    package mutating func reset() {
        current = target
        rampFrom = target
        rampTo = target
        rampPosition = rampLength
        clearState()
    }

    /// Processes `frames` frames (≤ `stride`) of `channels` planes in place:
    /// plane k at `base + k * stride`, channels in the output's order (see
    /// ``ChannelLayout``). Runs on the render thread.
    ///
    /// `sidechain` (the compressor only; other kinds ignore it): planes of
    /// another bus in the same layout, `sidechainStride` apart, whose level
    /// drives the detector instead of the input's; nil for none.
    /// A channel count other than the last call's clears the state first.
    /// Channels beyond ``capacityChannels`` are left untouched.
    @_noLocks
    package mutating func process(
        _ base: UnsafeMutablePointer<Float>, stride: Int, channels: Int, frames: Int,
        sidechain: UnsafePointer<Float>?, sidechainStride: Int
    ) {
        guard frames > 0, channels > 0 else { return }
        if channels != self.channels {
            self.channels = channels
            activeChannels = min(channels, capacityChannels)
            clearState()
        }
        var done = 0
        while done < frames {
            let moving = rampPosition < rampLength || needsTicks || fresh
            let n = moving ? min(movingBlockFrames, frames - done) : frames - done
            let from = current
            let to = advanceParameters(n)
            var side: UnsafePointer<Float>? = nil
            if let sidechain { side = sidechain + done }
            switch kind {
            case .parametricEQ: eqBlock(from: from, to: to, base + done, stride: stride, frames: n)
            case .compressor:
                compressorBlock(
                    from: from, to: to, base + done, stride: stride, frames: n, sidechain: side,
                    sidechainStride: sidechainStride)
            case .limiter: limiterBlock(from: from, to: to, base + done, stride: stride, frames: n)
            case .delay: delayBlock(from: from, to: to, base + done, stride: stride, frames: n)
            case .reverb: reverbBlock(from: from, to: to, base + done, stride: stride, frames: n)
            }
            fresh = false
            current = to
            frame += n
            done += n
        }
        updateRinging()
    }

    // MARK: - Internals

    /// Frames in a block while parameters move (or the effect's own
    /// transitions run), after which coefficients are recomputed: the
    /// control interval (16), or ``linearBlockFrames`` for the EQ and the
    /// reverb, whose blocks move every coefficient linearly frame by frame
    /// (and the reverb crossfades its lines in its kernel).
    var movingBlockFrames: Int {
        @_noLocks get {
            kind == .reverb || kind == .parametricEQ ? RenderEffect.linearBlockFrames : RenderEffect.controlInterval
        }
    }

    /// The 10 ms minimum ramp in frames at the current rate (at least one control interval).
    var minimumRampFrames: Int {
        @_noLocks get { max(RenderEffect.controlInterval, Int(sampleRate * RenderEffect.minimumRampSeconds)) }
    }

    /// Advances the ramp by `n` frames and returns the parameters at its new position.
    @_noLocks
    mutating func advanceParameters(_ n: Int) -> EffectParameters {
        guard rampPosition < rampLength else { return current }
        rampPosition = min(rampPosition + n, rampLength)
        if rampPosition == rampLength { return target }
        let t = Float(rampPosition) / Float(rampLength)
        var next = current
        for i in 0..<kind.parameterCount {
            let a = rampFrom[i], b = rampTo[i]
            if a == b { continue }
            switch kind.spec(i).domain {
            case .linear: next[i] = a + (b - a) * t
            case .logarithmic: next[i] = fastExp2(a + (b - a) * t)
            case .discrete: next[i] = target[i]
            }
        }
        return next
    }

    /// Zeroes the state memory and sets up each kind's starting state;
    /// coefficients are computed afresh at the next block.
    @_noLocks
    mutating func clearState() {
        // Raw stores: they leave the regions bound to their types (``StateLayout/bind(_:kind:)``).
        var offset = 0
        while offset < layout.totalBytes {
            memory.storeBytes(of: 0, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        fresh = true
        needsTicks = false
        frame = 0
        lastLoud = Int.min / 2
        isRinging = false
        latencyFrames = 0
        if kind == .limiter { limiterClear() }
    }

    /// Sets ``isRinging`` (and ``latencyFrames``) after a call, flushing state
    /// that has decayed below −120 dBFS.
    @_noLocks
    mutating func updateRinging() {
        switch kind {
        case .parametricEQ: isRinging = eqCheckRinging()
        case .compressor: isRinging = false
        case .limiter:
            let header = memory.assumingMemoryBound(to: LimiterState.self)
            latencyFrames = Int(header.pointee.delay + 0.5)
            isRinging = frame - lastLoud <= Int(header.pointee.delay) + 2
        case .delay:
            let header = memory.assumingMemoryBound(to: DelayState.self)
            isRinging = frame - lastLoud <= max(header.pointee.fade.current, header.pointee.fade.next) + 1
        case .reverb: isRinging = frame - lastLoud <= reverbTailWindow
        }
    }
}

extension EffectKind {
    /// `value` clamped to parameter `index`'s range (a discrete one rounded
    /// to a whole number); a NaN gives `fallback`. Render-safe.
    @_noLocks
    func clamp(_ value: Float, index: Int, fallback: Float) -> Float {
        let s = spec(index)
        if value.isNaN { return fallback }
        var v = value < s.minimum ? s.minimum : (value > s.maximum ? s.maximum : value)
        if s.domain == .discrete { v = Float(Int(v + 0.5)) }
        return v
    }
}

/// Where each part of an effect's state lives in its memory: region 0 is
/// the kind's header struct, the others its buffers, each 64-byte aligned.
struct StateLayout: BitwiseCopyable {
    /// Bytes in all.
    var totalBytes: Int
    /// Byte offsets of the regions (unused ones 0).
    var offsets: InlineArray<8, Int>
    /// How many regions the kind uses.
    var regions: Int
    /// Frames in each of the kind's main rings (a power of two), or 0.
    var ring: Int
    /// Frames in each of the reverb's pre-delay rings (a power of two), or 0.
    var preRing: Int
    /// Frames in each of the reverb's diffuser rings (a power of two), or 0.
    var diffuserRing: Int

    /// The layout of `kind` for `channels` channels at `capacityRate` (control side).
    init(kind: EffectKind, channels: Int, capacityRate: Double) {
        var sizes: [Int] = []
        ring = 0
        preRing = 0
        diffuserRing = 0
        switch kind {
        case .parametricEQ:
            // The bands' states per channel, then the cascade kernel's coefficient table and states.
            sizes = [
                MemoryLayout<EQState>.stride, channels * EffectParameters.EQ.bandCount * 2 * 4,
                EffectParameters.EQ.bandCount * Int(FX_SVF_COEFFICIENTS + FX_SVF_STATES) * 4,
            ]
        case .compressor:
            // The passes' scratch: a chunk of the curve, then the two
            // detector stages for the C smoothing.
            sizes = [MemoryLayout<CompressorState>.stride, (RenderEffect.compressorChunk + 16) * 4]
        case .limiter:
            ring = StateLayout.powerOfTwo(atLeast: StateLayout.ceiling(capacityRate * 0.010) + 8)
            sizes = [
                MemoryLayout<LimiterState>.stride, channels * ring * 4, ring * 4, ring * 4, ring * 4, ring * 4, ring * 8,
            ]
        case .delay:
            ring = StateLayout.powerOfTwo(atLeast: StateLayout.ceiling(capacityRate * 2.0) + 2)
            sizes = [MemoryLayout<DelayState>.stride, channels * ring * 4]
        case .reverb:
            ring = StateLayout.powerOfTwo(
                atLeast: StateLayout.ceiling(capacityRate * Double(ReverbDesign.longestLineSeconds)) + 4)
            preRing = StateLayout.powerOfTwo(atLeast: StateLayout.ceiling(capacityRate * 0.2) + 4)
            diffuserRing = StateLayout.powerOfTwo(
                atLeast: StateLayout.ceiling(capacityRate * Double(ReverbDesign.longestDiffuserSeconds)) + 4)
            let block = ReverbDesign.blockFrames
            sizes = [
                MemoryLayout<ReverbState>.stride, ReverbDesign.lines * ring * 4, 2 * preRing * 4,
                ReverbDesign.diffusers * 2 * diffuserRing * 4,
                // The block path's scratch: the mixed outputs frame by frame,
                // the network kernel's parameters and the two diffused
                // inputs; the C kernels' tables: the lines' lengths, the
                // diffusers' delays, the output rows, the lines' incoming
                // lengths and the crossfade's position and length (Int32), the input
                // weights and the diffusers' gains (Float).
                block * ReverbDesign.lines * 4, (Int(FX_REVERB_PARAMETER_FLOATS) + 2 * block) * 4,
                (3 * ReverbDesign.lines + 18) * 4, 24 * 4,
            ]
        }
        regions = sizes.count
        var offsets = InlineArray<8, Int>(repeating: 0)
        var total = 0
        for (i, size) in sizes.enumerated() {
            offsets[i] = total
            total += (size + 63) & ~63
        }
        self.offsets = offsets
        totalBytes = total
    }

    /// Binds each region of `memory` to the type the render side reads it
    /// as (the header struct, Floats, the limiter's deque positions as
    /// Ints), after zeroing it all (control side).
    func bind(_ memory: UnsafeMutableRawPointer, kind: EffectKind) {
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: totalBytes)
        func floats(_ region: Int, _ end: Int) {
            (memory + offsets[region]).bindMemory(to: Float.self, capacity: (end - offsets[region]) / 4)
        }
        let end = { (region: Int) in region + 1 < self.regions ? self.offsets[region + 1] : self.totalBytes }
        switch kind {
        case .parametricEQ:
            memory.bindMemory(to: EQState.self, capacity: 1)
            floats(1, end(1))
            floats(2, end(2))
        case .compressor:
            memory.bindMemory(to: CompressorState.self, capacity: 1)
            floats(1, end(1))
        case .limiter:
            memory.bindMemory(to: LimiterState.self, capacity: 1)
            for region in 1...5 { floats(region, end(region)) }
            (memory + offsets[6]).bindMemory(to: Int.self, capacity: (totalBytes - offsets[6]) / 8)
        case .delay:
            memory.bindMemory(to: DelayState.self, capacity: 1)
            floats(1, end(1))
        case .reverb:
            memory.bindMemory(to: ReverbState.self, capacity: 1)
            for region in 1...5 { floats(region, end(region)) }
            (memory + offsets[6]).bindMemory(to: Int32.self, capacity: ReverbDesign.lines + 16)
            floats(7, end(7))
        }
    }

    /// The smallest whole number ≥ `x` (≥ 0; no libm).
    static func ceiling(_ x: Double) -> Int {
        let i = Int(x)
        return Double(i) < x ? i + 1 : i
    }

    /// The smallest power of two ≥ `n` (control side).
    static func powerOfTwo(atLeast n: Int) -> Int {
        var p = 1
        while p < n { p <<= 1 }
        return p
    }
}
