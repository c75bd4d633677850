/// What kind of audio the game makes: AVAudioSession's category.
///
/// The raw value is the iOS constant (`AVAudioSessionCategoryAmbient`, …); the
/// value prints, encodes and decodes as its short name (`ambient`). The
/// default is ``soloAmbient``, as on iOS.
///
/// | category | other apps' audio | output | input | plays in background |
/// |---|---|---|---|---|
/// | ambient | mixes | yes | no | no |
/// | soloAmbient | silenced (non-mixable) | yes | no | no |
/// | playback | silenced (mixes with `mixWithOthers`) | yes | no | yes |
/// | record | silenced | no | yes | yes |
/// | playAndRecord | silenced (mixes with `mixWithOthers`) | yes, receiver by default | yes | yes |
/// | audioProcessing | unaffected | no | no | n/a |
/// | multiRoute | silenced (mixes with `mixWithOthers`) | yes, several | yes | yes |
public enum Category: String, Hashable, Sendable, Codable, CustomStringConvertible, PrefixedName {
    /// Sound the game can do without (rain, engine noise); mixes with other
    /// apps and stops in the background (`AVAudioSessionCategoryAmbient`).
    case ambient = "AVAudioSessionCategoryAmbient"
    /// Like ambient but non-mixable: other apps' music is silenced while the
    /// session is active. The default (`AVAudioSessionCategorySoloAmbient`).
    case soloAmbient = "AVAudioSessionCategorySoloAmbient"
    /// Audio that is the point of the app; keeps playing in the background
    /// (`AVAudioSessionCategoryPlayback`).
    case playback = "AVAudioSessionCategoryPlayback"
    /// Recording only; no output at all (`AVAudioSessionCategoryRecord`).
    case record = "AVAudioSessionCategoryRecord"
    /// Playing and recording, e.g. voice chat; output goes to the receiver
    /// when nothing is plugged in (`AVAudioSessionCategoryPlayAndRecord`).
    case playAndRecord = "AVAudioSessionCategoryPlayAndRecord"
    /// Offline processing with neither input nor output; deprecated on iOS
    /// (`AVAudioSessionCategoryAudioProcessing`).
    case audioProcessing = "AVAudioSessionCategoryAudioProcessing"
    /// Separate streams to several outputs at once (`AVAudioSessionCategoryMultiRoute`).
    case multiRoute = "AVAudioSessionCategoryMultiRoute"

    static var rawValuePrefix: String { "AVAudioSessionCategory" }
}

extension Category {
    /// Whether the category plays audio out.
    public var hasOutput: Bool {
        switch self {
        case .ambient, .soloAmbient, .playback, .playAndRecord, .multiRoute: true
        case .record, .audioProcessing: false
        }
    }

    /// Whether the category records audio in.
    public var hasInput: Bool {
        switch self {
        case .record, .playAndRecord, .multiRoute: true
        case .ambient, .soloAmbient, .playback, .audioProcessing: false
        }
    }

    /// Whether the session keeps rendering while the app is in the background
    /// (unless ``SessionBehavior/suspendInBackground`` is set).
    public var playsInBackground: Bool {
        switch self {
        case .playback, .record, .playAndRecord, .multiRoute: true
        case .ambient, .soloAmbient, .audioProcessing: false
        }
    }
}
