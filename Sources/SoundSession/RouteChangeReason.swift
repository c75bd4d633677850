/// Why the route changed: AVAudioSession's `RouteChangeReason`, same raw values.
public enum RouteChangeReason: UInt, Hashable, Sendable, Codable, CaseIterable {
    /// The reason is not known (`0`).
    case unknown = 0
    /// A device appeared and became the route, e.g. headphones plugged in (`1`).
    case newDeviceAvailable = 1
    /// The device of the route went away, e.g. headphones unplugged (`2`).
    case oldDeviceUnavailable = 2
    /// The category (or its options or mode) changed (`3`); for a session
    /// that was inactive, at the activation that put the change in effect.
    /// Also a Bluetooth headset switching profile for a call (A2DP ↔
    /// hands-free): the call's session changed the shared route.
    case categoryChange = 3
    /// The route was overridden: ``PortOverride``, a preferred input, or the
    /// user moving the stream or changing the default device (`4`).
    case override = 4
    /// The device woke from sleep (`6`; there is no 5). Not produced on Linux.
    case wakeFromSleep = 6
    /// No route fits the category, e.g. record with no input (`7`).
    case noSuitableRouteForCategory = 7
    /// Same devices, different configuration (`8`).
    case routeConfigurationChange = 8
}
