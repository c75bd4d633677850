// Pure-Swift approximations of the few transcendental functions the render
// path needs. libm is not annotated for Swift's performance checker, so a
// `@_noLocks` function may not call it; these are plain arithmetic on
// Float bits and polynomials (minimax fits, coefficients found offline).
//
// Each function states its domain and accuracy; `FastMathTests` checks
// every claim against Foundation (in Double) over a dense grid of its
// domain. None of them reads memory or branches on data beyond clamping.

/// log2(10) / 20: multiplies decibels into a base-2 exponent.
var decibelsToLog2: Float { @_noLocks @inline(__always) get { 0.166_096_404_744_368_12 } }

/// 20 / log2(10) = 20·log10(2): multiplies a base-2 logarithm into decibels.
var log2ToDecibels: Float { @_noLocks @inline(__always) get { 6.020_599_913_279_624 } }

/// 2^x.
///
/// Domain: any Float. x is clamped to −126…127.99 (NaN counts as −126),
/// so the result is a normal float, never 0, subnormal or infinite.
/// Accuracy: relative error ≤ 2·10⁻⁷ (under 2 float ulps). Exact for
/// integer x (so `fastExp2(0) == 1`). Runs on the render thread.
@_noLocks @inline(__always)
package func fastExp2(_ x: Float) -> Float {
    var c = x
    if !(c >= -126) { c = -126 }
    if c > 127.99 { c = 127.99 }
    var i = Int32(c)  // toward zero
    if Float(i) > c { i -= 1 }  // floor for negative non-integers
    let f = c - Float(i)  // 0 ≤ f < 1
    // 2^f = 1 + f·q(f), minimax for relative error on [0, 1) (8.4e-8).
    let q: Float = 0.693_151_306_721_616
        + f * (0.240_164_520_420_900_4
            + f * (0.055_799_641_554_199_79 + f * (0.009_017_421_057_916_73 + f * 0.001_866_943_061_073_33)))
    let scale = Float(bitPattern: UInt32(truncatingIfNeeded: i + 127) &<< 23)
    return (1 + f * q) * scale
}

/// log2(x).
///
/// Domain: x > 0. Values below the smallest normal float (1.18·10⁻³⁸),
/// including 0, negatives and NaN, give −126; +∞ gives 128.
/// Accuracy: absolute error ≤ 1.5·10⁻⁷ plus half a float ulp of the
/// result (so ≤ 2.5·10⁻⁷ while |log2 x| < 2, ≤ 4·10⁻⁶ near the ends of
/// the float range); exact 0 at x = 1. Runs on the render thread.
@_noLocks @inline(__always)
package func fastLog2(_ x: Float) -> Float {
    if !(x >= 1.175_494_4e-38) { return -126 }
    if x > 3.402_823_4e38 { return 128 }
    let bits = x.bitPattern
    var e = Int32(truncatingIfNeeded: (bits &>> 23) & 0xFF) - 127
    var m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)  // 1 ≤ m < 2
    if m > 1.414_213_5 {
        m *= 0.5
        e += 1
    }
    // log2(m) = log2((1 + t)/(1 − t)) with t = (m − 1)/(m + 1), |t| ≤ 0.1716;
    // odd minimax polynomial in t (3.0e-8).
    let t = (m - 1) / (m + 1)
    let t2 = t * t
    return Float(e) + t * (2.885_391_285_813_485_6 + t2 * (0.961_471_412_131_488_5 + t2 * 0.598_954_407_629_234_9))
}

/// sin(π·r).
///
/// Domain: −0.5 ≤ r ≤ 0.5 (r is clamped to it). Accuracy: relative error
/// ≤ 2.5·10⁻⁷ (the polynomial alone: 5.4·10⁻⁹; the rest is Float
/// rounding); odd, so sin(−πr) = −sin(πr) exactly. Runs on the render thread.
@_noLocks @inline(__always)
package func fastSinPi(_ r: Float) -> Float {
    var x = r
    if !(x >= -0.5) { x = -0.5 }
    if x > 0.5 { x = 0.5 }
    let x2 = x * x
    return x
        * (3.141_592_636_939_918_7
            + x2 * (-5.167_709_690_915_049 + x2 * (2.550_069_858_098_473_8
                + x2 * (-0.598_243_031_788_882_2 + x2 * 0.077_562_322_232_651_97))))
}

/// tan(π·r), the bilinear transform's pre-warping (`g = tan(π·f/fs)`).
///
/// Domain: 0 ≤ r ≤ 0.4999 (r is clamped to it; callers keep f ≤ 0.49·fs).
/// Computed as sin(π·r) / sin(π·(½ − r)), so it keeps its relative
/// accuracy near π/2 where tan grows. Accuracy: relative error ≤ 5·10⁻⁷
/// (for the Float r given). Runs on the render thread.
@_noLocks @inline(__always)
package func fastTanPi(_ r: Float) -> Float {
    var x = r
    if !(x >= 0) { x = 0 }
    if x > 0.4999 { x = 0.4999 }
    return fastSinPi(x) / fastSinPi(0.5 - x)
}

/// tan(x) for 0 ≤ x < π/2: ``fastTanPi(_:)`` of x/π (x is clamped to
/// 0…0.4999·π). Accuracy: relative error ≤ 4·10⁻⁶ for x ≤ 0.49·π; the
/// rounding of x/π to Float dominates near π/2 (its error grows as
/// 1/(π/2 − x)), which is why the EQ calls ``fastTanPi(_:)`` with f/fs
/// directly. Runs on the render thread.
@_noLocks @inline(__always)
package func fastTan(_ x: Float) -> Float {
    fastTanPi(x * 0.318_309_886_183_790_7)
}

/// The linear gain of `decibels` dB, 10^(dB/20).
///
/// Domain: any Float; results are clamped as in ``fastExp2(_:)`` (below
/// about −758 dB it returns 1.2·10⁻³⁸). Accuracy: relative error ≤ 9·10⁻⁷
/// (8·10⁻⁶ dB) within ±120 dB, ≤ 2·10⁻⁶ within ±300 dB (the rounding of
/// dB·log2(10)/20 grows with |dB|). Runs on the render thread.
@_noLocks @inline(__always)
package func fastDecibelsToGain(_ decibels: Float) -> Float {
    fastExp2(decibels * decibelsToLog2)
}

/// The level in dB of linear gain (or amplitude) `gain`, 20·log10(gain).
///
/// Domain: gain > 0; gains below 1.2·10⁻³⁸ (and 0, negatives, NaN) give
/// −758.6 dB. Accuracy: absolute error ≤ 1.2·10⁻⁵ dB for gains
/// 10⁻⁶…10⁶ (±120 dB), ≤ 3.5·10⁻⁵ dB over the float range — mostly the
/// Float rounding of the result itself. Runs on the render thread.
@_noLocks @inline(__always)
package func fastGainToDecibels(_ gain: Float) -> Float {
    fastLog2(gain) * log2ToDecibels
}

/// `x`, or 0 when |x| < 10⁻¹⁵ (−300 dB). Feedback loops call it on what
/// they store, so a decaying tail reaches exactly 0 instead of the
/// subnormal range, without relying on the mixer's flush-to-zero mode, and
/// (unlike the (x + c) − c rounding trick) without sustaining a limit cycle
/// of rounding noise. Runs on the render thread.
@_noLocks @inline(__always)
func flushTiny(_ x: Float) -> Float {
    abs(x) < 1e-15 ? 0 : x
}
