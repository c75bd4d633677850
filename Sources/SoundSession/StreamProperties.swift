/// The properties our playback and capture streams carry, chosen from the
/// category and mode.
package struct StreamProperties: Hashable, Sendable, Codable {
    /// `media.role` of both streams.
    package var mediaRole: MediaRole
    /// Whether echo cancellation is wanted (`filter.want=echo-cancel` on both
    /// streams; voice-conversation modes only). On pipewire-pulse the property
    /// is ignored: the backend uses an existing echo-cancel device or reports
    /// the capability as unavailable.
    package var echoCancellation: Bool

    /// Creates properties.
    package init(mediaRole: MediaRole, echoCancellation: Bool) {
        self.mediaRole = mediaRole
        self.echoCancellation = echoCancellation
    }
}
