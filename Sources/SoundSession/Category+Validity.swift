extension Category {
    /// The options that may be set with this category (iOS rules; api-facts 1.2).
    ///
    /// An option the category already implies is settable and changes nothing
    /// (mixWithOthers in ambient; allowBluetoothA2DP in ambient, soloAmbient
    /// and playback). allowAirPlay is implied in those three too, but Apple's
    /// option page says it can be set *explicitly* only with playAndRecord, so
    /// elsewhere it is refused like any other option the category does not
    /// take: `invalidParameter`, iOS's `-50` (`badParam`).
    package var settableOptions: CategoryOptions {
        switch self {
        case .ambient: [.mixWithOthers, .duckOthers, .allowBluetoothA2DP]
        case .soloAmbient: [.allowBluetoothA2DP]
        case .playback:
            [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .allowBluetoothA2DP]
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
    package func allows(_ mode: Mode) -> Bool {
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
    package var allowedModes: [Mode] { Mode.allCases.filter(allows) }
}
