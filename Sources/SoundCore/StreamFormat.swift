/// The format of the interleaved audio a render call must produce.
///
/// Chosen by the engine, granted (possibly changed) by the backend.
public struct StreamFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame (1 = mono, 2 = stereo L,R, …).
    public var channelCount: Int
    /// How each sample is encoded.
    public var sampleFormat: SampleFormat

    /// Creates a format; no validation here (the engine validates settings once, at the façade).
    package init(sampleRate: Int, channelCount: Int, sampleFormat: SampleFormat) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleFormat = sampleFormat
    }

    /// Bytes one interleaved frame takes (`Int.max` for a channel count so
    /// large the product overflows: never a trap).
    package var bytesPerFrame: Int {
        let (bytes, overflow) = channelCount.multipliedReportingOverflow(by: sampleFormat.bytesPerSample)
        return overflow ? .max : bytes
    }

    public var description: String { "\(sampleFormat) \(channelCount)ch \(sampleRate) Hz" }
}
