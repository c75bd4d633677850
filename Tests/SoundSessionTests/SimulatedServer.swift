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

    mutating func newStream<G: RandomNumberGenerator>(using rng: inout G) -> OtherStream {
        let roles: [MediaRole?] = [.music, .music, .video, .phone, .game, .event, nil]
        let client = ClientID(rawValue: .random(in: 1...6, using: &rng))  // 1 is our own client
        defer { nextStream += 1 }
        return OtherStream(
            id: StreamID(rawValue: nextStream), client: client, role: roles.randomElement(using: &rng)!,
            isRunning: .random(using: &rng), isMuted: Int.random(in: 0..<5, using: &rng) == 0)
    }
}
