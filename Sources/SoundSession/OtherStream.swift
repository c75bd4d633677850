/// Another application's playback stream, as the sink-input subscription
/// reports it.
package struct OtherStream: Hashable, Sendable, Codable {
    /// Its sink-input index.
    package var id: StreamID
    /// The client that owns it. Streams of our own client are ignored.
    package var client: ClientID
    /// Its `media.role`, `nil` when the stream has none.
    package var role: MediaRole?
    /// Whether it is playing: not corked (`pa_sink_input_info.corked == 0`).
    package var isRunning: Bool
    /// Whether it is muted (`pa_sink_input_info.mute`), by anyone.
    package var isMuted: Bool

    /// Creates a stream report.
    package init(id: StreamID, client: ClientID, role: MediaRole?, isRunning: Bool, isMuted: Bool = false) {
        self.id = id
        self.client = client
        self.role = role
        self.isRunning = isRunning
        self.isMuted = isMuted
    }

    /// Whether it can be heard: running and not muted.
    package var isAudible: Bool { isRunning && !isMuted }

    /// Whether it is music or video: the audio a non-mixable session silences.
    package var isMedia: Bool { role?.isMedia ?? false }

    /// Whether it is a call (`media.role=phone`).
    package var isCall: Bool { role == .phone }
}
