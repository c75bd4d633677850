import SoundCore
import SoundSession
import Testing

/// A mic-mute key mutes the PulseAudio source. As on iOS (api-facts 1.2, 1.7):
/// with the input in use muted the session is interrupted with reason
/// builtInMicMuted, unless overrideMutedMicrophoneInterruption is set; then
/// it goes on and the microphone delivers silence.
@Suite struct MicrophoneMuteTests {
    static let micMuted = Interruption.began(.microphoneMuted, reason: .builtInMicMuted)

    @Test(arguments: [Category.playAndRecord, .record, .multiRoute])
    func muteInterruptsACategoryThatRecords(category: Category) throws {
        var policy = try AudioSessionPolicy.connected(.with(category))
        var outputs = policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true))
        #expect(outputs.interruptions == [Self.micMuted])
        #expect(outputs.interruptions.first?.reason == .builtInMicMuted)
        #expect(outputs.pausesEngine(.interrupted))
        #expect(policy.interruptionSource == .microphoneMuted)
        outputs = policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: false))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(outputs.resumesEngine)
    }

    @Test(arguments: [Category.ambient, .soloAmbient, .playback])
    func muteChangesNothingWithoutInput(category: Category) throws {
        var policy = try AudioSessionPolicy.connected(.with(category))
        #expect(policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true)).isEmpty)
        #expect(!policy.isInputMuted)
    }

    @Test func overrideMutedMicrophoneInterruptionKeepsTheSessionGoing() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord, .overrideMutedMicrophoneInterruption))
        #expect(policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true)).isEmpty)
        #expect(policy.isInputMuted, "the microphone delivers silence")
        #expect(policy.engineState == .running)
        // Dropping the option while muted interrupts at once.
        #expect(try policy.handle(.setCategory(.playAndRecord)).interruptions == [Self.micMuted])
    }

    @Test func aMicrophoneMutedAtConnectInterruptsOnActivation() throws {
        var policy = try AudioSessionPolicy(configuration: .with(.playAndRecord))
        let snapshot = SystemSnapshot(
            ownClient: Streams.ownClient, endpoints: Endpoints.phone,
            mutedInputs: [Endpoints.builtInMic.id, EndpointID(.input, device: "gone")])
        _ = policy.handle(.connected(snapshot))
        #expect(policy.mutedInputs == [Endpoints.builtInMic.id], "only present inputs are kept")
        #expect(try policy.handle(.setActive(true)).interruptions == [Self.micMuted])
    }

    @Test func onlyTheInputInUseCounts() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.headphones, Endpoints.headsetMic])
        #expect(policy.inputType == .headsetMic)
        #expect(policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true)).isEmpty)
        // The headset is unplugged: the input in use is now the muted built-in microphone.
        let outputs = policy.handle(
            .endpointsChanged(appeared: [], disappeared: [Endpoints.headphones.id, Endpoints.headsetMic.id]))
        #expect(outputs.interruptions == [Self.micMuted])
        #expect(outputs.routeChanges.map(\.reason) == [.oldDeviceUnavailable])
    }

    @Test func aMutedInputThatGoesAwayEndsTheInterruption() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.usbMic])
        #expect(policy.inputType == .usbAudio)
        _ = policy.handle(.inputMuteChanged(Endpoints.usbMic.id, muted: true))
        #expect(policy.isInterrupted)
        let outputs = policy.handle(.endpointDisappeared(Endpoints.usbMic.id))
        #expect(outputs.interruptions == [.ended(shouldResume: true)])
        #expect(policy.mutedInputs.isEmpty)
        // It comes back unmuted unless the backend says otherwise.
        #expect(policy.handle(.endpointAppeared(Endpoints.usbMic)).interruptions.isEmpty)
    }

    @Test func aMuteOverlappingACallGivesOnePair() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord))
        var interruptions = policy.handle(.otherStreamChanged(Streams.call(1))).interruptions
        interruptions += policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true)).interruptions
        interruptions += policy.handle(.otherStreamRemoved(1)).interruptions
        #expect(policy.isInterrupted, "the microphone is still muted")
        interruptions += policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: false)).interruptions
        #expect(interruptions == [.began(.phoneCall), .ended(shouldResume: true)])
    }

    @Test func muteIsAServerFactForgottenWithTheServer() throws {
        var policy = try AudioSessionPolicy.connected(.with(.playAndRecord), active: false)
        #expect(policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true)).isEmpty, "inactive")
        #expect(try policy.handle(.setActive(true)).interruptions == [Self.micMuted])
        _ = policy.handle(.connectionLost)
        #expect(policy.mutedInputs.isEmpty)
        #expect(policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true)).isEmpty, "no server")
        let outputs = policy.handle(.connected(SystemSnapshot(endpoints: Endpoints.phone)))
        #expect(outputs.interruptions.isEmpty)
        #expect(policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true)).interruptions == [Self.micMuted])
    }

    /// The speaker override forces the built-in microphone; a began clears
    /// the override, so the mute that counts is that of the input without it.
    @Test func theSpeakerOverrideDoesNotMakeAMuteInterruptionFlicker() throws {
        var policy = try AudioSessionPolicy.connected(
            .with(.playAndRecord), endpoints: Endpoints.phone + [Endpoints.headphones, Endpoints.headsetMic])
        _ = try policy.handle(.overrideOutputAudioPort(.speaker))
        #expect(policy.inputType == .builtInMic)
        let outputs = policy.handle(.inputMuteChanged(Endpoints.builtInMic.id, muted: true))
        #expect(outputs.interruptions.isEmpty)
        #expect(policy.isInputMuted)
    }
}
