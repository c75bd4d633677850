/// A refinement of the category for a specific use: AVAudioSession's mode.
///
/// The raw value is the iOS constant (`AVAudioSessionModeDefault`, …); the
/// value prints, encodes and decodes as its short name (`default`).
/// Which categories accept which mode: docs/audio-session.md, "Modes".
public enum Mode: String, Hashable, Sendable, Codable, CustomStringConvertible, PrefixedName {
    /// No special behaviour; valid with every category (`AVAudioSessionModeDefault`).
    case `default` = "AVAudioSessionModeDefault"
    /// Voice over IP: echo cancellation wanted; implies `allowBluetooth`
    /// (`AVAudioSessionModeVoiceChat`). playAndRecord only.
    case voiceChat = "AVAudioSessionModeVoiceChat"
    /// Game voice chat, as GameKit sets it (`AVAudioSessionModeGameChat`). playAndRecord only.
    case gameChat = "AVAudioSessionModeGameChat"
    /// Recording video (`AVAudioSessionModeVideoRecording`). playAndRecord and record.
    case videoRecording = "AVAudioSessionModeVideoRecording"
    /// Minimal system processing; no echo cancellation (`AVAudioSessionModeMeasurement`).
    /// playAndRecord, record and playback.
    case measurement = "AVAudioSessionModeMeasurement"
    /// Movie playback (`AVAudioSessionModeMoviePlayback`). playback only.
    case moviePlayback = "AVAudioSessionModeMoviePlayback"
    /// Video chat: like voiceChat and also implies `defaultToSpeaker`
    /// (`AVAudioSessionModeVideoChat`). playAndRecord only.
    case videoChat = "AVAudioSessionModeVideoChat"
    /// Podcasts and audiobooks (`AVAudioSessionModeSpokenAudio`). playback only.
    case spokenAudio = "AVAudioSessionModeSpokenAudio"
    /// Short text-to-speech prompts such as navigation (`AVAudioSessionModeVoicePrompt`).
    /// playback and playAndRecord (Apple names no category; see the docs).
    case voicePrompt = "AVAudioSessionModeVoicePrompt"

    static var rawValuePrefix: String { "AVAudioSessionMode" }
}

extension Mode {
    /// Whether the mode is one of the voice-conversation modes that want echo
    /// cancellation and the `phone` stream role.
    public var isVoiceConversation: Bool {
        switch self {
        case .voiceChat, .gameChat, .videoChat: true
        default: false
        }
    }
}
