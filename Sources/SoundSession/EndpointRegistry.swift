/// The endpoints present on the server and the order they arrived in, which
/// decides "last in wins".
struct EndpointRegistry: Hashable, Sendable {
    private var endpoints: [EndpointID: AudioEndpoint] = [:]
    /// Larger is more recent.
    private var arrival: [EndpointID: Int] = [:]
    private var clock = 0

    /// The endpoint with this identity, if present.
    subscript(id: EndpointID) -> AudioEndpoint? { endpoints[id] }

    /// Every endpoint, sorted by identity.
    var all: [AudioEndpoint] { endpoints.values.sorted { $0.id < $1.id } }

    /// Adds a new endpoint as the most recent, or updates a known one without
    /// changing its place. Returns whether it was new.
    @discardableResult
    mutating func insert(_ endpoint: AudioEndpoint) -> Bool {
        let isNew = endpoints.updateValue(endpoint, forKey: endpoint.id) == nil
        if isNew { promote(endpoint.id) }
        return isNew
    }

    /// Removes an endpoint; returns it if it was present.
    @discardableResult
    mutating func remove(_ id: EndpointID) -> AudioEndpoint? {
        arrival[id] = nil
        return endpoints.removeValue(forKey: id)
    }

    /// Makes a present endpoint the most recent.
    mutating func promote(_ id: EndpointID) {
        guard endpoints[id] != nil else { return }
        clock += 1
        arrival[id] = clock
    }

    /// Forgets everything (the server went away).
    mutating func removeAll() { self = EndpointRegistry() }

    /// The endpoints of one direction that pass `filter`, most recent first.
    func newestFirst(_ direction: EndpointDirection, where filter: (AudioEndpoint) -> Bool) -> [AudioEndpoint] {
        endpoints.values
            .filter { $0.direction == direction && filter($0) }
            .sorted { isNewer($0, than: $1) }
    }

    /// The most recent endpoint of one direction that passes `filter`.
    func newest(_ direction: EndpointDirection, where filter: (AudioEndpoint) -> Bool) -> AudioEndpoint? {
        var best: AudioEndpoint?
        for endpoint in endpoints.values where endpoint.direction == direction && filter(endpoint) {
            if best.map({ isNewer(endpoint, than: $0) }) ?? true { best = endpoint }
        }
        return best
    }

    /// Arrival order, most recent first; ties (same arrival) by identity, so
    /// the order never depends on dictionary layout.
    private func isNewer(_ lhs: AudioEndpoint, than rhs: AudioEndpoint) -> Bool {
        let (left, right) = (arrival[lhs.id] ?? 0, arrival[rhs.id] ?? 0)
        return left != right ? left > right : lhs.id < rhs.id
    }
}
