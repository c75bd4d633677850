import SoundCore
import SoundSession
import Testing

/// Apple QA1754 (seed 000): `overrideOutputAudioPort(.speaker)` is a temporary
/// speakerphone button; `defaultToSpeaker` is a lasting rule of playAndRecord
/// that only a category change resets.
@Suite struct QA1754Tests {
    @Test func theOverrideIsClearedByAnyRouteChange() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        #expect(policy.outputType == .builtInReceiver)

        var outputs = try policy.handle(.overrideOutputAudioPort(.speaker))
        #expect(policy.outputType == .builtInSpeaker)
        #expect(policy.portOverride == .speaker)
        #expect(outputs.routeChanges.map(\.reason) == [.override])
        #expect(outputs.routeChanges.first?.previousRoute.outputs.map(\.portType) == [.builtInReceiver])

        // Headphones in: last in wins and the override is gone.
        outputs = policy.handle(.endpointAppeared(Endpoints.headphones))
        #expect(policy.portOverride == .none)
        #expect(policy.outputType == .headphones)
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])

        // Headphones out: back to the normal route, the receiver, not the speaker.
        outputs = policy.handle(.endpointDisappeared(Endpoints.headphones.id))
        #expect(policy.outputType == .builtInReceiver)
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
    }

    /// A device the category cannot use changes no route: the override stays
    /// and nothing is notified, whether it comes or goes.
    @Test func aDeviceTheCategoryCannotUseDoesNotClearTheOverride() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))

        // Bluetooth hands-free without allowBluetooth: not usable.
        var outputs = policy.handle(.endpointsChanged(appeared: [Endpoints.bluetoothHFP, Endpoints.bluetoothMic], disappeared: []))
        #expect(policy.portOverride == .speaker)
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.isEmpty, "no route change, no action: \(outputs)")
        outputs = policy.handle(
            .endpointsChanged(appeared: [], disappeared: [Endpoints.bluetoothHFP.id, Endpoints.bluetoothMic.id]))
        #expect(policy.portOverride == .speaker)
        #expect(outputs.isEmpty, "no route change, no action: \(outputs)")

        // A device it can use still ends the override.
        outputs = policy.handle(.endpointAppeared(Endpoints.usb))
        #expect(policy.portOverride == .none)
        #expect(policy.outputType == .usbAudio)
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])
    }

    @Test func theOverriddenSpeakerGoingAwayEndsTheOverride() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        let outputs = policy.handle(.endpointDisappeared(Endpoints.speaker.id))
        #expect(policy.portOverride == .none)
        #expect(policy.outputType == .builtInReceiver)
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
    }

    @Test func theOverrideForcesTheBuiltInMicrophoneAndSpeakerOverAHeadset() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.headphones, Endpoints.headsetMic])
        #expect(policy.outputType == .headphones)
        #expect(policy.inputType == .headsetMic)
        let outputs = try policy.handle(.overrideOutputAudioPort(.speaker))
        #expect(policy.outputType == .builtInSpeaker)
        #expect(policy.inputType == .builtInMic)
        #expect(outputs.actions == [.selectOutput(Endpoints.speaker.id), .selectInput(Endpoints.builtInMic.id)])
        _ = try policy.handle(.overrideOutputAudioPort(.none))
        #expect(policy.outputType == .headphones)
        #expect(policy.inputType == .headsetMic)
    }

    @Test func theOverrideIsClearedByAnInterruption() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        let outputs = policy.handle(.otherStreamChanged(Streams.call(7)))
        #expect(outputs.interruptions.map(\.type) == [.began])
        #expect(policy.portOverride == .none)
        #expect(policy.outputType == .builtInReceiver)
        #expect(outputs.routeChanges.map(\.reason) == [.override])
        // Ended: the override does not come back.
        _ = policy.handle(.otherStreamRemoved(7))
        #expect(policy.outputType == .builtInReceiver)
    }

    @Test func theOverrideIsOnlyForPlayAndRecord() throws {
        for category in Category.allCases where category != .playAndRecord {
            var policy = try AudioSessionPolicy.connected(.with(category))
            let before = policy
            #expect(throws: SoundEngineError.incompatibleCategory(
                "overrideOutputAudioPort(.speaker) needs category playAndRecord, not \(category)")) {
                _ = try policy.handle(.overrideOutputAudioPort(.speaker))
            }
            #expect(policy == before)
            _ = try policy.handle(.overrideOutputAudioPort(.none))
            #expect(policy == before, "removing an override that is not there changes nothing")
        }
    }

    @Test func theOverrideNeedsASpeaker() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord), endpoints: [Endpoints.receiver, Endpoints.builtInMic])
        #expect(throws: SoundEngineError.resourceNotAvailable("overrideOutputAudioPort(.speaker): no built-in speaker is present")) {
            _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        }
    }

    @Test func defaultToSpeakerSurvivesRouteChangesAndInterruptions() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord, .defaultToSpeaker))
        #expect(policy.outputType == .builtInSpeaker)

        // Plugging and unplugging a headset is still honoured (QA1754).
        _ = policy.handle(.endpointAppeared(Endpoints.headphones))
        #expect(policy.outputType == .headphones)
        _ = policy.handle(.endpointDisappeared(Endpoints.headphones.id))
        #expect(policy.outputType == .builtInSpeaker, "speaker, not receiver, once nothing is attached")

        // An interruption does not reset it.
        var outputs = policy.handle(.otherStreamChanged(Streams.call(3)))
        #expect(outputs.interruptions.map(\.type) == [.began])
        #expect(policy.outputType == .builtInSpeaker)
        outputs = policy.handle(.otherStreamRemoved(3))
        #expect(outputs.interruptions.map(\.shouldResume) == [true])
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.routeChanges.isEmpty)
    }

    @Test func onlyACategoryChangeResetsDefaultToSpeaker() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord, .defaultToSpeaker))
        var outputs = try policy.handle(.setCategory(.playback))
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
        #expect(policy.configuration.categoryOptions.isEmpty, "options do not carry over")
        outputs = try policy.handle(.setCategory(.playAndRecord))
        #expect(policy.outputType == .builtInReceiver)
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
    }

    @Test func aCategoryChangeClearsTheOverride() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        _ = try policy.handle(.setCategory(.playback))
        #expect(policy.portOverride == .none)
        _ = try policy.handle(.setCategory(.playAndRecord))
        #expect(policy.outputType == .builtInReceiver)
    }

    @Test func videoChatImpliesDefaultToSpeaker() throws {
        let policy = try AudioSessionPolicy.connected(.with(.playAndRecord, mode: .videoChat))
        #expect(policy.outputType == .builtInSpeaker)
    }

    @Test func theOverrideAndDefaultToSpeakerTogether() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord, .defaultToSpeaker), endpoints: Endpoints.phone + [Endpoints.headphones])
        #expect(policy.outputType == .headphones)
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        #expect(policy.outputType == .builtInSpeaker)
        _ = policy.handle(.endpointDisappeared(Endpoints.headphones.id))
        #expect(policy.portOverride == .none)
        #expect(policy.outputType == .builtInSpeaker, "defaultToSpeaker still holds after the override went")
    }

    /// QA1754 (seed 000): "with a USB input-only accessory, audio input comes
    /// from the accessory, and output goes to the headphones if attached, else
    /// the speaker" under defaultToSpeaker.
    @Test func aUSBInputOnlyAccessoryWithDefaultToSpeaker() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord, .defaultToSpeaker))
        var outputs = policy.handle(.endpointAppeared(Endpoints.usbMic))
        #expect(policy.inputType == .usbAudio)
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.actions == [.selectInput(Endpoints.usbMic.id)])
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])

        outputs = policy.handle(.endpointAppeared(Endpoints.headphones))
        #expect(policy.outputType == .headphones)
        #expect(policy.inputType == .usbAudio, "the headphones bring no microphone")

        outputs = policy.handle(.endpointDisappeared(Endpoints.headphones.id))
        #expect(policy.outputType == .builtInSpeaker)
        outputs = policy.handle(.endpointDisappeared(Endpoints.usbMic.id))
        #expect(policy.inputType == .builtInMic)
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
    }

    @Test func aUSBInputOnlyAccessoryWithoutDefaultToSpeakerKeepsTheReceiver() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        _ = policy.handle(.endpointAppeared(Endpoints.usbMic))
        #expect(policy.inputType == .usbAudio)
        #expect(policy.outputType == .builtInReceiver)
    }

    /// QA1754's headset half: plugging a wired headset routes to headset mic
    /// and headphones; unplugging goes back to the built-in microphone and
    /// the receiver, or the speaker with defaultToSpeaker.
    @Test(arguments: [(CategoryOptions(), PortType.builtInReceiver), (.defaultToSpeaker, .builtInSpeaker)])
    func aWiredHeadsetTakesBothDirections(options: CategoryOptions, unplugged: PortType) throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord, options))
        #expect(policy.outputType == unplugged)
        #expect(policy.inputType == .builtInMic)

        var outputs = policy.handle(.endpointsChanged(appeared: [Endpoints.headphones, Endpoints.headsetMic], disappeared: []))
        #expect(policy.outputType == .headphones)
        #expect(policy.inputType == .headsetMic)
        #expect(outputs.actions == [.selectOutput(Endpoints.headphones.id), .selectInput(Endpoints.headsetMic.id)])
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])

        outputs = policy.handle(
            .endpointsChanged(appeared: [], disappeared: [Endpoints.headphones.id, Endpoints.headsetMic.id]))
        #expect(policy.outputType == unplugged)
        #expect(policy.inputType == .builtInMic)
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
        #expect(outputs.routeChanges.first?.previousRoute.inputs.map(\.portType) == [.headsetMic])
    }
}
