import SoundSession

/// A sound server for the random-sequence test: the devices and other
/// clients' streams that exist, changed by random events and by the policy's
/// actions, reported back to the policy as the engine would.
struct SimulatedServer {
    static let ownClient: ClientID = 1

    var endpoints: [EndpointID: AudioEndpoint] = [:]
    var streams: [StreamID: OtherStream] = [:]
    var nextStream: UInt32 = 100
    var connected = false

    /// Streams the policy muted whose mute nobody else has touched since.
    var mutedByPolicy: Set<StreamID> = []
    /// Streams reported since they appeared and never playing.
    var unplayed: Set<StreamID> = []
    /// Streams the policy ducked and has not restored.
    var duckedByPolicy: Set<StreamID> = []
    /// The last output the user moved our playback stream to (may break the
    /// options), until a device the options allow arrives.
    var userMove: EndpointID?
    /// The same for our capture stream.
    var userMoveInput: EndpointID?
    /// The output the engine was last told to use.
    var selectedOutput: EndpointID?

    var snapshot: SystemSnapshot {
        SystemSnapshot(
            ownClient: Self.ownClient, endpoints: endpoints.values.sorted { $0.id < $1.id },
            streams: streams.values.sorted { $0.id < $1.id })
    }

    /// Plays another client's stream as the server would, and returns the
    /// facts the backend reports, in order. A call (`media.role=phone`) that
    /// starts while the Bluetooth headset is in A2DP makes
    /// `module-bluetooth-policy` switch it to hands-free: the A2DP sink goes,
    /// the hands-free sink and source come, in one coalesced fact; when no
    /// call plays any more it switches back.
    mutating func play(_ stream: OtherStream) -> [SystemEvent] {
        streams[stream.id] = stream
        return [.otherStreamChanged(stream)] + switchBluetoothProfile()
    }

    /// Removes another client's stream; the same profile rule applies.
    mutating func remove(_ id: StreamID) -> [SystemEvent] {
        streams[id] = nil
        return [.otherStreamRemoved(id)] + switchBluetoothProfile()
    }

    /// A2DP while no call plays, hands-free while one does.
    private mutating func switchBluetoothProfile() -> [SystemEvent] {
        let a2dp = [Endpoints.bluetoothA2DP]
        let handsFree = [Endpoints.bluetoothHFP, Endpoints.bluetoothMic]
        let inCall = streams.values.contains { $0.isCall && $0.isRunning }
        let (from, to) = inCall ? (a2dp, handsFree) : (handsFree, a2dp)
        guard from.allSatisfy({ endpoints[$0.id] != nil }) else { return [] }
        for endpoint in from { endpoints[endpoint.id] = nil }
        for endpoint in to { endpoints[endpoint.id] = endpoint }
        return [.endpointsChanged(appeared: to, disappeared: from.map(\.id))]
    }

    mutating func newStream<G: RandomNumberGenerator>(using rng: inout G) -> OtherStream {
        let roles: [MediaRole?] = [.music, .music, .video, .phone, .game, .event, nil]
        let client = ClientID(rawValue: .random(in: 1...6, using: &rng))  // 1 is our own client
        defer { nextStream += 1 }
        return OtherStream(
            id: StreamID(rawValue: nextStream), client: client, role: roles.randomElement(using: &rng)!,
            isRunning: .random(using: &rng), isMuted: Int.random(in: 0..<5, using: &rng) == 0)
    }
}
