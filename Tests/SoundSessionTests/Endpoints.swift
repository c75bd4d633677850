import SoundSession

/// The devices the tests plug in and out: a laptop/phone sound card with
/// speaker, receiver, headphone jack and microphones, a Bluetooth headset
/// that offers A2DP and hands-free, USB, HDMI and a network (AirPlay) sink.
enum Endpoints {
    static let speaker = output("alsa_output.pci", port: "speaker", .builtInSpeaker, accessory: "pci")
    static let receiver = output("alsa_output.pci", port: "earpiece", .builtInReceiver, accessory: "pci")
    static let headphones = output("alsa_output.pci", port: "headphones", .headphones, accessory: "pci")
    static let builtInMic = input("alsa_input.pci", port: "internal-mic", .builtInMic, accessory: "pci")
    static let headsetMic = input("alsa_input.pci", port: "headset-mic", .headsetMic, accessory: "pci")
    static let bluetoothA2DP = output("bluez_sink.AA.a2dp", port: nil, .bluetoothA2DP, accessory: "bluez_card.AA")
    static let bluetoothHFP = output("bluez_sink.AA.hfp", port: nil, .bluetoothHFP, accessory: "bluez_card.AA")
    static let bluetoothMic = input("bluez_source.AA.hfp", port: nil, .bluetoothHFP, accessory: "bluez_card.AA")
    static let usb = output("alsa_output.usb", port: nil, .usbAudio, accessory: "usb")
    static let usbMic = input("alsa_input.usb", port: nil, .usbAudio, accessory: "usb")
    static let hdmi = output("alsa_output.hdmi", port: "hdmi-output-0", .hdmi, accessory: "hdmi")
    static let airPlay = output("raop_output.tv", port: nil, .airPlay)

    /// A phone: speaker, receiver and microphone, nothing plugged in.
    static let phone = [speaker, receiver, builtInMic]
    /// A laptop: speaker and microphone.
    static let laptop = [speaker, builtInMic]
    /// Every fixture endpoint.
    static let all = [
        speaker, receiver, headphones, builtInMic, headsetMic, bluetoothA2DP, bluetoothHFP, bluetoothMic, usb, usbMic,
        hdmi, airPlay,
    ]

    static func output(_ device: String, port: String?, _ type: PortType, accessory: String? = nil) -> AudioEndpoint {
        AudioEndpoint(id: EndpointID(.output, device: device, port: port), portType: type, name: "\(type)", accessory: accessory)
    }

    static func input(_ device: String, port: String?, _ type: PortType, accessory: String? = nil) -> AudioEndpoint {
        AudioEndpoint(id: EndpointID(.input, device: device, port: port), portType: type, name: "\(type)", accessory: accessory)
    }
}

/// Other applications' streams.
enum Streams {
    static let ownClient: ClientID = 1

    static func music(_ id: StreamID, client: ClientID = 50, running: Bool = true, muted: Bool = false) -> OtherStream {
        OtherStream(id: id, client: client, role: .music, isRunning: running, isMuted: muted)
    }

    static func video(_ id: StreamID, client: ClientID = 51, running: Bool = true, muted: Bool = false) -> OtherStream {
        OtherStream(id: id, client: client, role: .video, isRunning: running, isMuted: muted)
    }

    static func call(_ id: StreamID, client: ClientID = 60, running: Bool = true) -> OtherStream {
        OtherStream(id: id, client: client, role: .phone, isRunning: running)
    }

    static func game(_ id: StreamID, client: ClientID = 70, running: Bool = true) -> OtherStream {
        OtherStream(id: id, client: client, role: .game, isRunning: running)
    }
}
