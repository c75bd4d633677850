/// The shape of decodable audio: what a decoder knows before it reads.
package struct SourceFormat: Sendable, Hashable, Codable {
    /// Frames per second of the source.
    package var sampleRate: Int
    /// Interleaved channels per frame.
    package var channelCount: Int
    /// Total frames, or `nil` when the container does not say.
    package var frameCount: Int?

    /// Describes a source.
    package init(sampleRate: Int, channelCount: Int, frameCount: Int?) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.frameCount = frameCount
    }
}

/// A pull source of interleaved float32 frames: a sound file being decoded, a
/// generator, a network stream.
///
/// Threading: a source is used by one thread at a time, never the render
/// thread. The streaming thread of the mixer reads long sounds through this
/// protocol; the decoder in `SoundDecoding` implements it with libsndfile.
package protocol AudioFrameSource: AnyObject {
    /// Rate, channels and length of the audio this source produces.
    var format: SourceFormat { get }

    /// Reads up to `frames` interleaved frames into `buffer` (room for
    /// `frames * format.channelCount` floats) and returns how many frames were
    /// written; fewer than asked means the end was reached.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(SoundEngineError) -> Int

    /// Moves the read position to `frame` (0 = start).
    func seek(toFrame frame: Int) throws(SoundEngineError)
}
