extension SessionConfiguration {
    /// The options in force: those set plus those the category and mode imply.
    ///
    /// - ambient implies ``CategoryOptions/mixWithOthers``;
    /// - ``CategoryOptions/duckOthers`` and
    ///   ``CategoryOptions/interruptSpokenAudioAndMixWithOthers`` imply mixWithOthers;
    /// - ambient, soloAmbient and playback always allow Bluetooth A2DP and AirPlay;
    /// - ``Mode/voiceChat`` implies ``CategoryOptions/allowBluetooth``;
    ///   ``Mode/videoChat`` implies allowBluetooth and ``CategoryOptions/defaultToSpeaker``.
    package var effectiveOptions: CategoryOptions {
        var options = categoryOptions
        switch category {
        case .ambient: options.formUnion(Self.impliedByAmbient)
        case .soloAmbient, .playback: options.formUnion(Self.impliedByMediaCategories)
        case .record, .playAndRecord, .audioProcessing, .multiRoute: break
        }
        if !options.isDisjoint(with: Self.implyingMixWithOthers) {
            options.insert(.mixWithOthers)
        }
        switch mode {
        case .voiceChat: options.insert(.allowBluetooth)
        case .videoChat: options.formUnion(Self.impliedByVideoChat)
        default: break
        }
        return options
    }

    private static let impliedByMediaCategories: CategoryOptions = [.allowBluetoothA2DP, .allowAirPlay]
    private static let impliedByAmbient: CategoryOptions = [.mixWithOthers, .allowBluetoothA2DP, .allowAirPlay]
    private static let implyingMixWithOthers: CategoryOptions = [.duckOthers, .interruptSpokenAudioAndMixWithOthers]
    private static let impliedByVideoChat: CategoryOptions = [.allowBluetooth, .defaultToSpeaker]

    /// Whether other apps' audio keeps playing while the session is active.
    ///
    /// ambient always mixes, audioProcessing leaves others alone, soloAmbient
    /// and record never mix, playback, playAndRecord and multiRoute mix when
    /// ``effectiveOptions`` contains ``CategoryOptions/mixWithOthers``.
    package var isMixable: Bool {
        switch category {
        case .ambient, .audioProcessing: true
        case .soloAmbient, .record: false
        case .playback, .playAndRecord, .multiRoute: effectiveOptions.contains(.mixWithOthers)
        }
    }

    /// Whether activating lowers other apps' music and video.
    package var ducksOthers: Bool { category.hasOutput && effectiveOptions.contains(.duckOthers) }

    /// Whether the engine stops rendering while the app is in the background:
    /// always for ambient and soloAmbient, for the other categories only with
    /// ``SessionBehavior/suspendInBackground``.
    package var stopsInBackground: Bool {
        !category.playsInBackground || behavior.contains(.suspendInBackground)
    }

    /// The `media.role` of our streams (table in docs/audio-session.md, "Stream role").
    ///
    /// | category | mode | role |
    /// |---|---|---|
    /// | ambient, soloAmbient | any | game |
    /// | playback | moviePlayback | video |
    /// | playback | measurement | production |
    /// | playback | voicePrompt | event |
    /// | playback | default, spokenAudio | music |
    /// | playAndRecord | voiceChat, gameChat, videoChat | phone |
    /// | playAndRecord | measurement | production |
    /// | playAndRecord | voicePrompt | event |
    /// | playAndRecord | default, videoRecording | game |
    /// | record, audioProcessing | any | production |
    /// | multiRoute | any | music |
    package var mediaRole: MediaRole {
        switch (category, mode) {
        case (.ambient, _), (.soloAmbient, _): .game
        case (.playback, .moviePlayback): .video
        case (.playback, .measurement), (.playAndRecord, .measurement), (.record, _), (.audioProcessing, _): .production
        case (.playback, .voicePrompt), (.playAndRecord, .voicePrompt): .event
        case (.playback, _), (.multiRoute, _): .music
        case (.playAndRecord, let mode): mode.isVoiceConversation ? .phone : .game
        }
    }

    /// The properties of our streams: the role, and echo cancellation in
    /// playAndRecord with a voice-conversation mode.
    package var streamProperties: StreamProperties {
        StreamProperties(
            mediaRole: mediaRole,
            echoCancellation: category == .playAndRecord && mode.isVoiceConversation)
    }
}
