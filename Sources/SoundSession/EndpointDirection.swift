/// Whether an endpoint plays audio out or records audio in.
package enum EndpointDirection: String, Hashable, Sendable, Codable, CaseIterable {
    /// A playback device: a PulseAudio sink (and one of its ports).
    case output
    /// A capture device: a PulseAudio source (and one of its ports). Monitor
    /// sources are not endpoints.
    case input
}
