/// What the backend does on the server for the session: the part of a
/// ``SessionAction`` that is the sound server's, and nothing the engine does
/// itself (pausing, resuming, fading buses). The backend contract takes only
/// these, so a backend never has to refuse an action at run time.
package enum ServerAction: Hashable, Sendable {
    /// Create our playback stream (corked), or re-create our streams, with
    /// these properties, on the output selected last; an open capture stream
    /// is re-created with them too.
    case setStreamProperties(StreamProperties)
    /// Open the capture stream on the selected input.
    case openCaptureStream
    /// Close the capture stream.
    case closeCaptureStream
    /// Move our playback stream to this endpoint and make its port active;
    /// `nil`: no output fits, nothing moves.
    case selectOutput(EndpointID?)
    /// Move our capture stream to this endpoint; `nil`: no input.
    case selectInput(EndpointID?)
    /// Mute these other streams; the session owns these mutes.
    case muteOtherStreams([StreamID])
    /// Unmute these streams: only streams this session muted and still owns.
    case unmuteOtherStreams([StreamID])
    /// Lower these other streams' volume by `factor` (linear amplitude).
    case duckOtherStreams([StreamID], factor: Double)
    /// Put back the volume these streams had before they were ducked.
    case unduckOtherStreams([StreamID])
    /// Unmute our own playback stream, which the server muted when it asked
    /// it to cork (module-role-cork mutes before `request-cork`), because the
    /// session does not obey that request: the app is in the foreground
    /// during a call it mixes with (seed 002, scenario 2).
    case reclaimOwnStream
    /// The last call is over: unmute our own playback stream if, and only
    /// if, the server's cork muted it and nobody changed that mute since.
    /// module-role-cork unmutes what it muted when the call ends, but it
    /// forgets a stream the moment the stream moves (a headphone plug during
    /// the call): without this the game would stay muted after the call. A
    /// mute the user put on is never touched.
    case releaseCorkMute
}
