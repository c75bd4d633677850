/// Everything the backend knows right after connecting (or reconnecting) to
/// the server.
package struct SystemSnapshot: Hashable, Sendable, Codable {
    /// Our own client index, so our streams are never taken for another app's.
    package var ownClient: ClientID?
    /// Every endpoint, oldest first: the order decides "last in wins" among
    /// accessories that were already present.
    package var endpoints: [AudioEndpoint]
    /// The server's default sink (and its active port), counted as the most
    /// recently connected output.
    package var defaultOutput: EndpointID?
    /// The server's default source, counted as the most recently connected input.
    package var defaultInput: EndpointID?
    /// Every other client's playback stream.
    package var streams: [OtherStream]
    /// The inputs whose device is muted (a microphone's mute key mutes its
    /// source); later changes arrive as ``SystemEvent/inputMuteChanged(_:muted:)``.
    package var mutedInputs: Set<EndpointID>

    /// Creates a snapshot.
    package init(
        ownClient: ClientID? = nil, endpoints: [AudioEndpoint] = [], defaultOutput: EndpointID? = nil,
        defaultInput: EndpointID? = nil, streams: [OtherStream] = [], mutedInputs: Set<EndpointID> = []
    ) {
        self.ownClient = ownClient
        self.endpoints = endpoints
        self.defaultOutput = defaultOutput
        self.defaultInput = defaultInput
        self.streams = streams
        self.mutedInputs = mutedInputs
    }
}
