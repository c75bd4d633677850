/// A place audio can be routed, as the backend reports it: a sink or source
/// (and port) with its kind.
package struct AudioEndpoint: Hashable, Sendable, Codable {
    /// Its identity.
    public var id: EndpointID
    /// Its kind, which decides whether the category and options allow it.
    public var portType: PortType
    /// A human-readable name (`device.description` and the port's description).
    public var name: String
    /// The physical accessory it belongs to, if several endpoints share one
    /// (a PulseAudio card name or a Bluetooth address). Endpoints with the same
    /// accessory go together: a Bluetooth hands-free output and its microphone.
    public var accessory: String?

    /// Creates an endpoint.
    public init(id: EndpointID, portType: PortType, name: String, accessory: String? = nil) {
        self.id = id
        self.portType = portType
        self.name = name
        self.accessory = accessory
    }

    /// Output or input.
    public var direction: EndpointDirection { id.direction }

    /// How the endpoint appears in a ``RouteDescription``.
    public var portDescription: PortDescription {
        PortDescription(portType: portType, portName: name, endpoint: id)
    }
}
