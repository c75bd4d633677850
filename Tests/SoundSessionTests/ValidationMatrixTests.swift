import SoundCore
import SoundSession
import Testing

/// Every category × every subset of the known option bits × every mode,
/// checked against the iOS rules (api-facts 1.2 and 1.4) restated here as rule
/// functions, independently of the implementation.
@Suite struct ValidationMatrixTests {
    /// The known option bits, one by one. `interruptSpokenAudioAndMixWithOthers`
    /// is `0x11`: its own bit is `0x10`, and it brings `mixWithOthers` with it.
    static let knownBits: [UInt] = [0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80]

    /// Whether `bit` may be set explicitly with `category` and `mode`
    /// (api-facts 1.2, "Where it can be set"); an option the category sets by
    /// itself and also lets you set is accepted.
    static func bitIsSettable(_ bit: UInt, _ category: Category, _ mode: Mode) -> Bool {
        switch bit {
        case 0x1:  // mixWithOthers: playAndRecord, playback, multiRoute (mode default); ambient sets it itself.
            category == .playAndRecord || category == .playback || category == .ambient
                || (category == .multiRoute && mode == .default)
        case 0x2:  // duckOthers: playAndRecord, playback, multiRoute; the iOS 27-beta header adds ambient.
            [.playAndRecord, .playback, .multiRoute, .ambient].contains(category)
        case 0x4:  // allowBluetooth(HFP): record and playAndRecord; false and fixed elsewhere.
            category == .record || category == .playAndRecord
        case 0x8:  // defaultToSpeaker: playAndRecord only.
            category == .playAndRecord
        case 0x10:  // interruptSpokenAudioAndMixWithOthers: playAndRecord, playback, multiRoute.
            [.playAndRecord, .playback, .multiRoute].contains(category)
        case 0x20:  // allowBluetoothA2DP: settable with playAndRecord; always on in ambient, soloAmbient, playback.
            [.playAndRecord, .ambient, .soloAmbient, .playback].contains(category)
        case 0x40:  // allowAirPlay: "explicitly settable only with playAndRecord".
            category == .playAndRecord
        case 0x80:  // overrideMutedMicrophoneInterruption: categories with input and output.
            category == .playAndRecord || category == .multiRoute
        default:  // not an option iOS 26 knows by that bit
            false
        }
    }

    /// Whether `mode` is valid with `category` (api-facts 1.4). voicePrompt has
    /// no category in Apple's docs; docs/audio-session.md accepts playback and
    /// playAndRecord.
    static func modeIsValid(_ mode: Mode, _ category: Category) -> Bool {
        switch mode {
        case .default: true
        case .voiceChat, .gameChat, .videoChat: category == .playAndRecord
        case .videoRecording: category == .playAndRecord || category == .record
        case .measurement: [.playAndRecord, .record, .playback].contains(category)
        case .moviePlayback, .spokenAudio: category == .playback
        case .voicePrompt: category == .playback || category == .playAndRecord
        }
    }

    /// The verdict of `setCategory(category, mode:, options:)` on iOS.
    static func isAccepted(_ category: Category, _ options: UInt, _ mode: Mode) -> Bool {
        guard modeIsValid(mode, category) else { return false }
        var remaining = options
        for bit in knownBits where options & bit != 0 {
            guard bitIsSettable(bit, category, mode) else { return false }
            remaining &= ~bit
        }
        return remaining == 0
    }

    /// Every subset of the known bits, then unknown bits alone and with a
    /// known one (0x100; farFieldInput and bluetoothHighQualityRecording, which
    /// this SDK does not model; a high bit).
    static let optionSets: [UInt] =
        Array(0..<0x100) + [0x100, 0x40000, 0x80000, 1 << 40].flatMap { [$0, $0 | 0x1] }

    @Test(arguments: Category.allCases)
    func everyCombination(category: Category) throws {
        let start = try AudioSessionPolicy.connected(.with(.playAndRecord, [.defaultToSpeaker], mode: .voiceChat))
        var checked = 0
        var accepted = 0
        for raw in Self.optionSets {
            let options = CategoryOptions(rawValue: raw)
            for mode in Mode.allCases {
                checked += 1
                let expected = Self.isAccepted(category, raw, mode)
                let configuration = SessionConfiguration(category: category, categoryOptions: options, mode: mode)
                var policy = start
                do {
                    try AudioSessionPolicy.validate(configuration)
                    _ = try policy.handle(.setCategory(category, mode: mode, options: options))
                    accepted += 1
                    guard expected else {
                        Issue.record("\(category) \(options) \(mode) was accepted")
                        continue
                    }
                    #expect(policy.configuration == configuration)
                } catch {
                    guard !expected else {
                        Issue.record("\(category) \(options) \(mode) was refused: \(error)")
                        continue
                    }
                    guard case .invalidParameter(let reason) = error, !reason.isEmpty else {
                        Issue.record("\(category) \(options) \(mode): expected invalidParameter, got \(error)")
                        continue
                    }
                    #expect(error.sessionErrorCode == -50)
                    if policy != start { Issue.record("\(category) \(options) \(mode): a refusal changed the policy") }
                }
            }
        }
        #expect(checked == (256 + 8) * Mode.allCases.count)
        // The rules accept something in every category (at least [] with mode default) and refuse the rest.
        #expect(accepted > 0 && accepted < checked)
    }

    /// The counts of accepted combinations per category, worked out by hand
    /// from api-facts: 2^(settable bits) option sets × valid modes. A slip in
    /// the rule functions above would show here.
    @Test func theRuleFunctionsMatchAHandCount() {
        let expected: [Category: Int] = [
            .ambient: 8 * 1,  // mixWithOthers, duckOthers, A2DP; default
            .soloAmbient: 2 * 1,  // A2DP; default
            .playback: 16 * 5,  // mix, duck, 0x10, A2DP; default, measurement, moviePlayback, spokenAudio, voicePrompt
            .record: 2 * 3,  // allowBluetooth; default, videoRecording, measurement
            .playAndRecord: 256 * 7,  // every bit; every mode but moviePlayback and spokenAudio
            .audioProcessing: 1 * 1,
            .multiRoute: 16 * 1,  // mix, duck, 0x10, overrideMutedMic; default
        ]
        for category in Category.allCases {
            let count = Self.optionSets.reduce(0) { sum, raw in
                sum + Mode.allCases.filter { Self.isAccepted(category, raw, $0) }.count
            }
            #expect(count == expected[category], "\(category)")
        }
    }

    /// Apple's allowAirPlay page: "You can only explicitly set this option if
    /// the audio session's category is set to playAndRecord. For most other
    /// audio session categories, the system sets this option implicitly."
    @Test(arguments: [Category.ambient, .soloAmbient, .playback])
    func allowAirPlayIsImpliedButNotSettableOutsidePlayAndRecord(category: Category) throws {
        #expect(throws: SoundEngineError.invalidParameter(
            "categoryOptions [allowAirPlay] are not allowed with category \(category); "
                + "\(category) allows \(category.settableOptions)")) {
            try AudioSessionPolicy.validate(.with(category, .allowAirPlay))
        }
        #expect(SessionConfiguration.with(category).effectiveOptions.contains(.allowAirPlay))
        let policy = try AudioSessionPolicy.connected(.with(category), endpoints: Endpoints.phone + [Endpoints.airPlay])
        #expect(policy.outputType == .airPlay, "AirPlay is still a route: the category implies the option")
    }

    @Test func refusalsSayWhatWasWrong() {
        #expect(throws: SoundEngineError.invalidParameter(
            "categoryOptions [defaultToSpeaker] are not allowed with category playback; playback allows "
                + "[interruptSpokenAudioAndMixWithOthers, duckOthers, allowBluetoothA2DP]")) {
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
        if Self.modeIsValid(mode, category) {
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
