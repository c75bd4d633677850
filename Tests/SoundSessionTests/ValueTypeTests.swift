import Foundation
import SoundSession
import Testing

/// The raw values must be AVAudioSession's, bit for bit, so values copied
/// from iOS code and Wwise settings mean the same thing here.
@Suite struct ValueTypeTests {
    @Test(arguments: [
        (Category.ambient, "AVAudioSessionCategoryAmbient", "ambient"),
        (.soloAmbient, "AVAudioSessionCategorySoloAmbient", "soloAmbient"),
        (.playback, "AVAudioSessionCategoryPlayback", "playback"),
        (.record, "AVAudioSessionCategoryRecord", "record"),
        (.playAndRecord, "AVAudioSessionCategoryPlayAndRecord", "playAndRecord"),
        (.audioProcessing, "AVAudioSessionCategoryAudioProcessing", "audioProcessing"),
        (.multiRoute, "AVAudioSessionCategoryMultiRoute", "multiRoute"),
    ])
    func categoryRawValuesAndNames(category: Category, raw: String, name: String) throws {
        #expect(category.rawValue == raw)
        #expect(category.description == name)
        #expect(try JSONEncoder().encode(category) == Data("\"\(name)\"".utf8))
        #expect(try JSONDecoder().decode(Category.self, from: Data("\"\(raw)\"".utf8)) == category)
        #expect(try JSONDecoder().decode(Category.self, from: Data("\"\(name)\"".utf8)) == category)
    }

    @Test(arguments: [
        (Mode.default, "AVAudioSessionModeDefault"), (.voiceChat, "AVAudioSessionModeVoiceChat"),
        (.gameChat, "AVAudioSessionModeGameChat"), (.videoRecording, "AVAudioSessionModeVideoRecording"),
        (.measurement, "AVAudioSessionModeMeasurement"), (.moviePlayback, "AVAudioSessionModeMoviePlayback"),
        (.videoChat, "AVAudioSessionModeVideoChat"), (.spokenAudio, "AVAudioSessionModeSpokenAudio"),
        (.voicePrompt, "AVAudioSessionModeVoicePrompt"),
    ])
    func modeRawValues(mode: Mode, raw: String) throws {
        #expect(mode.rawValue == raw)
        let roundTrip = try JSONDecoder().decode(Mode.self, from: JSONEncoder().encode(mode))
        #expect(roundTrip == mode)
    }

    @Test func unknownCategoryNameFailsToDecode() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Category.self, from: Data("\"loud\"".utf8))
        }
    }

    @Test(arguments: [
        (CategoryOptions.mixWithOthers, UInt(0x1)), (.duckOthers, 0x2), (.allowBluetooth, 0x4),
        (.allowBluetoothHFP, 0x4), (.defaultToSpeaker, 0x8), (.interruptSpokenAudioAndMixWithOthers, 0x11),
        (.allowBluetoothA2DP, 0x20), (.allowAirPlay, 0x40), (.overrideMutedMicrophoneInterruption, 0x80),
    ])
    func categoryOptionBits(option: CategoryOptions, bits: UInt) {
        #expect(option.rawValue == bits)
    }

    @Test func optionSetsPrintTheirNames() {
        #expect(CategoryOptions([.mixWithOthers, .duckOthers]).description == "[mixWithOthers, duckOthers]")
        #expect(CategoryOptions.interruptSpokenAudioAndMixWithOthers.description == "[interruptSpokenAudioAndMixWithOthers]")
        #expect(CategoryOptions(rawValue: 0x101).description == "[mixWithOthers, 0x100]")
        #expect(SetActiveOptions.notifyOthersOnDeactivation.description == "[notifyOthersOnDeactivation]")
        #expect(SessionBehavior.suspendInBackground.rawValue == 1)
        #expect(InterruptionOptions.shouldResume.rawValue == 1)
        #expect(SetActiveOptions.notifyOthersOnDeactivation.rawValue == 1)
    }

    @Test func enumRawValues() {
        #expect(PortOverride.none.rawValue == 0)
        #expect(PortOverride.speaker.rawValue == 0x7370_6B72)  // 'spkr'
        #expect(InterruptionType.began.rawValue == 1)
        #expect(InterruptionType.ended.rawValue == 0)
        #expect(SilenceSecondaryAudioHintType.begin.rawValue == 1)
        #expect(RouteSharingPolicy.longForm == .longFormAudio)
        #expect(RouteSharingPolicy.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(InterruptionReason.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect(
            RouteChangeReason.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 6, 7, 8],
            "there is no reason 5")
    }

    @Test(arguments: [
        (PortType.builtInSpeaker, "Speaker"), (.builtInReceiver, "Receiver"), (.builtInMic, "MicrophoneBuiltIn"),
        (.headsetMic, "MicrophoneWired"), (.headphones, "Headphones"), (.bluetoothA2DP, "BluetoothA2DPOutput"),
        (.bluetoothHFP, "BluetoothHFP"), (.bluetoothLE, "BluetoothLE"), (.usbAudio, "USBAudio"),
        (.hdmi, "HDMIOutput"), (.airPlay, "AirPlay"), (.lineIn, "LineIn"), (.lineOut, "LineOut"),
        (.carAudio, "CarAudio"),
    ])
    func portTypeStrings(type: PortType, raw: String) {
        #expect(type.rawValue == raw)
    }

    @Test func defaultConfigurationIsSoloAmbient() throws {
        let configuration = SessionConfiguration()
        #expect(configuration.category == .soloAmbient)
        #expect(configuration.categoryOptions.isEmpty)
        #expect(configuration.mode == .default)
        #expect(configuration.routeSharingPolicy == .default)
        #expect(configuration.setActiveOptions.isEmpty)
        #expect(configuration.behavior.isEmpty)
        let decoded = try JSONDecoder().decode(SessionConfiguration.self, from: Data("{}".utf8))
        #expect(decoded == configuration, "missing keys take their defaults")
    }

    @Test func configurationRoundTripsThroughJSON() throws {
        let configuration = SessionConfiguration(
            category: .playAndRecord, categoryOptions: [.defaultToSpeaker, .allowBluetooth], mode: .gameChat,
            setActiveOptions: .notifyOthersOnDeactivation, behavior: .suspendInBackground)
        let json = try JSONEncoder().encode(configuration)
        #expect(String(decoding: json, as: UTF8.self).contains("\"playAndRecord\""))
        #expect(try JSONDecoder().decode(SessionConfiguration.self, from: json) == configuration)
        #expect(configuration.description.contains("playAndRecord"))
    }

    @Test func voiceModesWantEchoCancellationWithThePhoneRole() {
        let voice = SessionConfiguration(category: .playAndRecord, mode: .voiceChat).streamProperties
        #expect(voice == StreamProperties(mediaRole: .phone, echoCancellation: true))
        let game = SessionConfiguration(category: .ambient).streamProperties
        #expect(game == StreamProperties(mediaRole: .game, echoCancellation: false))
    }

    @Test func interruptionValuesMirrorTheUserInfo() {
        let began = Interruption.began(.phoneCall)
        #expect(began.type == .began && began.reason == .default && began.options.isEmpty)
        #expect(Interruption.ended(shouldResume: true).shouldResume)
        #expect(!Interruption.ended(shouldResume: false).shouldResume)
        #expect(!began.shouldResume)
    }
}
