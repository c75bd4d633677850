// Public lookups by name, for command lines, menus and configuration files:
// the IntegrationDemo's `--category playAndRecord --options mixWithOthers,duckOthers`.

extension Category {
    /// The category whose Swift name (`"playAndRecord"`) or iOS constant
    /// (`"AVAudioSessionCategoryPlayAndRecord"`) is `text`.
    public init?(named text: String) { self.init(name: text) }
    /// Every category's Swift name, in declaration order.
    public static var names: [String] { allCases.map(\.name) }
}

extension Mode {
    /// The mode whose Swift name (`"voiceChat"`) or iOS constant is `text`.
    public init?(named text: String) { self.init(name: text) }
    /// Every mode's Swift name, in declaration order.
    public static var names: [String] { allCases.map(\.name) }
}

extension CategoryOptions {
    /// The single option named `text` (`"mixWithOthers"`; `"allowBluetoothHFP"` is accepted too).
    public init?(named text: String) {
        if text == "allowBluetoothHFP" {
            self = .allowBluetooth
            return
        }
        guard let match = Self.namedOptions.first(where: { $0.name == text }) else { return nil }
        self = match.option
    }
    /// Every option's name, in printing order.
    public static var names: [String] { namedOptions.map(\.name) }
    /// The names of the options in this set (composites such as
    /// `interruptSpokenAudioAndMixWithOthers` name their bits once).
    public var names: [String] { optionNames }
}
