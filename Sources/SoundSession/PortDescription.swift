/// One input or output of a route: AVAudioSession's `PortDescription`.
public struct PortDescription: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of port.
    public var portType: PortType
    /// A human-readable name.
    public var portName: String
    /// The endpoint this port is (device and port name).
    package var endpoint: EndpointID

    /// Creates a description.
    package init(portType: PortType, portName: String, endpoint: EndpointID) {
        self.portType = portType
        self.portName = portName
        self.endpoint = endpoint
    }

    /// A unique, stable identifier: `device` or `device#port`.
    public var uid: String { endpoint.description }

    /// The iOS port string and the UID, e.g. `Speaker(alsa_output.pci#speaker)`.
    public var description: String { "\(portType.rawValue)(\(uid))" }
}
