import CPulseAudio
import SoundCore
import SoundSession

/// Endpoints: the server's devices and ports as the policy sees them.
extension ServerModel {
    /// An echo canceller module-filter-apply put between our streams and a
    /// device (module-echo-cancel: `NAME.echo-cancel`, class filter, intended
    /// for phone): the route stays the master device. Other filter devices
    /// (a remap source the user made a microphone of) are devices of their own.
    func isFilter(_ device: PADeviceInfo) -> Bool {
        let p = device.properties
        guard p["device.class"] == "filter" || p["device.master_device"] != nil else { return false }
        return device.name.hasSuffix(".echo-cancel")
            || (p["device.intended_roles"] ?? "").split(separator: " ").contains("phone")
    }

    /// The input endpoints among `endpoints` whose source is muted.
    func mutedInputs(_ endpoints: [AudioEndpoint]) -> Set<EndpointID> {
        let mutedSources = Set(sources.values.filter(\.muted).map(\.name))
        return Set(endpoints.map(\.id).filter { $0.direction == .input && mutedSources.contains($0.device) })
    }

    /// Every endpoint, oldest device first (by index), outputs then inputs.
    func currentEndpoints() -> [AudioEndpoint] {
        let outputs = sinks.keys.sorted().compactMap { sinks[$0] }.filter { !isFilter($0) }
            .flatMap { endpoints(of: $0, .output) }
        let inputs = sources.keys.sorted().compactMap { sources[$0] }.filter { $0.monitorOfSink == nil && !isFilter($0) }
            .flatMap { endpoints(of: $0, .input) }
        return outputs + inputs
    }

    /// A device's endpoints: one per port that is not known to be unplugged,
    /// or one for the device when it has no ports.
    func endpoints(of device: PADeviceInfo, _ direction: EndpointDirection) -> [AudioEndpoint] {
        let accessory = accessory(of: device)
        if device.ports.isEmpty {
            let type = classifyPort(PortFacts(direction: direction, properties: device.properties, hasCard: device.card != nil))
            return [AudioEndpoint(id: EndpointID(direction, device: device.name), portType: type, name: device.description,
                                  accessory: accessory)]
        }
        return device.ports.filter { $0.availability != .no }.map { port in
            let type = classifyPort(PortFacts(
                direction: direction, portType: port.type, portName: port.name, properties: device.properties,
                hasCard: device.card != nil))
            return AudioEndpoint(
                id: EndpointID(direction, device: device.name, port: port.name), portType: type,
                name: port.description.isEmpty ? device.description : "\(device.description) – \(port.description)",
                accessory: accessory)
        }
    }

    /// What a device's output and input share: its card, or the bus path,
    /// Bluetooth address or device string.
    func accessory(of device: PADeviceInfo) -> String? {
        if let card = device.card, let name = cards[card] { return name }
        let p = device.properties
        return p["device.bus_path"] ?? p["api.bluez5.address"] ?? p["bluez.path"] ?? p["device.string"]
    }

    /// The server's default sink or source and its active port; a filter's
    /// master device stands for the filter; nil for a monitor or an unknown device.
    func defaultEndpoint(_ direction: EndpointDirection) -> EndpointID? {
        let devices = direction == .output ? sinks : sources
        guard let name = direction == .output ? defaultSinkName : defaultSourceName,
            var device = devices.values.first(where: { $0.name == name })
        else { return nil }
        if isFilter(device), let master = device.properties["device.master_device"],
            let masterDevice = devices.values.first(where: { $0.name == master })
        {
            device = masterDevice
        }
        guard device.monitorOfSink == nil else { return nil }
        return EndpointID(direction, device: device.name, port: device.activePort)
    }
}
