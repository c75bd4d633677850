// Which iOS port kind a PulseAudio device (and port) is: the table in
// docs/audio-session.md, "Port types". Pure functions of what the server
// reports, so they can be tested without a server.
import SoundSession

/// `pa_device_port_type_t` values (PulseAudio ≥ 14), as plain numbers so this
/// file needs no libpulse.
enum PADevicePortType: UInt32 {
    case unknown = 0, aux, speaker, headphones, line, mic, headset, handset, earpiece, spdif, hdmi, tv, radio, video
    case usb, bluetooth, portable, handsfree, car, hifi, phone, network, analog
}

/// The facts about one endpoint the classification reads.
struct PortFacts: Sendable, Hashable {
    var direction: EndpointDirection
    /// The port's `pa_device_port_type_t`, nil for a port-less device.
    var portType: UInt32?
    /// The port's name (`analog-output-headphones`, …), nil for a port-less device.
    var portName: String?
    /// The device's properties (`device.form_factor`, `device.bus`, …).
    var properties: [String: String]
    /// Whether the device belongs to a card (real hardware).
    var hasCard: Bool

    init(direction: EndpointDirection, portType: UInt32? = nil, portName: String? = nil,
         properties: [String: String] = [:], hasCard: Bool = false) {
        self.direction = direction
        self.portType = portType
        self.portName = portName
        self.properties = properties
        self.hasCard = hasCard
    }
}

/// The ``PortType`` of an endpoint. The first rule that applies wins:
///
/// 1. Bluetooth (`device.bus=bluetooth`, a bluez API, or a BLUETOOTH/HANDSFREE
///    port on a bluetooth device): the profile (`bluetooth.protocol`,
///    `api.bluez5.profile`, or the port name) decides A2DP, LE (BAP) or HFP/HSP;
///    a Bluetooth microphone is hands-free.
/// 2. Network (RAOP, tunnel, a NETWORK port): ``PortType/airPlay``.
/// 3. `device.bus=usb` or a USB port: ``PortType/usbAudio`` (iOS reports a USB
///    headset as USB audio, whatever it plugs into).
/// 4. The port's type, when the server gave one; then the port's name
///    (servers older than 14 report UNKNOWN).
/// 5. `device.form_factor`: speaker/internal, handset, headphone, headset,
///    microphone, hands-free, tv, car, hifi.
/// 6. Other buses: firewire, thunderbolt; a PCI or other card without more
///    information is the built-in speaker or microphone.
/// 7. A device with no hardware behind it (a null sink, no card, no bus, no API):
///    ``PortType/virtual``; real hardware we know nothing more of: built-in.
func classifyPort(_ facts: PortFacts) -> PortType {
    let output = facts.direction == .output
    let p = facts.properties
    let bus = p["device.bus"]?.lowercased()
    let api = p["device.api"]?.lowercased()
    let formFactor = p["device.form_factor"]?.lowercased()
    let portName = facts.portName?.lowercased() ?? ""
    let portType = facts.portType.flatMap(PADevicePortType.init(rawValue:)) ?? .unknown

    // 1. Bluetooth.
    let isBluetooth = bus == "bluetooth" || api == "bluez" || api == "bluez5" || p["api.bluez5.address"] != nil
        || p["bluez.path"] != nil || (portType == .bluetooth && facts.hasCard)
    if isBluetooth {
        let profile = (p["bluetooth.protocol"] ?? p["api.bluez5.profile"] ?? portName).lowercased()
        if profile.contains("bap") || profile.contains("_le") || profile.contains("-le") { return output ? .bluetoothLE : .bluetoothHFP }
        if profile.contains("a2dp") { return output ? .bluetoothA2DP : .bluetoothHFP }
        if profile.contains("headset") || profile.contains("handsfree") || profile.contains("hands-free")
            || profile.contains("hsp") || profile.contains("hfp") || portType == .handsfree || formFactor == "hands-free" {
            return .bluetoothHFP
        }
        // No profile named: output streams over Bluetooth are A2DP, microphones hands-free.
        return output ? .bluetoothA2DP : .bluetoothHFP
    }

    // 2. Network.
    if portType == .network || bus == "network" || api == "raop" || api == "tunnel"
        || p.keys.contains(where: { $0.hasPrefix("raop.") || $0.hasPrefix("tunnel.") }) {
        return .airPlay
    }

    // 3. USB.
    if bus == "usb" || portType == .usb { return .usbAudio }

    // 4. The port.
    if let fromPort = classify(portType, output: output, portName: portName) { return fromPort }
    if facts.portName != nil, let fromName = classify(portName: portName, output: output) { return fromName }

    // 5. Form factor.
    switch formFactor {
    case "speaker", "internal": return output ? .builtInSpeaker : .builtInMic
    case "handset": return output ? .builtInReceiver : .builtInMic
    case "headphone": return output ? .headphones : .headsetMic
    case "headset": return output ? .headphones : .headsetMic
    case "microphone", "webcam": return output ? .builtInSpeaker : .builtInMic
    case "hands-free": return output ? .headphones : .headsetMic
    case "tv": return output ? .hdmi : .lineIn
    case "car": return .carAudio
    case "hifi": return output ? .lineOut : .lineIn
    default: break
    }

    // 6. Other buses.
    switch bus {
    case "firewire", "ieee1394": return .fireWire
    case "thunderbolt": return .thunderbolt
    default: break
    }

    // 7. Hardware or not.
    let isHardware = facts.hasCard || bus != nil || api == "alsa" || api == "oss" || api == "jack"
    if !isHardware { return .virtual }
    return output ? .builtInSpeaker : .builtInMic
}

/// Rule 4a: a port type the server reported (nil for UNKNOWN and types that say nothing).
private func classify(_ type: PADevicePortType, output: Bool, portName: String) -> PortType? {
    switch type {
    case .speaker: return output ? .builtInSpeaker : .builtInMic
    case .handset, .earpiece: return output ? .builtInReceiver : .builtInMic
    case .headphones: return output ? .headphones : .headsetMic
    case .headset: return output ? .headphones : .headsetMic
    case .mic: return output ? nil : (isJackMic(portName) ? .headsetMic : .builtInMic)
    case .line, .aux, .spdif: return output ? .lineOut : .lineIn
    case .hdmi, .tv: return output ? .hdmi : .lineIn
    case .radio, .video: return output ? .lineOut : .lineIn
    case .usb: return .usbAudio
    case .network: return .airPlay
    case .car: return .carAudio
    case .handsfree: return output ? .headphones : .headsetMic
    case .unknown, .bluetooth, .portable, .hifi, .phone, .analog: return nil
    }
}

/// Rule 4b: the conventional ALSA port names (`analog-output-headphones`, `hdmi-output-0`, …).
private func classify(portName name: String, output: Bool) -> PortType? {
    if name.contains("hdmi") || name.contains("displayport") { return output ? .hdmi : .lineIn }
    if name.contains("iec958") || name.contains("spdif") { return output ? .lineOut : .lineIn }
    if name.contains("headset") { return output ? .headphones : .headsetMic }
    if name.contains("headphone") { return output ? .headphones : .headsetMic }
    if name.contains("handset") || name.contains("earpiece") { return output ? .builtInReceiver : .builtInMic }
    if name.contains("speaker") { return output ? .builtInSpeaker : .builtInMic }
    if name.contains("line") { return output ? .lineOut : .lineIn }
    if name.contains("mic") { return output ? nil : (isJackMic(name) ? .headsetMic : .builtInMic) }
    return nil
}

/// Whether a microphone port is a jack (front/rear/headset mic) rather than built in.
private func isJackMic(_ name: String) -> Bool {
    if name.contains("internal") { return false }
    return name.contains("headset") || name.contains("headphone") || name.contains("front") || name.contains("rear")
        || name == "analog-input-mic"
}
