/// A whole sound decoded into memory: interleaved float32 frames.
///
/// The value a decoder returns and the mixer copies into its own real-time
/// layout (planar, with guard samples) when a sound is loaded.
public struct DecodedAudio: Sendable {
    /// Frames per second of `samples`.
    public var sampleRate: Int
    /// Interleaved channels per frame.
    public var channelCount: Int
    /// `frameCount * channelCount` samples, interleaved.
    public var samples: [Float]

    /// Wraps decoded samples. `samples.count` must be a multiple of `channelCount`.
    public init(sampleRate: Int, channelCount: Int, samples: [Float]) {
        precondition(channelCount > 0, "DecodedAudio needs at least one channel")
        precondition(samples.count % channelCount == 0, "DecodedAudio samples must be whole frames")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.samples = samples
    }

    /// Number of frames.
    public var frameCount: Int { samples.count / channelCount }

    /// Duration in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }
}
