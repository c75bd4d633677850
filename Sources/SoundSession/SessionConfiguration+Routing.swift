extension SessionConfiguration {
    /// Whether a port of this kind may carry the session's audio in this
    /// direction under the category, options and mode.
    ///
    /// Outputs: none in record and audioProcessing; the receiver only in
    /// playAndRecord; Bluetooth HFP only with ``CategoryOptions/allowBluetooth``;
    /// Bluetooth A2DP and LE only with ``CategoryOptions/allowBluetoothA2DP``
    /// (implied in ambient, soloAmbient, playback); AirPlay (network) only with
    /// ``CategoryOptions/allowAirPlay`` (implied likewise); multiRoute only USB,
    /// line out, headphones, HDMI and the speaker.
    /// Inputs: only in record, playAndRecord and multiRoute; Bluetooth HFP only
    /// with allowBluetooth; multiRoute only USB, headset and built-in microphones.
    package func permits(_ portType: PortType, _ direction: EndpointDirection) -> Bool {
        switch direction {
        case .output:
            guard category.hasOutput else { return false }
            switch portType {
            case .builtInMic, .headsetMic, .lineIn: return false
            case .builtInReceiver: return category == .playAndRecord
            case .bluetoothHFP: return effectiveOptions.contains(.allowBluetooth)
            case .bluetoothA2DP, .bluetoothLE: return effectiveOptions.contains(.allowBluetoothA2DP)
            case .airPlay: return effectiveOptions.contains(.allowAirPlay)
            default:
                guard category == .multiRoute else { return true }
                return [.usbAudio, .lineOut, .headphones, .hdmi, .builtInSpeaker].contains(portType)
            }
        case .input:
            guard category.hasInput else { return false }
            switch portType {
            case .lineOut, .headphones, .bluetoothA2DP, .builtInReceiver, .builtInSpeaker, .hdmi, .airPlay,
                .bluetoothLE, .displayPort:
                return false
            case .bluetoothHFP: return effectiveOptions.contains(.allowBluetooth)
            default:
                guard category == .multiRoute else { return true }
                return [.usbAudio, .headsetMic, .builtInMic].contains(portType)
            }
        }
    }

    /// Whether the endpoint may carry the session's audio.
    package func permits(_ endpoint: AudioEndpoint) -> Bool { permits(endpoint.portType, endpoint.direction) }
}
