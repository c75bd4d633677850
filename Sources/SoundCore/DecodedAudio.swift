/// A whole sound decoded into memory: interleaved float32 frames.
///
/// The value a decoder returns and the mixer copies into its own real-time
/// layout (planar, with guard samples) when a sound is loaded.
///
/// Any values can be stored; loading checks them against the ranges below
/// and refuses a sound outside them with `invalidParameter` naming the
/// field, so a bad value never traps the caller nor reaches the mixer.
public struct DecodedAudio: Sendable {
    /// Frames per second of `samples`: 1000…768000 to be loaded.
    public var sampleRate: Int
    /// Interleaved channels per frame: 1…1024 to be loaded (more than two
    /// are mixed down to stereo at load).
    public var channelCount: Int
    /// `frameCount * channelCount` samples, interleaved; finite to be
    /// loaded (NaN or an infinity would poison the mix).
    public var samples: [Float]

    /// The channels a loadable sound may have (libsndfile's own limit).
    package static let channelCountRange = 1...1024

    /// Wraps decoded samples. `samples.count` should be a multiple of
    /// `channelCount`; loading refuses it otherwise (nothing traps here).
    public init(sampleRate: Int, channelCount: Int, samples: [Float]) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.samples = samples
    }

    /// Number of whole frames (0 for a channel count below 1).
    public var frameCount: Int { channelCount > 0 ? samples.count / channelCount : 0 }

    /// Duration in seconds (0 for a rate below 1).
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / Double(sampleRate) : 0 }

    /// Why this sound cannot be loaded, naming the field (`channelCount`,
    /// `samples`), or `nil` when its channels and samples can be: the
    /// mixer checks this (and the rate and length) before it copies anything.
    package var problem: String? {
        guard Self.channelCountRange.contains(channelCount) else {
            return "channelCount = \(channelCount): must be \(Self.channelCountRange.lowerBound)…"
                + "\(Self.channelCountRange.upperBound)"
        }
        guard samples.count % channelCount == 0 else {
            return "samples.count = \(samples.count): must be a whole number of frames of \(channelCount) channels"
        }
        if let bad = samples.firstIndex(where: { !$0.isFinite }) {
            return "samples[\(bad)] = \(samples[bad]): every sample must be finite"
        }
        return nil
    }
}
