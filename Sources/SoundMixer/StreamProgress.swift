/// A snapshot of a streamed voice's decoding, from ``Mixer/streamProgress(_:)``.
package struct StreamProgress: Sendable, Hashable {
    /// Source frames decoded so far (for a looping stream, across laps).
    package var decodedFrames: Int
    /// The source ended (a stream that does not loop) and its end is queued for the render thread.
    package var reachedEnd: Bool
    /// The ring was pre-filled and the voice may play (it stays `true` afterwards).
    package var ready: Bool

    /// Creates a snapshot.
    package init(decodedFrames: Int, reachedEnd: Bool, ready: Bool) {
        self.decodedFrames = decodedFrames
        self.reachedEnd = reachedEnd
        self.ready = ready
    }
}
