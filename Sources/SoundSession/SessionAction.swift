/// Something the backend and mixer must do. Identities are plain values;
/// performing an action is the engine's job.
package enum SessionAction: Hashable, Sendable {
    /// Create our playback stream with these properties (the first action
    /// after a connection), or re-create our streams with new ones.
    case setStreamProperties(StreamProperties)
    /// Open the capture stream on the selected input (corked while the engine is paused).
    case openCaptureStream
    /// Close the capture stream.
    case closeCaptureStream
    /// Move our playback stream to this endpoint and make its port active;
    /// `nil`: no output fits, keep the playback stream corked.
    case selectOutput(EndpointID?)
    /// Move our capture stream to this endpoint; `nil`: no input.
    case selectInput(EndpointID?)
    /// Mute these other streams (`pa_context_set_sink_input_mute`); the
    /// session now owns these mutes.
    case muteOtherStreams([StreamID])
    /// Unmute these streams: only ever streams this session muted and still owns.
    case unmuteOtherStreams([StreamID])
    /// Lower these other streams' volume by `factor` (linear), remembering
    /// the volume found.
    case duckOtherStreams([StreamID], factor: Double)
    /// Put back the volume these streams had before ``duckOtherStreams(_:factor:)``:
    /// only ever streams this session ducked.
    case unduckOtherStreams([StreamID])
    /// Fade the buses flagged "mute for background music" to silence (`true`) or back.
    case fadeBackgroundMusicBuses(muted: Bool)
    /// Cork our streams (and stop or keep the mixer, see ``PauseReason``).
    /// Sent again with a new reason while already paused.
    case pauseEngine(PauseReason)
    /// Uncork our streams and run the mixer.
    case resumeEngine
    /// Unmute our own playback stream that the server muted with its cork
    /// request, which the session does not obey (``ServerAction/reclaimOwnStream``).
    case reclaimOwnStream
    /// The last call is over: unmute our own playback stream if the server
    /// muted it when it asked it to cork and nobody changed that mute since
    /// (``ServerAction/releaseCorkMute``).
    case releaseCorkMute
}

extension SessionAction {
    /// The server's part of this action, `nil` for what the engine does itself
    /// (pause, resume, the background-music fade).
    package var serverAction: ServerAction? {
        switch self {
        case .setStreamProperties(let properties): .setStreamProperties(properties)
        case .openCaptureStream: .openCaptureStream
        case .closeCaptureStream: .closeCaptureStream
        case .selectOutput(let id): .selectOutput(id)
        case .selectInput(let id): .selectInput(id)
        case .muteOtherStreams(let ids): .muteOtherStreams(ids)
        case .unmuteOtherStreams(let ids): .unmuteOtherStreams(ids)
        case .duckOtherStreams(let ids, let factor): .duckOtherStreams(ids, factor: factor)
        case .unduckOtherStreams(let ids): .unduckOtherStreams(ids)
        case .reclaimOwnStream: .reclaimOwnStream
        case .releaseCorkMute: .releaseCorkMute
        case .fadeBackgroundMusicBuses, .pauseEngine, .resumeEngine: nil
        }
    }
}
