import SoundCore
import SoundSession
import Testing

/// Seed 002 scenario 1 with a Bluetooth headset: the call switches the
/// headset from A2DP to hands-free, so the backend reports the A2DP sink
/// going and the hands-free sink and microphone coming. The game hears one
/// route change with reason categoryChange (seed 002: "the route-change
/// notification tells the app the session category changed"), never
/// oldDeviceUnavailable, which Apple tells media apps to pause on.
@Suite struct BluetoothCallTests {
    /// The policy driven by the simulated server, with everything delivered.
    struct Run {
        var policy: AudioSessionPolicy
        var server = SimulatedServer()

        init(_ configuration: SessionConfiguration) throws {
            for endpoint in Endpoints.phone + [Endpoints.bluetoothA2DP] { server.endpoints[endpoint.id] = endpoint }
            server.connected = true
            policy = try AudioSessionPolicy(configuration: configuration)
            _ = policy.handle(.connected(server.snapshot))  // the headset is the newest endpoint
            _ = try policy.handle(.setActive(true))
        }

        mutating func deliver(_ events: [SystemEvent]) -> [SessionOutput] {
            events.flatMap { policy.handle($0) }
        }
    }

    /// The Wwise demo's "Allow Bluetooth: Yes" (allowBluetooth + allowBluetoothA2DP).
    @Test func playAndRecordFollowsTheHeadsetIntoHandsFreeAndBack() throws {
        var run = try Run(.with(.playAndRecord, [.allowBluetooth, .allowBluetoothA2DP]))
        #expect(run.policy.outputType == .bluetoothA2DP)
        #expect(run.policy.inputType == .builtInMic)

        var outputs = run.deliver(run.server.play(Streams.call(9)))
        #expect(outputs.interruptions == [.began(.phoneCall)])
        let change = try #require(outputs.routeChanges.first)
        #expect(outputs.routeChanges.count == 1)
        #expect(change.reason == .categoryChange)
        #expect(change.previousRoute.outputs.map(\.portType) == [.bluetoothA2DP])
        #expect(change.currentRoute.outputs.map(\.portType) == [.bluetoothHFP])
        #expect(change.currentRoute.inputs.map(\.portType) == [.bluetoothHFP])
        #expect(outputs.selectedOutput == .some(Endpoints.bluetoothHFP.id))

        outputs = run.deliver(run.server.remove(9))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
        #expect(run.policy.outputType == .bluetoothA2DP)
        #expect(run.policy.inputType == .builtInMic)
    }

    /// A category that cannot use hands-free loses the headset for the
    /// call's length; the reason is still categoryChange: the headset did not
    /// go away.
    @Test(arguments: [Category.soloAmbient, .ambient, .playback])
    func aMediaCategoryFallsBackToTheSpeakerDuringTheCall(category: Category) throws {
        var run = try Run(.with(category))
        #expect(run.policy.outputType == .bluetoothA2DP)
        var outputs = run.deliver(run.server.play(Streams.call(9)))
        #expect(outputs.interruptions == [.began(.phoneCall)])
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
        #expect(run.policy.outputType == .builtInSpeaker)
        outputs = run.deliver(run.server.remove(9))
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
        #expect(run.policy.outputType == .bluetoothA2DP)
    }

    @Test func switchingProfilesIsNotUnpluggingTheHeadset() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord, [.allowBluetooth, .allowBluetoothA2DP]),
            endpoints: Endpoints.phone + [Endpoints.bluetoothA2DP])
        #expect(policy.outputType == .bluetoothA2DP)
        // Switched off: it goes, nothing comes.
        let outputs = policy.handle(.endpointDisappeared(Endpoints.bluetoothA2DP.id))
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
    }
}
