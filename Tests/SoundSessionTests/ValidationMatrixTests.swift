import SoundCore
import SoundSession
import Testing

/// Every category × option set × mode, checked against the iOS tables
/// (api-facts 1.2 and 1.4) restated here independently of the implementation.
@Suite struct ValidationMatrixTests {
    /// Options each category accepts (explicitly or because it implies them).
    static let settable: [Category: CategoryOptions] = [
        .ambient: [.mixWithOthers, .duckOthers, .allowBluetoothA2DP, .allowAirPlay],
        .soloAmbient: [.allowBluetoothA2DP, .allowAirPlay],
        .playback: [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .allowBluetoothA2DP, .allowAirPlay],
        .record: [.allowBluetooth],
        .playAndRecord: CategoryOptions(rawValue: 0xFF),
        .audioProcessing: [],
        .multiRoute: [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .overrideMutedMicrophoneInterruption],
    ]

    /// Categories each mode is valid with.
    static let modeCategories: [Mode: Set<Category>] = [
        .default: Set(Category.allCases),
        .voiceChat: [.playAndRecord],
        .gameChat: [.playAndRecord],
        .videoChat: [.playAndRecord],
        .videoRecording: [.playAndRecord, .record],
        .measurement: [.playAndRecord, .record, .playback],
        .moviePlayback: [.playback],
        .spokenAudio: [.playback],
        .voicePrompt: [.playback, .playAndRecord],
    ]

    /// Every single option, the relevant combinations, and an unknown bit.
    static let optionSets: [CategoryOptions] = [
        [], .mixWithOthers, .duckOthers, .allowBluetooth, .defaultToSpeaker, .interruptSpokenAudioAndMixWithOthers,
        .allowBluetoothA2DP, .allowAirPlay, .overrideMutedMicrophoneInterruption,
        [.mixWithOthers, .duckOthers], [.duckOthers, .interruptSpokenAudioAndMixWithOthers],
        [.defaultToSpeaker, .allowBluetooth], [.allowBluetooth, .allowBluetoothA2DP],
        [.mixWithOthers, .allowBluetooth, .defaultToSpeaker], [.mixWithOthers, .duckOthers, .allowBluetooth, .defaultToSpeaker],
        [.allowBluetoothA2DP, .allowAirPlay], [.duckOthers, .defaultToSpeaker], [.mixWithOthers, .overrideMutedMicrophoneInterruption],
        CategoryOptions(rawValue: 0xFF), CategoryOptions(rawValue: 0x100), CategoryOptions(rawValue: 0x40000),
    ]

    @Test(arguments: Category.allCases, optionSets)
    func everyCombination(category: Category, options: CategoryOptions) throws {
        let start = try AudioSessionPolicy.connected(.with(.playAndRecord, [.defaultToSpeaker], mode: .voiceChat))
        for mode in Mode.allCases {
            let accepted =
                Self.modeCategories[mode]!.contains(category) && Self.settable[category]!.isSuperset(of: options)
            let configuration = SessionConfiguration(category: category, categoryOptions: options, mode: mode)
            var policy = start
            do {
                try AudioSessionPolicy.validate(configuration)
                _ = try policy.handle(.setCategory(category, mode: mode, options: options))
                #expect(accepted, "\(category) \(options) \(mode) was accepted")
                #expect(policy.configuration == configuration)
            } catch {
                #expect(!accepted, "\(category) \(options) \(mode) was refused: \(error)")
                guard case .invalidParameter(let reason) = error else {
                    Issue.record("\(category) \(options) \(mode): expected invalidParameter, got \(error)")
                    continue
                }
                #expect(error.sessionErrorCode == -50)
                #expect(!reason.isEmpty)
                #expect(policy == start, "a refused setCategory changes nothing")
            }
        }
    }

    @Test func refusalsSayWhatWasWrong() {
        #expect(throws: SoundEngineError.invalidParameter(
            "categoryOptions [defaultToSpeaker] are not allowed with category playback; playback allows "
                + "[interruptSpokenAudioAndMixWithOthers, duckOthers, allowBluetoothA2DP, allowAirPlay]")) {
            try AudioSessionPolicy.validate(.with(.playback, .defaultToSpeaker))
        }
        #expect(throws: SoundEngineError.invalidParameter(
            "mode voiceChat is not allowed with category ambient; ambient allows modes default")) {
            try AudioSessionPolicy.validate(.with(.ambient, mode: .voiceChat))
        }
    }

    @Test(arguments: Category.allCases, Mode.allCases)
    func setModeAloneIsCheckedAgainstTheCurrentCategory(category: Category, mode: Mode) throws {
        var policy = try AudioSessionPolicy.connected(.with(category))
        let before = policy
        if Self.modeCategories[mode]!.contains(category) {
            _ = try policy.handle(.setMode(mode))
            #expect(policy.configuration.mode == mode)
        } else {
            #expect {
                _ = try policy.handle(.setMode(mode))
            } throws: { error in
                guard case SoundEngineError.incompatibleCategory = error else { return false }
                return (error as? SoundEngineError)?.sessionErrorCode == 560_161_140
            }
            #expect(policy == before)
        }
    }

    @Test(arguments: [
        (SessionConfiguration(category: .playback, routeSharingPolicy: .longFormAudio), true),
        (SessionConfiguration(category: .playback, mode: .moviePlayback, routeSharingPolicy: .longFormVideo), true),
        (SessionConfiguration(category: .playback, mode: .spokenAudio, routeSharingPolicy: .longFormAudio), true),
        (SessionConfiguration(category: .playback, mode: .measurement, routeSharingPolicy: .longFormAudio), false),
        (SessionConfiguration(category: .playback, categoryOptions: .mixWithOthers, routeSharingPolicy: .longFormAudio), false),
        (SessionConfiguration(category: .playAndRecord, routeSharingPolicy: .longFormAudio), false),
        (SessionConfiguration(category: .ambient, routeSharingPolicy: .longFormVideo), false),
        (SessionConfiguration(category: .playback, routeSharingPolicy: .independent), false),
        (SessionConfiguration(category: .soloAmbient, routeSharingPolicy: .independent), false),
        (SessionConfiguration(category: .playAndRecord, categoryOptions: .allowBluetooth), true),
    ])
    func routeSharingPolicies(configuration: SessionConfiguration, accepted: Bool) {
        if accepted {
            #expect(throws: Never.self) { try AudioSessionPolicy.validate(configuration) }
        } else {
            #expect(throws: SoundEngineError.self) { try AudioSessionPolicy.validate(configuration) }
        }
    }

    @Test func unknownBitsInActivationAndBehaviourAreRefused() throws {
        var configuration = SessionConfiguration()
        configuration.setActiveOptions = SetActiveOptions(rawValue: 2)
        #expect(throws: SoundEngineError.invalidParameter("setActiveOptions has unknown bits 0x2")) {
            try AudioSessionPolicy.validate(configuration)
        }
        configuration = SessionConfiguration(behavior: SessionBehavior(rawValue: 4))
        #expect(throws: SoundEngineError.invalidParameter("behavior has unknown bits 0x4")) {
            try AudioSessionPolicy.validate(configuration)
        }
        var policy = try AudioSessionPolicy.connected(active: false)
        let before = policy
        #expect(throws: SoundEngineError.self) {
            _ = try policy.handle(.setActive(true, options: SetActiveOptions(rawValue: 8)))
        }
        #expect(policy == before)
    }

    @Test func aPolicyCannotStartWithAnInvalidConfiguration() {
        #expect(throws: SoundEngineError.self) {
            _ = try AudioSessionPolicy(configuration: .with(.soloAmbient, .mixWithOthers))
        }
        #expect(throws: SoundEngineError.self) {
            _ = try AudioSessionPolicy(duckingFactor: 1.5)
        }
    }

    @Test func changingTheWholeConfigurationIsValidatedToo() throws {
        var policy = try AudioSessionPolicy.connected()
        let before = policy
        #expect(throws: SoundEngineError.self) {
            _ = try policy.handle(.setConfiguration(.with(.record, .defaultToSpeaker)))
        }
        #expect(policy == before)
        _ = try policy.handle(.setConfiguration(.with(.record, .allowBluetooth, mode: .videoRecording)))
        #expect(policy.configuration == .with(.record, .allowBluetooth, mode: .videoRecording))
    }

    /// The options in force, per category and mode (api-facts 1.2, 1.4).
    static let effective: [(SessionConfiguration, CategoryOptions)] = [
        (SessionConfiguration.with(.ambient), CategoryOptions([.mixWithOthers, .allowBluetoothA2DP, .allowAirPlay])),
        (.with(.ambient, .duckOthers), [.mixWithOthers, .duckOthers, .allowBluetoothA2DP, .allowAirPlay]),
        (.with(.soloAmbient), [.allowBluetoothA2DP, .allowAirPlay]),
        (.with(.playback), [.allowBluetoothA2DP, .allowAirPlay]),
        (.with(.playback, .duckOthers), [.mixWithOthers, .duckOthers, .allowBluetoothA2DP, .allowAirPlay]),
        (.with(.playback, .interruptSpokenAudioAndMixWithOthers), [.interruptSpokenAudioAndMixWithOthers, .allowBluetoothA2DP, .allowAirPlay]),
        (.with(.playAndRecord), []),
        (.with(.playAndRecord, .duckOthers), [.mixWithOthers, .duckOthers]),
        (.with(.playAndRecord, mode: .voiceChat), [.allowBluetooth]),
        (.with(.playAndRecord, mode: .videoChat), [.allowBluetooth, .defaultToSpeaker]),
        (.with(.playAndRecord, .allowBluetoothA2DP, mode: .gameChat), [.allowBluetoothA2DP]),
        (.with(.record), []),
        (.with(.multiRoute, .duckOthers), [.mixWithOthers, .duckOthers]),
        (.with(.audioProcessing), []),
    ]

    @Test(arguments: effective)
    func effectiveOptions(configuration: SessionConfiguration, expected: CategoryOptions) {
        #expect(configuration.effectiveOptions == expected)
    }

    @Test(arguments: [
        (SessionConfiguration.with(.ambient), true), (.with(.soloAmbient), false), (.with(.playback), false),
        (.with(.playback, .mixWithOthers), true), (.with(.playback, .duckOthers), true),
        (.with(.playback, .interruptSpokenAudioAndMixWithOthers), true), (.with(.record), false),
        (.with(.playAndRecord), false), (.with(.playAndRecord, .mixWithOthers), true),
        (.with(.multiRoute), false), (.with(.multiRoute, .mixWithOthers), true), (.with(.audioProcessing), true),
    ])
    func mixability(configuration: SessionConfiguration, mixable: Bool) {
        #expect(configuration.isMixable == mixable)
    }

    /// The media.role table of docs/audio-session.md, for every valid category and mode.
    @Test(arguments: Category.allCases)
    func mediaRoleTable(category: Category) {
        let expected: [Category: [Mode: MediaRole]] = [
            .ambient: [.default: .game],
            .soloAmbient: [.default: .game],
            .playback: [.default: .music, .measurement: .production, .moviePlayback: .video, .spokenAudio: .music, .voicePrompt: .event],
            .record: [.default: .production, .videoRecording: .production, .measurement: .production],
            .playAndRecord: [
                .default: .game, .voiceChat: .phone, .gameChat: .phone, .videoChat: .phone, .videoRecording: .game,
                .measurement: .production, .voicePrompt: .event,
            ],
            .audioProcessing: [.default: .production],
            .multiRoute: [.default: .music],
        ]
        let table = expected[category]!
        #expect(Set(table.keys) == Set(category.allowedModes), "the table covers exactly the valid modes")
        for (mode, role) in table {
            let properties = SessionConfiguration.with(category, mode: mode).streamProperties
            #expect(properties.mediaRole == role, "\(category) \(mode)")
            #expect(properties.echoCancellation == (role == .phone), "echo cancellation only for voice modes")
        }
    }
}
