extension Category {
    /// The options that may be set with this category (iOS rules; api-facts 1.2).
    ///
    /// An option the category already implies is settable and changes nothing
    /// (mixWithOthers in ambient; allowBluetoothA2DP and allowAirPlay in
    /// ambient, soloAmbient and playback). Any other option is refused with
    /// `invalidParameter`, iOS's `-50` (`badParam`).
    public var settableOptions: CategoryOptions {
        switch self {
        case .ambient: [.mixWithOthers, .duckOthers, .allowBluetoothA2DP, .allowAirPlay]
        case .soloAmbient: [.allowBluetoothA2DP, .allowAirPlay]
        case .playback:
            [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .allowBluetoothA2DP, .allowAirPlay]
        case .record: [.allowBluetooth]
        case .playAndRecord:
            [
                .mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .allowBluetooth,
                .defaultToSpeaker, .allowBluetoothA2DP, .allowAirPlay, .overrideMutedMicrophoneInterruption,
            ]
        case .audioProcessing: []
        case .multiRoute:
            [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .overrideMutedMicrophoneInterruption]
        }
    }

    /// Whether `mode` may be used with this category (iOS rules; api-facts 1.4).
    ///
    /// | mode | categories |
    /// |---|---|
    /// | default | all |
    /// | voiceChat, gameChat, videoChat | playAndRecord |
    /// | videoRecording | playAndRecord, record |
    /// | measurement | playAndRecord, record, playback |
    /// | moviePlayback, spokenAudio | playback |
    /// | voicePrompt | playback, playAndRecord |
    public func allows(_ mode: Mode) -> Bool {
        switch mode {
        case .default: true
        case .voiceChat, .gameChat, .videoChat: self == .playAndRecord
        case .videoRecording: self == .playAndRecord || self == .record
        case .measurement: self == .playAndRecord || self == .record || self == .playback
        case .moviePlayback, .spokenAudio: self == .playback
        case .voicePrompt: self == .playback || self == .playAndRecord
        }
    }

    /// The modes this category allows, in declaration order.
    public var allowedModes: [Mode] { Mode.allCases.filter(allows) }
}
