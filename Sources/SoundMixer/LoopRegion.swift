/// The frames of a sound that repeat when a voice loops it.
///
/// Fixed when the sound is loaded: the mixer bakes the samples that follow
/// the loop end (copies of the loop start) into the sound's memory so the
/// resampling loop never tests for the loop end (docs/mixer.md, "Voices").
public struct LoopRegion: Hashable, Sendable, CustomStringConvertible {
    /// First frame of the loop.
    public var start: Int
    /// One past the last frame of the loop; `nil` means the end of the sound.
    public var end: Int?

    /// A loop from `start` up to (not including) `end`; `end == nil` is the
    /// end of the sound. An inner region (not the whole sound) must be at
    /// least 64 frames long and costs a second copy of its frames.
    public init(start: Int, end: Int?) {
        self.start = start
        self.end = end
    }

    /// The whole sound repeats: the default.
    public static let whole = LoopRegion(start: 0, end: nil)

    /// `start..<end`, for logs.
    public var description: String { "\(start)..<\(end.map(String.init) ?? "end")" }
}
