import SoundCore
import SoundSession
import Testing

/// The settings Wwise's own integration demo sends (api-facts 2.9): its
/// cocos port's defaults and every combination of its Options page. The ones
/// our iOS-style validation refuses are listed in docs/audio-session.md,
/// "For Wwise porters"; this suite keeps that list true.
@Suite struct WwiseDemoSettingsTests {
    /// The Options page's controls: four categories, Mix/Duck/Allow Bluetooth
    /// (which sets AllowBluetooth and AllowBluetoothA2DP)/Default to Speaker,
    /// Wwise's seven modes.
    static let categories: [Category] = [.ambient, .soloAmbient, .playAndRecord, .playback]
    static let switches: [CategoryOptions] = [.mixWithOthers, .duckOthers, [.allowBluetooth, .allowBluetoothA2DP], .defaultToSpeaker]
    static let modes: [Mode] = [.default, .voiceChat, .gameChat, .videoRecording, .measurement, .moviePlayback, .videoChat]

    /// The rules of the docs table, restated.
    static func refusal(_ category: Category, _ options: CategoryOptions, _ mode: Mode) -> String? {
        if options.contains(.defaultToSpeaker) && category != .playAndRecord { return "defaultToSpeaker" }
        if options.contains(.allowBluetooth) && category != .playAndRecord { return "allowBluetooth" }
        if category == .soloAmbient && !options.isDisjoint(with: [.mixWithOthers, .duckOthers]) { return "mix/duck" }
        switch mode {
        case .default: return nil
        case .voiceChat, .gameChat, .videoChat, .videoRecording: return category == .playAndRecord ? nil : "mode"
        case .measurement: return [.playAndRecord, .playback].contains(category) ? nil : "mode"
        case .moviePlayback: return category == .playback ? nil : "mode"
        default: return "not a Wwise mode"
        }
    }

    @Test(arguments: categories)
    func everyOptionsPageCombination(category: Category) {
        for bits in 0..<16 {
            let options = CategoryOptions(Self.switches.indices.filter { bits & (1 << $0) != 0 }.map { Self.switches[$0] })
            for mode in Self.modes {
                let configuration = SessionConfiguration(category: category, categoryOptions: options, mode: mode)
                let refused = (try? AudioSessionPolicy.validate(configuration)) == nil
                #expect(refused == (Self.refusal(category, options, mode) != nil), "\(configuration)")
            }
        }
    }

    /// The cocos port's ConfigurePlatform: PlayAndRecord with mix +
    /// bluetooth + speaker (0xD), any other category with mix + duck (0x3).
    @Test func theCocosDemoDefaults() throws {
        try AudioSessionPolicy.validate(.with(.playAndRecord, CategoryOptions(rawValue: 0xD)))
        try AudioSessionPolicy.validate(.with(.ambient, CategoryOptions(rawValue: 0x3)))
        try AudioSessionPolicy.validate(.with(.playback, CategoryOptions(rawValue: 0x3)))
        #expect(throws: SoundEngineError.self) {
            try AudioSessionPolicy.validate(.with(.soloAmbient, CategoryOptions(rawValue: 0x3)))
        }
        // The Unreal integration's default: Ambient + DuckOthers.
        try AudioSessionPolicy.validate(.with(.ambient, .duckOthers))
    }
}
