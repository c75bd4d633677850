import SoundCore
import SoundSession
import Testing

/// A category or mode set while the session is inactive takes effect at the
/// next activation (Apple, api-facts 1.1): it is accepted and stored, and the
/// stream properties, the route and its categoryChange notification all come
/// with setActive(true).
@Suite struct InactiveConfigurationTests {
    @Test func aCategorySetWhileInactiveWaitsForTheActivation() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), active: false)
        var outputs = try policy.handle(.setCategory(.playAndRecord, mode: .voiceChat))
        #expect(outputs.isEmpty, "nothing happens while inactive: \(outputs)")
        #expect(policy.configuration == .with(.playAndRecord, mode: .voiceChat), "stored: the game reads it back")
        #expect(policy.configurationInEffect == .with(.soloAmbient))
        #expect(policy.outputType == .builtInSpeaker)

        outputs = try policy.handle(.setActive(true))
        #expect(outputs == [
            .action(.setStreamProperties(StreamProperties(mediaRole: .phone, echoCancellation: true))),
            .action(.selectOutput(Endpoints.receiver.id)),
            .action(.selectInput(Endpoints.builtInMic.id)),
            .action(.openCaptureStream),
            .action(.resumeEngine),
            .notification(.routeChange(RouteChange(
                reason: .categoryChange,
                previousRoute: RouteDescription(outputs: [Endpoints.speaker.portDescription]),
                currentRoute: RouteDescription(
                    inputs: [Endpoints.builtInMic.portDescription], outputs: [Endpoints.receiver.portDescription])))),
        ])
        #expect(policy.configurationInEffect == policy.configuration)
    }

    @Test func theSameGoesForSetModeAndSetConfiguration() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord), active: false)
        #expect(try policy.handle(.setMode(.videoChat)).isEmpty)
        #expect(try policy.handle(.setConfiguration(.with(.playAndRecord, .defaultToSpeaker))).isEmpty)
        #expect(policy.outputType == .builtInReceiver)
        let outputs = try policy.handle(.setActive(true))
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
    }

    @Test func aCategoryChangedAndChangedBackWhileInactiveChangesNothing() throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient), active: false)
        _ = try policy.handle(.setCategory(.playback))
        _ = try policy.handle(.setCategory(.ambient))
        let outputs = try policy.handle(.setActive(true))
        #expect(outputs.actions == [.resumeEngine])
        #expect(outputs.routeChanges.isEmpty)
    }

    @Test func aCategoryChangeWhileActiveTakesEffectAtOnce() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        let outputs = try policy.handle(.setCategory(.playAndRecord))
        #expect(outputs.actions.contains(.selectOutput(Endpoints.receiver.id)))
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
    }

    /// The engine activates the session at initialize: the initial
    /// configuration's stream properties come whether the connection or the
    /// activation comes first, and only once.
    @Test(arguments: [true, false])
    func theInitialConfigurationIsAppliedOnce(connectFirst: Bool) throws {
        let configuration = SessionConfiguration.with(.playAndRecord, mode: .voiceChat)
        let properties = SessionAction.setStreamProperties(StreamProperties(mediaRole: .phone, echoCancellation: true))
        var policy = try AudioSessionPolicy(configuration: configuration)
        let connect = SystemEvent.connected(SystemSnapshot(ownClient: Streams.ownClient, endpoints: Endpoints.phone))
        var outputs: [SessionOutput] = []
        if connectFirst {
            outputs += policy.handle(connect)
            outputs += try policy.handle(.setActive(true))
        } else {
            outputs += try policy.handle(.setActive(true))
            outputs += policy.handle(connect)
        }
        #expect(outputs.actions.filter { $0 == properties }.count == 1)
        #expect(outputs.actions.last == .resumeEngine)
        #expect(outputs.routeChanges.isEmpty, "the first route is read, not notified")
        #expect(policy.outputType == .builtInReceiver)
    }

    /// The speaker override goes with the category change, when it takes effect.
    @Test func theOverrideLastsUntilTheCategoryChangeTakesEffect() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.headphones], active: true)
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        _ = try policy.handle(.setActive(false))
        #expect(try policy.handle(.setCategory(.playback)).isEmpty)
        #expect(policy.portOverride == .none, "the game's view: a new category has no override")
        #expect(policy.outputType == .builtInSpeaker, "the route waits for the activation")
        let outputs = try policy.handle(.setActive(true))
        #expect(policy.outputType == .headphones)
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
    }

    @Test func anOverrideSetAfterACategoryChangeWhileInactiveHolds() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.soloAmbient), endpoints: Endpoints.phone + [Endpoints.headphones], active: false)
        _ = try policy.handle(.setCategory(.playAndRecord))
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        #expect(policy.outputType == .headphones, "still soloAmbient in effect")
        let outputs = try policy.handle(.setActive(true))
        #expect(policy.portOverride == .speaker)
        #expect(policy.outputType == .builtInSpeaker)
        #expect(policy.inputType == .builtInMic)
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
    }

    @Test func devicesStillMoveTheRouteWhileInactive() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient), active: false)
        _ = try policy.handle(.setCategory(.playAndRecord))
        let outputs = policy.handle(.endpointAppeared(Endpoints.headphones))
        #expect(outputs.selectedOutput == .some(Endpoints.headphones.id))
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])
        #expect(!outputs.actions.contains { if case .setStreamProperties = $0 { true } else { false } })
    }
}
