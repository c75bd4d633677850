import CMixKernels

// The parametric EQ: six bands of Simper's trapezoidal (TPT) state-variable
// filter. Each band's response equals the RBJ cookbook biquad of its type
// (both are the bilinear transform of the same analog prototype with the
// same pre-warping), but the SVF stays stable and quiet while its
// coefficients move, which the direct-form biquad does not.

/// The coefficients of one state-variable filter band: the pre-warped
/// frequency `g` = tan(π·f/fs), damping `k`, and the output mix
/// y = m0·x + m1·band + m2·low (Simper, "Linear trapezoidal integrated SVF").
struct SVFCoefficients: BitwiseCopyable {
    /// Pre-warped frequency, tan(π·f/fs) (shelves: divided or multiplied by √A).
    var g: Float
    /// Damping, 1/Q (peak: 1/(Q·A)).
    var k: Float
    /// Weight of the input in the output.
    var m0: Float
    /// Weight of the band-pass state in the output.
    var m1: Float
    /// Weight of the low-pass state in the output.
    var m2: Float

    /// Whether the band passes its input unchanged (y = x whatever the state). Render-safe.
    var isFlat: Bool { @_noLocks get { m0 == 1 && m1 == 0 && m2 == 0 } }

    /// Whether two sets are bit-for-bit the same. Render-safe.
    @_noLocks @inline(__always)
    func same(as other: SVFCoefficients) -> Bool {
        g.bitPattern == other.g.bitPattern && k.bitPattern == other.k.bitPattern
            && m0.bitPattern == other.m0.bitPattern && m1.bitPattern == other.m1.bitPattern
            && m2.bitPattern == other.m2.bitPattern
    }

    /// The coefficients of a `type` band at `frequency` Hz (clamped to
    /// 0.49·`rate`), `gain` dB and `q`, at `rate` Hz. Runs on the render thread.
    ///
    /// Formulas (A = 10^(gain/40)): low-pass m = (0, 0, 1); high-pass
    /// (1, −k, −1); band-pass (0, k, 0); notch (1, −k, 0); peak k = 1/(Q·A),
    /// m = (1, k(A² − 1), 0); low shelf g = tan/√A, m = (1, k(A − 1), A² − 1);
    /// high shelf g = tan·√A, m = (A², k(1 − A)A, 1 − A²); off m = (1, 0, 0).
    @_noLocks
    static func band(_ type: EQBandType, frequency: Float, gain: Float, q: Float, rate: Float) -> SVFCoefficients {
        var r = frequency / rate
        if !(r <= 0.49) { r = 0.49 }
        let g = fastTanPi(r)
        let k = 1 / q
        switch type {
        case .off: return SVFCoefficients(g: g, k: k, m0: 1, m1: 0, m2: 0)
        case .lowPass: return SVFCoefficients(g: g, k: k, m0: 0, m1: 0, m2: 1)
        case .highPass: return SVFCoefficients(g: g, k: k, m0: 1, m1: -k, m2: -1)
        case .bandPass: return SVFCoefficients(g: g, k: k, m0: 0, m1: k, m2: 0)
        case .notch: return SVFCoefficients(g: g, k: k, m0: 1, m1: -k, m2: 0)
        case .peak:
            let a = fastExp2(gain * (decibelsToLog2 * 0.5))
            let kk = 1 / (q * a)
            return SVFCoefficients(g: g, k: kk, m0: 1, m1: kk * (a * a - 1), m2: 0)
        case .lowShelf:
            let a = fastExp2(gain * (decibelsToLog2 * 0.5))
            let rootA = fastExp2(gain * (decibelsToLog2 * 0.25))
            return SVFCoefficients(g: g / rootA, k: k, m0: 1, m1: k * (a - 1), m2: a * a - 1)
        case .highShelf:
            let a = fastExp2(gain * (decibelsToLog2 * 0.5))
            let rootA = fastExp2(gain * (decibelsToLog2 * 0.25))
            return SVFCoefficients(g: g * rootA, k: k, m0: a * a, m1: k * (1 - a) * a, m2: 1 - a * a)
        }
    }

    /// `a` moving toward `b` by `t` (0…1): g geometrically, k and the mix
    /// linearly. Every point is a stable filter (g, k > 0), so an EQ band
    /// changing type sweeps continuously from one response to the other.
    /// An `.off` side takes the other side's g and k. Runs on the render thread.
    @_noLocks
    static func blend(
        _ a: SVFCoefficients, _ aOff: Bool, _ b: SVFCoefficients, _ bOff: Bool, _ t: Float
    ) -> SVFCoefficients {
        var from = a, to = b
        if aOff {
            from.g = b.g
            from.k = b.k
        }
        if bOff {
            to.g = from.g
            to.k = from.k
        }
        let lg = fastLog2(from.g)
        return SVFCoefficients(
            g: fastExp2(lg + (fastLog2(to.g) - lg) * t), k: from.k + (to.k - from.k) * t,
            m0: from.m0 + (to.m0 - from.m0) * t, m1: from.m1 + (to.m1 - from.m1) * t,
            m2: from.m2 + (to.m2 - from.m2) * t)
    }
}

/// One EQ band's render state (the per-channel filter states live in the
/// state memory after the header).
struct EQBandState: BitwiseCopyable {
    /// The coefficients the last processed frame used.
    var now: SVFCoefficients
    /// The type `now` belongs to; the source of a type crossfade.
    var type: EQBandType
    /// The destination of a type crossfade.
    var nextType: EQBandType
    /// A type crossfade is under way.
    var fading: Bool
    /// Progress of the type crossfade, 0…1.
    var fade: Float
    /// Added to `fade` per frame.
    var fadeStep: Float
    /// The band's filter states are live (a flat band is skipped and its states zeroed).
    var running: Bool
}

/// The parametric EQ's header in the state memory.
struct EQState: BitwiseCopyable {
    /// The six bands.
    var bands: InlineArray<6, EQBandState>
    /// The output gain (linear) the last processed frame used.
    var outputGain: Float
}

extension RenderEffect {
    /// The shortest crossfade of an EQ band's type, seconds. A type change
    /// turns the band's phase at a given frequency by up to half a turn;
    /// spread over 40 ms that is at most a 2.5 % pitch wobble at 440 Hz
    /// (over the 10 ms minimum ramp it would be 10 %).
    static var typeFadeSeconds: Double { @_noLocks @inline(__always) get { 0.04 } }

    /// Filter states of `band`, channel `channel`: two floats (Simper's ic1eq, ic2eq).
    @_noLocks @inline(__always)
    func eqStates(band: Int, channel: Int) -> UnsafeMutablePointer<Float> {
        (memory + layout.offsets[1]).assumingMemoryBound(to: Float.self) + (band * capacityChannels + channel) * 2
    }

    /// Runs the EQ over `frames` frames whose parameters move from `from`
    /// to `to`. Runs on the render thread.
    @_noLocks
    mutating func eqBlock(from: EffectParameters, to: EffectParameters, _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int) {
        let header = memory.assumingMemoryBound(to: EQState.self)
        let rate = Float(sampleRate)
        var anyFading = false
        // Settled bands wait here and are run as one cascade over the block,
        // in band order; flat bands between them are
        // skipped (the identity) and moving ones flush the wait first.
        var settled = InlineArray<6, Int>(repeating: -1)
        var settledCoefficients = InlineArray<6, SVFCoefficients>(
            repeating: SVFCoefficients(g: 0, k: 1, m0: 1, m1: 0, m2: 0))
        var settledBands = 0
        for b in 0..<EffectParameters.EQ.bandCount {
            var band = header.pointee.bands[b]
            let p = to.eqBand(b)
            if fresh {
                band.type = p.type
                band.fading = false
                band.now = SVFCoefficients.band(p.type, frequency: p.frequency, gain: p.gain, q: p.q, rate: rate)
            } else if !band.fading && band.type != p.type {
                band.fading = true
                band.nextType = p.type
                band.fade = 0
                band.fadeStep = 1 / Float(max(transitionFrames, Int(sampleRate * RenderEffect.typeFadeSeconds)))
            }
            var next = SVFCoefficients.band(band.type, frequency: p.frequency, gain: p.gain, q: p.q, rate: rate)
            if band.fading {
                band.fade += band.fadeStep * Float(n)
                if band.fade >= 1 {
                    band.fading = false
                    band.type = band.nextType
                    next = SVFCoefficients.band(band.type, frequency: p.frequency, gain: p.gain, q: p.q, rate: rate)
                } else {
                    let other = SVFCoefficients.band(
                        band.nextType, frequency: p.frequency, gain: p.gain, q: p.q, rate: rate)
                    next = SVFCoefficients.blend(next, band.type == .off, other, band.nextType == .off, band.fade)
                    anyFading = true
                }
            }
            let start = band.now
            if start.isFlat && next.isFlat {
                if band.running {
                    for c in 0..<activeChannels {
                        let s = eqStates(band: b, channel: c)
                        s[0] = 0
                        s[1] = 0
                    }
                    band.running = false
                }
            } else {
                band.running = true
                if start.same(as: next) {
                    // Settled: filtered below, fused with the other settled bands.
                    settled[settledBands] = b
                    settledCoefficients[settledBands] = next
                    settledBands += 1
                } else {
                    eqFlush(&settledBands, settled, settledCoefficients, base, stride: stride, frames: n)
                    for c in 0..<activeChannels {
                        RenderEffect.svf(base + c * stride, n, eqStates(band: b, channel: c), start, next)
                    }
                }
            }
            band.now = next
            header.pointee.bands[b] = band
        }
        eqFlush(&settledBands, settled, settledCoefficients, base, stride: stride, frames: n)
        let gainFrom = fresh ? fastDecibelsToGain(from[0]) : header.pointee.outputGain
        let gainTo = fastDecibelsToGain(to[0])
        header.pointee.outputGain = gainTo
        if gainFrom != 1 || gainTo != 1 {
            let step = (gainTo - gainFrom) / Float(n)
            for c in 0..<activeChannels {
                let x = base + c * stride
                for j in 0..<n { x[j] *= gainFrom + step * Float(j + 1) }
            }
        }
        needsTicks = anyFading
    }

    /// Runs the `count` settled bands waiting in `bands` as one cascade over
    /// every channel pair (`fx_svf_cascade`: every band and both channels
    /// side by side in the lanes of one vector, band b a frame behind band
    /// b − 1, fused multiply-adds where the CPU has them), then empties the
    /// wait. Runs on the render thread.
    @_noLocks
    func eqFlush(
        _ count: inout Int, _ bands: InlineArray<6, Int>, _ coefficients: InlineArray<6, SVFCoefficients>,
        _ base: UnsafeMutablePointer<Float>, stride: Int, frames n: Int
    ) {
        guard count > 0 else { return }
        let perBand = Int(FX_SVF_COEFFICIENTS), statesPerBand = Int(FX_SVF_STATES)
        let table = (memory + layout.offsets[2]).assumingMemoryBound(to: Float.self)
        let states = table + EffectParameters.EQ.bandCount * perBand
        for k in 0..<count {
            let c = coefficients[k]
            let a1 = 1 / (1 + c.g * (c.g + c.k)), a2 = c.g * a1, a3 = c.g * a2
            let row = table + k * perBand
            row[0] = a1
            row[1] = a2
            row[2] = a3
            row[3] = c.m0
            row[4] = c.m1
            row[5] = c.m2
        }
        var c = 0
        while c < activeChannels {
            let pair = c + 1 < activeChannels
            for k in 0..<count {
                let s0 = eqStates(band: bands[k], channel: c)
                let s = states + k * statesPerBand
                s[0] = s0[0]
                s[2] = s0[1]
                if pair {
                    let s1 = eqStates(band: bands[k], channel: c + 1)
                    s[1] = s1[0]
                    s[3] = s1[1]
                } else {
                    s[1] = 0
                    s[3] = 0
                }
            }
            let level = kernelLevel, frames = Int32(truncatingIfNeeded: n), bandCount = Int32(truncatingIfNeeded: count)
            let left = base + c * stride, right = pair ? base + (c + 1) * stride : nil
            // Swift's performance checker cannot see into C: the kernel is
            // `nonblocking`, proven by clang (fx_kernels.c).
            _unsafePerformance { fx_svf_cascade(level, left, right, frames, table, states, bandCount) }
            for k in 0..<count {
                let s0 = eqStates(band: bands[k], channel: c)
                let s = states + k * statesPerBand
                s0[0] = s[0]
                s0[1] = s[2]
                if pair {
                    let s1 = eqStates(band: bands[k], channel: c + 1)
                    s1[0] = s[1]
                    s1[1] = s[3]
                }
            }
            c += 2
        }
        count = 0
    }

    /// Filters `n` samples at `x` in place through one SVF band whose
    /// coefficients move linearly from `c0` to `c1` over the block (reaching
    /// `c1` at the last sample), with states `state[0...1]`. Runs on the
    /// render thread.
    @_noLocks
    static func svf(
        _ x: UnsafeMutablePointer<Float>, _ n: Int, _ state: UnsafeMutablePointer<Float>, _ c0: SVFCoefficients,
        _ c1: SVFCoefficients
    ) {
        var ic1 = state[0], ic2 = state[1]
        if c0.same(as: c1) {
            let g = c1.g, k = c1.k
            let a1 = 1 / (1 + g * (g + k)), a2 = g * a1, a3 = g * a2
            let m0 = c1.m0, m1 = c1.m1, m2 = c1.m2
            for j in 0..<n {
                let v0 = x[j]
                let v3 = v0 - ic2
                let v1 = a1 * ic1 + a2 * v3
                let v2 = ic2 + a2 * ic1 + a3 * v3
                ic1 = 2 * v1 - ic1
                ic2 = 2 * v2 - ic2
                x[j] = m0 * v0 + m1 * v1 + m2 * v2
            }
        } else {
            let inv = 1 / Float(n)
            let dg = (c1.g - c0.g) * inv, dk = (c1.k - c0.k) * inv
            let d0 = (c1.m0 - c0.m0) * inv, d1 = (c1.m1 - c0.m1) * inv, d2 = (c1.m2 - c0.m2) * inv
            for j in 0..<n {
                let l = Float(j + 1)
                let g = c0.g + dg * l, k = c0.k + dk * l
                let a1 = 1 / (1 + g * (g + k)), a2 = g * a1, a3 = g * a2
                let v0 = x[j]
                let v3 = v0 - ic2
                let v1 = a1 * ic1 + a2 * v3
                let v2 = ic2 + a2 * ic1 + a3 * v3
                ic1 = 2 * v1 - ic1
                ic2 = 2 * v2 - ic2
                x[j] = (c0.m0 + d0 * l) * v0 + (c0.m1 + d1 * l) * v1 + (c0.m2 + d2 * l) * v2
            }
        }
        state[0] = ic1
        state[1] = ic2
    }

    /// Whether a band's filter still holds signal above −120 dBFS; states
    /// below that are zeroed (so a silent bus cannot decay into subnormals)
    /// and the band stops running until it is fed again. Runs on the render thread.
    @_noLocks
    mutating func eqCheckRinging() -> Bool {
        let header = memory.assumingMemoryBound(to: EQState.self)
        var ringing = false
        for b in 0..<EffectParameters.EQ.bandCount where header.pointee.bands[b].running {
            var loudest: Float = 0
            for c in 0..<activeChannels {
                let s = eqStates(band: b, channel: c)
                loudest = max(loudest, max(abs(s[0]), abs(s[1])))
            }
            if loudest < RenderEffect.silence {
                for c in 0..<activeChannels {
                    let s = eqStates(band: b, channel: c)
                    s[0] = 0
                    s[1] = 0
                }
            } else {
                ringing = true
            }
        }
        return ringing
    }
}
