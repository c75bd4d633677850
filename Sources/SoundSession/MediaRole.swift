/// A stream's `media.role` property: what PulseAudio (and PipeWire) policy
/// modules use to decide what a stream is.
///
/// The standard roles are the statics; other applications may set any
/// string. The role of our own streams is chosen from category and mode, see
/// ``SessionConfiguration/mediaRole``.
package struct MediaRole: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The property value, e.g. `"music"`.
    package var rawValue: String

    /// Creates a role from its property value.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a role from a literal.
    package init(stringLiteral value: String) { self.rawValue = value }

    /// Video with sound; corked by module-role-cork during calls.
    package static let video: MediaRole = "video"
    /// Music; corked by module-role-cork during calls.
    package static let music: MediaRole = "music"
    /// Game audio; not corked by the default module-role-cork.
    package static let game: MediaRole = "game"
    /// Notification and event sounds.
    package static let event: MediaRole = "event"
    /// A call; the trigger role of module-role-cork.
    package static let phone: MediaRole = "phone"
    /// Animation sounds.
    package static let animation: MediaRole = "animation"
    /// Audio production and measurement.
    package static let production: MediaRole = "production"
    /// Accessibility (screen readers).
    package static let a11y: MediaRole = "a11y"
    /// Test sounds.
    package static let test: MediaRole = "test"

    /// Whether other apps' streams with this role are "other apps' audio" that
    /// a non-mixable session silences and duckOthers lowers: music and video,
    /// the roles module-role-cork acts on.
    package var isMedia: Bool { self == .music || self == .video }

    /// The property value.
    package var description: String { rawValue }
}
