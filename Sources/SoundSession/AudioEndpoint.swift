/// A place audio can be routed, as the backend reports it: a sink or source
/// (and port) with its kind.
package struct AudioEndpoint: Hashable, Sendable, Codable {
    /// Its identity.
    package var id: EndpointID
    /// Its kind, which decides whether the category and options allow it.
    package var portType: PortType
    /// A human-readable name (`device.description` and the port's description).
    package var name: String
    /// The physical accessory it belongs to, if several endpoints share one
    /// (a PulseAudio card name or a Bluetooth address). Endpoints with the same
    /// accessory go together: a Bluetooth hands-free output and its microphone.
    package var accessory: String?

    /// Creates an endpoint.
    package init(id: EndpointID, portType: PortType, name: String, accessory: String? = nil) {
        self.id = id
        self.portType = portType
        self.name = name
        self.accessory = accessory
    }

    /// Output or input.
    package var direction: EndpointDirection { id.direction }

    /// How the endpoint appears in a ``RouteDescription``.
    package var portDescription: PortDescription {
        PortDescription(portType: portType, portName: name, endpoint: id)
    }
}
