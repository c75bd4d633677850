/// The kind of an input or output: AVAudioSession's `Port`, with the iOS
/// strings as raw values (`"Speaker"`, `"Headphones"`, …).
///
/// The backend decides the kind of each PulseAudio sink or source port from
/// `pa_device_port_type_t` (PulseAudio ≥ 14) or, for port-less devices, from
/// `device.form_factor`, `device.bus` and `device.api`; the table it follows
/// is in docs/audio-session.md, "Port types". Built-in kinds
/// (``builtInSpeaker``, ``builtInReceiver``, ``builtInMic``) are the fallback
/// of routing; every other kind is an accessory and takes part in "last in wins".
public enum PortType: String, Hashable, Sendable, Codable, CaseIterable {
    /// Line-level input (`"LineIn"`).
    case lineIn = "LineIn"
    /// The built-in microphone (`"MicrophoneBuiltIn"`).
    case builtInMic = "MicrophoneBuiltIn"
    /// The microphone of a wired headset (`"MicrophoneWired"`).
    case headsetMic = "MicrophoneWired"
    /// Line-level output (`"LineOut"`).
    case lineOut = "LineOut"
    /// Headphones or the output of a wired headset (`"Headphones"`).
    case headphones = "Headphones"
    /// A Bluetooth A2DP output (`"BluetoothA2DPOutput"`).
    case bluetoothA2DP = "BluetoothA2DPOutput"
    /// The speaker held to the ear: a handset or earpiece (`"Receiver"`).
    case builtInReceiver = "Receiver"
    /// The built-in speaker (`"Speaker"`).
    case builtInSpeaker = "Speaker"
    /// HDMI output (`"HDMIOutput"`).
    case hdmi = "HDMIOutput"
    /// A network output: AirPlay on iOS, RAOP or another network sink on Linux (`"AirPlay"`).
    case airPlay = "AirPlay"
    /// A Bluetooth Low Energy output; routed like A2DP (`"BluetoothLE"`).
    case bluetoothLE = "BluetoothLE"
    /// A Bluetooth hands-free (HFP/HSP) input or output (`"BluetoothHFP"`).
    case bluetoothHFP = "BluetoothHFP"
    /// A USB audio input or output (`"USBAudio"`).
    case usbAudio = "USBAudio"
    /// A car audio system (`"CarAudio"`).
    case carAudio = "CarAudio"
    /// A device that is not real hardware, such as a null sink (`"Virtual"`).
    case virtual = "Virtual"
    /// A PCI device (`"PCI"`).
    case pci = "PCI"
    /// A FireWire device (`"FireWire"`).
    case fireWire = "FireWire"
    /// A DisplayPort output (`"DisplayPort"`).
    case displayPort = "DisplayPort"
    /// An Audio Video Bridging device (`"AVB"`).
    case avb = "AVB"
    /// A Thunderbolt device (`"Thunderbolt"`).
    case thunderbolt = "Thunderbolt"
}

extension PortType {
    /// Whether the port is part of the machine rather than an accessory:
    /// speaker, receiver or built-in microphone.
    public var isBuiltIn: Bool {
        switch self {
        case .builtInSpeaker, .builtInReceiver, .builtInMic: true
        default: false
        }
    }

    /// Whether the port is an accessory that takes part in "last in wins":
    /// neither built in nor ``virtual`` (a virtual device is used when chosen
    /// — a user move, the server default, the preferred input — or when
    /// nothing else is present).
    public var isAccessory: Bool { !isBuiltIn && self != .virtual }

    /// Whether the port is a Bluetooth media (A2DP or LE) output.
    public var isBluetoothMedia: Bool { self == .bluetoothA2DP || self == .bluetoothLE }

    /// Whether the port is a Bluetooth one, of any profile (A2DP, LE, hands-free).
    public var isBluetooth: Bool { isBluetoothMedia || self == .bluetoothHFP }
}
