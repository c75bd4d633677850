import Foundation

/// The per-voice low-pass filter's control side: cutoff → coefficient.
///
/// The filter (`mk_lowpass`) is two cascaded one-pole stages per channel,
/// `s = (1 − p)·x + p·s`, a 2-pole low-pass with a real double pole
/// (−12 dB per octave, no overshoot). Each stage is tuned to
/// `fc / √(√2 − 1)` so that the pair is −3 dB at the cutoff `fc` (exactly so
/// for the analog prototype; within a fraction of a dB below fs/4). The
/// coefficient is computed here, on the control side, so the render thread
/// does no transcendental math; `p = 0` is transparent, which is what
/// "no filter" ramps to.
enum LowPass {
    /// Cutoffs a caller may ask for, in Hz.
    static let cutoffRange: ClosedRange<Float> = 10...24_000

    /// `p = exp(−2π · fc / √(√2 − 1) / sampleRate)`.
    static func coefficient(cutoffHz: Float, sampleRate: Int) -> Float {
        let stage = Double(cutoffHz) / (2.0.squareRoot() - 1).squareRoot()
        return Float(exp(-2 * Double.pi * stage / Double(sampleRate)))
    }

    /// The filter's magnitude response at `frequency` for coefficient `p`:
    /// `((1 − p) / |1 − p·e^(−jω)|)²`, `ω = 2π · frequency / sampleRate`.
    static func magnitude(coefficient p: Float, frequency: Double, sampleRate: Int) -> Double {
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        let q = Double(p)
        let denominator = 1 - 2 * q * cos(w) + q * q
        return (1 - q) * (1 - q) / denominator
    }
}
