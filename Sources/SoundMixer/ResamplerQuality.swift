/// How a voice interpolates between source samples when its playback rate is
/// not exactly one source frame per output frame.
public enum ResamplerQuality: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Two-point linear interpolation: the cheapest, and the default.
    case linear = 0
    /// Four-point cubic (Catmull-Rom): less high-frequency loss, ~2× the cost.
    case cubic = 1
    /// 16-tap Kaiser-windowed sinc (cutoff 0.85 × the source Nyquist):
    /// the best, ~8× the cost of linear. No extra low-pass when pitching up,
    /// so pitches above 1 alias as with the others.
    case sinc = 2

    /// The quality's name: "linear", "cubic" or "sinc".
    public var description: String {
        switch self {
        case .linear: "linear"
        case .cubic: "cubic"
        case .sinc: "sinc"
        }
    }
}
