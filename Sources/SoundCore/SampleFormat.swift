/// The sample encoding of an output stream, as granted by the sound server.
///
/// SoundEngine mixes in 32-bit float; the last step of a render converts to
/// this format.
public enum SampleFormat: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// 32-bit IEEE float, native endian (`PA_SAMPLE_FLOAT32NE`).
    case float32
    /// 16-bit signed integer, native endian (`PA_SAMPLE_S16NE`).
    case int16

    /// Bytes one sample of one channel takes.
    public var bytesPerSample: Int {
        switch self {
        case .float32: 4
        case .int16: 2
        }
    }

    public var description: String { rawValue }
}
