/// How the session shares its route with other apps: AVAudioSession's
/// `RouteSharingPolicy`, same raw values.
///
/// The long-form policies need category playback, a mode of default,
/// moviePlayback or spokenAudio, and no options. On Linux they are validated
/// and kept but change no routing: there is no system-wide "long-form route".
public enum RouteSharingPolicy: UInt, Hashable, Sendable, Codable, CaseIterable {
    /// Normal routing rules (`0`).
    case `default` = 0
    /// Route like the system's music and podcast apps (`1`).
    case longFormAudio = 1
    /// Set by the system only; apps may not set it (`2`).
    case independent = 2
    /// Route like the system's video apps (`3`).
    case longFormVideo = 3

    /// The deprecated iOS 11 name of ``longFormAudio``.
    public static let longForm = RouteSharingPolicy.longFormAudio

    /// Whether this is one of the long-form policies.
    public var isLongForm: Bool { self == .longFormAudio || self == .longFormVideo }
}
