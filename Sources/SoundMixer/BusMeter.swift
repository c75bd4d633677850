/// Level of a bus after its gain, measured over the last completed metering
/// window (``MixerConfiguration/meterWindowFrames``), both channels together.
public struct BusMeter: Sendable, Hashable {
    /// Largest absolute sample (1 = full scale).
    public var peak: Float
    /// Root mean square over all samples of both channels.
    public var rms: Float

    /// Creates a reading.
    public init(peak: Float, rms: Float) {
        self.peak = peak
        self.rms = rms
    }

    /// Silence.
    public static let silent = BusMeter(peak: 0, rms: 0)
}
