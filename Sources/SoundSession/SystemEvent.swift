/// A fact the backend observed on the sound server. Facts are never refused.
///
/// The backend coalesces the burst of server events one physical change
/// causes (a jack plug: card, sink and server changes) into one fact, once
/// the server has told everything, so the policy picks one reason for it.
package enum SystemEvent: Hashable, Sendable {
    /// Connected (first time or after a loss): everything the server has now.
    /// After ``connectionLost`` this is the media-services reset.
    case connected(SystemSnapshot)
    /// The connection failed or the server died: every server-side object is
    /// gone (media services lost).
    case connectionLost
    /// Endpoints appeared (new devices or ports that became available, newest
    /// last) and disappeared. A known endpoint appearing again with other
    /// details is a configuration change.
    case endpointsChanged(appeared: [AudioEndpoint], disappeared: [EndpointID])
    /// The user changed the server's default output.
    case defaultOutputChanged(EndpointID)
    /// The user changed the server's default input.
    case defaultInputChanged(EndpointID)
    /// Someone else (pavucontrol, `pactl move-sink-input`) moved our playback
    /// (an output ID) or capture (an input ID) stream. Moves the engine asked
    /// for itself and rescue moves after a device vanished are not reported.
    case streamMovedByUser(EndpointID)
    /// Another client's stream appeared or changed.
    case otherStreamChanged(OtherStream)
    /// Another client's stream went away.
    case otherStreamRemoved(StreamID)
    /// The server asked our stream to cork (`PA_STREAM_EVENT_REQUEST_CORK`),
    /// or, for a stream of ours made while a call plays, module-role-cork
    /// muted it as it was made: its request, sent before the client knew the
    /// stream, never arrives, and the backend reports it in its place.
    case corkRequested
    /// The server lets our stream uncork (`PA_STREAM_EVENT_REQUEST_UNCORK`).
    case uncorkRequested
    /// Our playback stream is about to be made (again: a category or mode
    /// change, a stream that failed): cork requests addressed to the old one
    /// are void. The server never sends the matching uncork to a stream that
    /// is gone; if the cause still holds, the new stream gets a cork request
    /// of its own, which counts: the engine says this before it makes the
    /// new stream.
    case ownStreamReplaced
    /// Our playback (or capture) stream failed while the connection stayed:
    /// the server killed it (`pacmd kill-sink-input`, a destroyed PipeWire
    /// node), it failed, or it stalled (no write request for several buffer
    /// lengths while uncorked). The output is gone until
    /// ``ownStreamRestored``: media services lost, for the game.
    case ownStreamLost
    /// Our streams were created again after ``ownStreamLost``: media
    /// services reset. (Cork requests addressed to the dead stream went with
    /// the loss; those made for the new stream count.)
    case ownStreamRestored
    /// A source was muted or unmuted (a laptop's mic-mute key mutes the
    /// PulseAudio source; `pa_source_info.mute`). After ``connected(_:)`` the
    /// backend reports each source that is already muted.
    case inputMuteChanged(EndpointID, muted: Bool)

    /// One endpoint appeared.
    package static func endpointAppeared(_ endpoint: AudioEndpoint) -> SystemEvent {
        .endpointsChanged(appeared: [endpoint], disappeared: [])
    }

    /// One endpoint disappeared.
    package static func endpointDisappeared(_ id: EndpointID) -> SystemEvent {
        .endpointsChanged(appeared: [], disappeared: [id])
    }
}
