/// Modifiers of a category: AVAudioSession's `CategoryOptions`, with the same
/// bit values.
///
/// Which category accepts which option is checked by
/// ``AudioSessionPolicy/validate(_:)``; an option a category already implies
/// (for example ``mixWithOthers`` in ambient) is accepted and changes nothing.
/// What the category and mode imply on top of the options you set is
/// ``SessionConfiguration/effectiveOptions``.
public struct CategoryOptions: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible, NamedOptionSet {
    /// The bits, as `AVAudioSession.CategoryOptions.rawValue`.
    public var rawValue: UInt

    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Mix with other apps' audio instead of silencing it (`0x1`).
    /// playback, playAndRecord, multiRoute; implied in ambient.
    public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
    /// Lower other apps' audio while the session is active; implies
    /// ``mixWithOthers`` (`0x2`). playback, playAndRecord, multiRoute, ambient.
    public static let duckOthers = CategoryOptions(rawValue: 0x2)
    /// Allow Bluetooth hands-free (HFP) devices as routes (`0x4`). record, playAndRecord.
    public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
    /// The iOS 26 name of ``allowBluetooth`` (same bit, `0x4`).
    public static let allowBluetoothHFP = allowBluetooth
    /// In playAndRecord, use the speaker instead of the receiver when nothing
    /// is plugged in (`0x8`). Survives route changes and interruptions; only a
    /// category change resets it. playAndRecord only.
    public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    /// Pause other apps' spoken audio and mix with the rest; contains
    /// ``mixWithOthers`` (`0x11`). playback, playAndRecord, multiRoute.
    public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
    /// Allow Bluetooth A2DP outputs in playAndRecord (`0x20`); always on in
    /// ambient, soloAmbient and playback.
    public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
    /// Allow AirPlay (network, RAOP) outputs in playAndRecord (`0x40`).
    /// Settable only with playAndRecord; always on (implicitly, not
    /// settable) in ambient, soloAmbient and playback.
    public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
    /// Keep running when the input in use is muted (`0x80`; on Linux a
    /// mic-mute key muting the source): no ``InterruptionReason/builtInMicMuted``
    /// interruption, the microphone delivers silence. Categories with input
    /// and output: playAndRecord, multiRoute.
    public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)

    static var namedOptions: [(option: CategoryOptions, name: String)] {
        [
            (.interruptSpokenAudioAndMixWithOthers, "interruptSpokenAudioAndMixWithOthers"),
            (.mixWithOthers, "mixWithOthers"),
            (.duckOthers, "duckOthers"),
            (.allowBluetooth, "allowBluetooth"),
            (.defaultToSpeaker, "defaultToSpeaker"),
            (.allowBluetoothA2DP, "allowBluetoothA2DP"),
            (.allowAirPlay, "allowAirPlay"),
            (.overrideMutedMicrophoneInterruption, "overrideMutedMicrophoneInterruption"),
        ]
    }
}
