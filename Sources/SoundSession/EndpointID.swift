/// The identity of one place audio can be routed: a device (a PulseAudio
/// sink or source name) and, for devices with ports, the port name.
///
/// A sink with a speaker port and a headphone port is two endpoints; selecting
/// one means moving the stream to the sink and making that port active.
package struct EndpointID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Output (sink) or input (source).
    package var direction: EndpointDirection
    /// The device's stable name (`pa_sink_info.name` / `pa_source_info.name`).
    package var device: String
    /// The port's name (`pa_sink_port_info.name`), or `nil` for a port-less device.
    package var port: String?

    /// Creates an identity.
    package init(_ direction: EndpointDirection, device: String, port: String? = nil) {
        self.direction = direction
        self.device = device
        self.port = port
    }

    /// `device` or `device#port`: the port's UID in route descriptions.
    package var description: String { port.map { "\(device)#\($0)" } ?? device }

    /// Orders by direction, device, then port, so sorted lists are stable.
    package static func < (lhs: EndpointID, rhs: EndpointID) -> Bool {
        (lhs.direction.rawValue, lhs.device, lhs.port ?? "") < (rhs.direction.rawValue, rhs.device, rhs.port ?? "")
    }
}
