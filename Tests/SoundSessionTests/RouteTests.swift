import SoundCore
import SoundSession
import Testing

/// Route selection: last in wins, the receiver of playAndRecord, what the
/// options allow, and the reason and previous route of every change.
@Suite struct RouteTests {
    @Test(arguments: [Category.ambient, .soloAmbient, .playback, .multiRoute])
    func categoriesOtherThanPlayAndRecordUseTheSpeakerNotTheReceiver(category: Category) throws {
        let policy = try AudioSessionPolicy.connected(.with(category))
        #expect(policy.outputType == .builtInSpeaker)
    }

    @Test func playAndRecordPrefersTheReceiverWhenNothingIsPluggedIn() throws {
        let policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        #expect(policy.outputType == .builtInReceiver)
        #expect(policy.inputType == .builtInMic)
    }

    @Test func playAndRecordWithoutAReceiverUsesTheSpeaker() throws {
        let policy = try AudioSessionPolicy.connected(.with(.playAndRecord), endpoints: Endpoints.laptop)
        #expect(policy.outputType == .builtInSpeaker, "a receiver exists only if a handset or earpiece is present")
    }

    @Test func aVirtualDeviceAppearingTakesNeitherRouteButServesWhenNothingElseIs() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord, [.defaultToSpeaker]), endpoints: Endpoints.laptop)
        let nullSink = Endpoints.output("obs_null_sink", port: nil, .virtual)
        let nullSource = Endpoints.input("obs_null_source", port: nil, .virtual)
        let outputs = policy.handle(.endpointsChanged(appeared: [nullSink, nullSource], disappeared: []))
        #expect(policy.outputType == .builtInSpeaker, "a null sink is no accessory: last in wins does not apply")
        #expect(policy.inputType == .builtInMic)
        #expect(outputs.routeChanges.isEmpty)
        _ = policy.handle(.endpointsChanged(appeared: [], disappeared: [Endpoints.speaker.id, Endpoints.builtInMic.id]))
        #expect(policy.outputType == .virtual, "with nothing else present the virtual device serves")
        #expect(policy.inputType == .virtual)
    }

    @Test func lastInWins() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback))
        var outputs = policy.handle(.endpointAppeared(Endpoints.headphones))
        #expect(policy.outputType == .headphones)
        #expect(outputs.selectedOutput == Endpoints.headphones.id)
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])
        #expect(outputs.routeChanges.first?.previousRoute.outputs.map(\.portType) == [.builtInSpeaker])

        outputs = policy.handle(.endpointAppeared(Endpoints.usb))
        #expect(policy.outputType == .usbAudio)

        outputs = policy.handle(.endpointAppeared(Endpoints.bluetoothA2DP))
        #expect(policy.outputType == .bluetoothA2DP, "A2DP is always allowed in playback")

        // The newest goes: back to the one before it, not to the speaker.
        outputs = policy.handle(.endpointDisappeared(Endpoints.bluetoothA2DP.id))
        #expect(policy.outputType == .usbAudio)
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
        #expect(outputs.routeChanges.first?.previousRoute.outputs.map(\.portType) == [.bluetoothA2DP])
        #expect(outputs.routeChanges.first?.currentRoute == policy.currentRoute)

        // An older device leaving changes nothing.
        outputs = policy.handle(.endpointDisappeared(Endpoints.headphones.id))
        #expect(outputs.routeChanges.isEmpty)
        #expect(outputs.actions.isEmpty)
    }

    @Test func theServerDefaultCountsAsTheMostRecentAtConnection() throws {
        var policy = try AudioSessionPolicy(configuration: .with(.playback))
        _ = policy.handle(
            .connected(
                SystemSnapshot(
                    endpoints: [Endpoints.speaker, Endpoints.hdmi, Endpoints.usb], defaultOutput: Endpoints.hdmi.id)))
        #expect(policy.outputType == .hdmi)
    }

    @Test func theEngineKeepsRunningWhenTheDeviceGoesAway() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), endpoints: Endpoints.phone + [Endpoints.headphones])
        let outputs = policy.handle(.endpointDisappeared(Endpoints.headphones.id))
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
        #expect(!outputs.actions.contains { if case .pauseEngine = $0 { true } else { false } },
            "the engine keeps running; the game decides (Apple advises media apps to pause)")
        #expect(policy.engineState == .running)
    }

    @Test func bluetoothHandsFreeNeedsAllowBluetooth() throws {
        let endpoints = Endpoints.phone + [Endpoints.bluetoothHFP, Endpoints.bluetoothMic]
        let without = try AudioSessionPolicy.connected(.with(.playAndRecord), endpoints: endpoints)
        #expect(without.outputType == .builtInReceiver)
        #expect(without.inputType == .builtInMic)

        let with = try AudioSessionPolicy.connected(.with(.playAndRecord, .allowBluetooth), endpoints: endpoints)
        #expect(with.outputType == .bluetoothHFP)
        #expect(with.inputType == .bluetoothHFP, "the hands-free microphone goes with the hands-free output")

        let voiceChat = try AudioSessionPolicy.connected(.with(.playAndRecord, mode: .voiceChat), endpoints: endpoints)
        #expect(voiceChat.outputType == .bluetoothHFP, "voiceChat implies allowBluetooth")

        let playback = try AudioSessionPolicy.connected(.with(.playback), endpoints: endpoints)
        #expect(playback.outputType == .builtInSpeaker, "HFP is never a playback route")
    }

    @Test func bluetoothA2DPInPlayAndRecordNeedsItsOption() throws {
        let endpoints = Endpoints.phone + [Endpoints.bluetoothA2DP]
        let without = try AudioSessionPolicy.connected(.with(.playAndRecord), endpoints: endpoints)
        #expect(without.outputType == .builtInReceiver)
        let with = try AudioSessionPolicy.connected(.with(.playAndRecord, .allowBluetoothA2DP), endpoints: endpoints)
        #expect(with.outputType == .bluetoothA2DP)
        for category in [Category.ambient, .soloAmbient, .playback] {
            let policy = try AudioSessionPolicy.connected(.with(category), endpoints: endpoints)
            #expect(policy.outputType == .bluetoothA2DP, "A2DP is always on in \(category)")
        }
        let multiRoute = try AudioSessionPolicy.connected(.with(.multiRoute), endpoints: endpoints)
        #expect(multiRoute.outputType == .builtInSpeaker)
    }

    @Test func whenOneAccessoryOffersBothHFPAndA2DPHandsFreeWins() throws {
        let endpoints = Endpoints.phone + [Endpoints.bluetoothHFP, Endpoints.bluetoothMic, Endpoints.bluetoothA2DP]
        let policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord, [.allowBluetooth, .allowBluetoothA2DP]), endpoints: endpoints)
        #expect(policy.outputType == .bluetoothHFP)
    }

    @Test func airPlayNeedsItsOptionInPlayAndRecord() throws {
        let endpoints = Endpoints.phone + [Endpoints.airPlay]
        #expect(try AudioSessionPolicy.connected(.with(.playAndRecord), endpoints: endpoints).outputType == .builtInReceiver)
        #expect(
            try AudioSessionPolicy.connected(.with(.playAndRecord, .allowAirPlay), endpoints: endpoints).outputType
                == .airPlay)
        #expect(try AudioSessionPolicy.connected(.with(.playback), endpoints: endpoints).outputType == .airPlay)
        #expect(try AudioSessionPolicy.connected(.with(.multiRoute), endpoints: endpoints).outputType == .builtInSpeaker)
    }

    @Test func recordHasNoOutput() throws {
        var policy = try AudioSessionPolicy.connected(.with(.record), endpoints: Endpoints.phone + [Endpoints.headphones])
        #expect(policy.currentRoute.outputs.isEmpty)
        #expect(policy.inputType == .builtInMic)
        let outputs = policy.handle(.endpointAppeared(Endpoints.usbMic))
        #expect(policy.inputType == .usbAudio)
        #expect(outputs.actions.contains(.selectInput(Endpoints.usbMic.id)))
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])
    }

    @Test func noSuitableRouteWhenNothingFits() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), endpoints: [Endpoints.builtInMic])
        #expect(policy.currentRoute.outputs.isEmpty)
        var outputs = try policy.handle(.setCategory(.record))
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange], "record with a microphone fits")
        outputs = policy.handle(.endpointDisappeared(Endpoints.builtInMic.id))
        #expect(outputs.routeChanges.map(\.reason) == [.noSuitableRouteForCategory])
        #expect(outputs.actions.contains(.closeCaptureStream))

        var speakerOnly = try AudioSessionPolicy.connected(.with(.ambient), endpoints: [Endpoints.speaker])
        outputs = speakerOnly.handle(.endpointDisappeared(Endpoints.speaker.id))
        #expect(outputs.routeChanges.map(\.reason) == [.noSuitableRouteForCategory])
        #expect(outputs.actions.contains(.selectOutput(nil)))
    }

    @Test func aCategoryChangeIsARouteChangeEvenWhenThePortsStay() throws {
        var policy = try AudioSessionPolicy.connected(.with(.ambient))
        let outputs = try policy.handle(.setCategory(.soloAmbient))
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
        #expect(outputs.routeChanges.first?.previousRoute == outputs.routeChanges.first?.currentRoute)
        let same = try policy.handle(.setCategory(.soloAmbient))
        #expect(same.routeChanges.isEmpty, "the same configuration again changes nothing")
        #expect(same.isEmpty)
    }

    @Test func playAndRecordMovesToTheReceiverOnCategoryChange() throws {
        var policy = try AudioSessionPolicy.connected(.with(.soloAmbient))
        let outputs = try policy.handle(.setCategory(.playAndRecord, mode: .voiceChat))
        #expect(outputs.routeChanges.map(\.reason) == [.categoryChange])
        #expect(outputs.routeChanges.first?.previousRoute.outputs.map(\.portType) == [.builtInSpeaker])
        #expect(policy.outputType == .builtInReceiver)
        #expect(
            outputs.actions == [
                .setStreamProperties(StreamProperties(mediaRole: .phone, echoCancellation: true)),
                .selectOutput(Endpoints.receiver.id), .selectInput(Endpoints.builtInMic.id), .openCaptureStream,
            ])
    }

    @Test func aUserMoveOfOurStreamIsAnOverrideAndIsNotFought() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.bluetoothA2DP])
        let outputs = policy.handle(.streamMovedByUser(Endpoints.bluetoothA2DP.id))
        #expect(outputs.routeChanges.map(\.reason) == [.override])
        #expect(policy.outputType == .bluetoothA2DP)
        #expect(outputs.selectedOutput == nil, "the stream is already there; moving it back would fight the user")
        // The next device in wins again.
        _ = policy.handle(.endpointAppeared(Endpoints.headphones))
        #expect(policy.outputType == .headphones)
    }

    @Test func aDefaultChangeIsHonouredWhenTheCategoryAllowsIt() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playback), endpoints: Endpoints.phone + [Endpoints.hdmi, Endpoints.headphones])
        #expect(policy.outputType == .headphones)
        var outputs = policy.handle(.defaultOutputChanged(Endpoints.speaker.id))
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.routeChanges.map(\.reason) == [.override])
        outputs = policy.handle(.defaultOutputChanged(Endpoints.receiver.id))
        #expect(policy.outputType == .builtInSpeaker, "playback never uses the receiver")
        #expect(outputs.isEmpty)
    }

    @Test func preferredInput() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord, .allowBluetooth),
            endpoints: Endpoints.phone + [Endpoints.usbMic, Endpoints.bluetoothHFP, Endpoints.bluetoothMic])
        #expect(policy.inputType == .bluetoothHFP)
        var outputs = try policy.handle(.setPreferredInput(Endpoints.usbMic.id))
        #expect(policy.inputType == .usbAudio)
        #expect(outputs.routeChanges.map(\.reason) == [.override])
        #expect(policy.availableInputs.map(\.portType).sorted { $0.rawValue < $1.rawValue } == [
            .bluetoothHFP, .builtInMic, .usbAudio,
        ])

        outputs = try policy.handle(.setPreferredInput(nil))
        #expect(policy.preferredInput == nil)
        #expect(policy.inputType == .bluetoothHFP)

        var playback = try AudioSessionPolicy.connected(.with(.playback))
        #expect(playback.availableInputs.isEmpty)
        #expect(throws: SoundEngineError.self) { _ = try playback.handle(.setPreferredInput(Endpoints.builtInMic.id)) }
        #expect(throws: SoundEngineError.invalidParameter("setPreferredInput: alsa_output.pci#speaker is not a present input")) {
            _ = try policy.handle(.setPreferredInput(Endpoints.speaker.id))
        }
    }

    @Test func aUserMoveOfOurCaptureStreamWinsUntilTheGameAsksAgain() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.usbMic, Endpoints.bluetoothMic])
        _ = try policy.handle(.setPreferredInput(Endpoints.usbMic.id))
        var outputs = policy.handle(.streamMovedByUser(Endpoints.bluetoothMic.id))
        #expect(policy.inputType == .bluetoothHFP, "the user wins even without allowBluetooth")
        #expect(outputs.actions.isEmpty, "the stream is already there")
        #expect(outputs.routeChanges.map(\.reason) == [.override])
        outputs = try policy.handle(.setPreferredInput(Endpoints.usbMic.id))
        #expect(policy.inputType == .usbAudio, "the game asking again takes it back")
        #expect(outputs.actions == [.selectInput(Endpoints.usbMic.id)])
    }

    @Test func aPreferredHandsFreeMicrophoneBringsItsOutput() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord, .allowBluetooth),
            endpoints: Endpoints.phone + [Endpoints.bluetoothHFP, Endpoints.bluetoothMic, Endpoints.headphones])
        #expect(policy.outputType == .headphones)
        _ = try policy.handle(.setPreferredInput(Endpoints.bluetoothMic.id))
        #expect(policy.outputType == .bluetoothHFP)
    }

    @Test func aReconfiguredDeviceIsARouteConfigurationChange() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), endpoints: Endpoints.phone + [Endpoints.usb])
        var renamed = Endpoints.usb
        renamed.name = "USB DAC (48 kHz)"
        let outputs = policy.handle(.endpointAppeared(renamed))
        #expect(outputs.routeChanges.map(\.reason) == [.routeConfigurationChange])
        #expect(outputs.actions.isEmpty)
    }

    @Test func multiRouteListsEveryEligibleOutput() throws {
        let policy = try AudioSessionPolicy.connected(
            .with(.multiRoute), endpoints: Endpoints.phone + [Endpoints.headphones, Endpoints.hdmi, Endpoints.bluetoothA2DP])
        #expect(policy.currentRoute.outputs.map(\.portType) == [.hdmi, .headphones])
        let alone = try AudioSessionPolicy.connected(.with(.multiRoute))
        #expect(alone.currentRoute.outputs.map(\.portType) == [.builtInSpeaker])
    }

    @Test func audioProcessingHasNoRoute() throws {
        let policy = try AudioSessionPolicy.connected(.with(.audioProcessing))
        #expect(policy.currentRoute == .empty)
    }

    @Test func availableOutputsFollowTheCategoryNewestFirst() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.bluetoothA2DP, Endpoints.headphones])
        #expect(policy.availableOutputs.map(\.portType) == [.headphones, .builtInReceiver, .builtInSpeaker],
            "A2DP needs its option in playAndRecord")
        _ = try policy.handle(.setCategory(.playback))
        #expect(policy.availableOutputs.map(\.portType) == [.headphones, .bluetoothA2DP, .builtInSpeaker],
            "no receiver outside playAndRecord")
        _ = try policy.handle(.setCategory(.record))
        #expect(policy.availableOutputs.isEmpty)
    }
}

/// The output the game pins from its settings menu (issue 17, item 5): an
/// explicit choice like a preferred input, kept while absent.
@Suite struct PinnedOutputTests {
    @Test func aPinnedOutputStaysThroughDefaultChangesAndNewDevices() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), endpoints: Endpoints.laptop + [Endpoints.hdmi])
        var outputs = try policy.handle(.pinOutput(Endpoints.speaker.id))
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.selectedOutput == Endpoints.speaker.id)
        #expect(outputs.routeChanges.map(\.reason) == [.override])
        // The user changes the default in the desktop: the pin holds.
        outputs = policy.handle(.defaultOutputChanged(Endpoints.hdmi.id))
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.routeChanges.isEmpty && outputs.actions.isEmpty)
        // Headphones arrive: no last in wins over a pin.
        outputs = policy.handle(.endpointAppeared(Endpoints.usb))
        #expect(policy.outputType == .builtInSpeaker)
        #expect(outputs.routeChanges.isEmpty)
        // Back to the rules: the newest arrival wins again.
        outputs = try policy.handle(.pinOutput(nil))
        #expect(policy.pinnedOutput == nil)
        #expect(policy.outputType == .usbAudio)
    }

    @Test func aPinnedOutputThatGoesFallsBackAndIsReturnedTo() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), endpoints: Endpoints.laptop + [Endpoints.usb])
        _ = try policy.handle(.pinOutput(Endpoints.usb.id))
        _ = policy.handle(.defaultOutputChanged(Endpoints.speaker.id))
        #expect(policy.outputType == .usbAudio)
        var outputs = policy.handle(.endpointDisappeared(Endpoints.usb.id))
        #expect(policy.outputType == .builtInSpeaker, "falls back to the default the user chose")
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
        #expect(outputs.routeChanges.first?.previousRoute.outputs.map(\.endpoint) == [Endpoints.usb.id])
        #expect(policy.pinnedOutput == Endpoints.usb.id, "kept while absent")
        outputs = policy.handle(.endpointAppeared(Endpoints.usb))
        #expect(policy.outputType == .usbAudio)
        #expect(outputs.selectedOutput == Endpoints.usb.id)
        #expect(outputs.routeChanges.map(\.reason) == [.newDeviceAvailable])
    }

    @Test func theUsersMoveWinsUntilTheGamePinsAgainAndTheSpeakerOverrideComesFirst() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord, [.defaultToSpeaker]), endpoints: Endpoints.phone + [Endpoints.usb])
        _ = try policy.handle(.pinOutput(Endpoints.usb.id))
        var outputs = policy.handle(.streamMovedByUser(Endpoints.speaker.id))
        #expect(policy.outputType == .builtInSpeaker, "the user's move in the desktop's mixer is the newest choice")
        #expect(outputs.actions.isEmpty, "the stream is already there")
        outputs = try policy.handle(.pinOutput(Endpoints.usb.id))
        #expect(policy.outputType == .usbAudio, "the game pinning again takes it back")
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        #expect(policy.outputType == .builtInSpeaker)
        _ = try policy.handle(.overrideOutputAudioPort(.none))
        #expect(policy.outputType == .usbAudio)
    }

    @Test func aPinIsRefusedForWhatCannotPlayAndChangesNothing() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), endpoints: Endpoints.phone + [Endpoints.bluetoothHFP])
        #expect(throws: SoundEngineError.invalidParameter("pinOutput: alsa_input.pci#internal-mic is not a present output")) {
            _ = try policy.handle(.pinOutput(Endpoints.builtInMic.id))
        }
        #expect(throws: SoundEngineError.invalidParameter("pinOutput: alsa_output.usb is not a present output")) {
            _ = try policy.handle(.pinOutput(Endpoints.usb.id))
        }
        #expect(throws: SoundEngineError.self, "playback allows no hands-free output") {
            _ = try policy.handle(.pinOutput(Endpoints.bluetoothHFP.id))
        }
        #expect(policy.pinnedOutput == nil)
        var record = try AudioSessionPolicy.connected(.with(.record))
        #expect(throws: SoundEngineError.self) { _ = try record.handle(.pinOutput(Endpoints.speaker.id)) }
    }

    @Test func aPinSurvivesAReconnection() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playback), endpoints: Endpoints.laptop + [Endpoints.hdmi])
        _ = try policy.handle(.pinOutput(Endpoints.hdmi.id))
        _ = policy.handle(.connectionLost)
        _ = policy.handle(
            .connected(SystemSnapshot(endpoints: Endpoints.laptop + [Endpoints.hdmi], defaultOutput: Endpoints.speaker.id)))
        #expect(policy.outputType == .hdmi)
    }
}
