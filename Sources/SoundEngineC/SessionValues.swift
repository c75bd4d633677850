import CSoundEngineABI
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

// The audio-session values between sound_engine.h's integers and the Swift
// types. The C numbering of categories and modes is Wwise's
// (AkAudioSessionCategory, AkAudioSessionMode), extended past Wwise's last
// value for the iOS cases Wwise lacks; option bits, policies and reasons
// are iOS's raw values, which the Swift types share.

extension SessionConfiguration {
    /// C value and Swift case of every category, in Wwise's numbering
    /// (AkAudioSessionCategory), then the cases Wwise lacks.
    private static let categories: [(c: Int, category: Category)] = [
        (SE_AudioSessionCategoryAmbient, .ambient), (SE_AudioSessionCategorySoloAmbient, .soloAmbient),
        (SE_AudioSessionCategoryPlayAndRecord, .playAndRecord), (SE_AudioSessionCategoryPlayback, .playback),
        (SE_AudioSessionCategoryRecord, .record), (SE_AudioSessionCategoryMultiRoute, .multiRoute),
        (SE_AudioSessionCategoryAudioProcessing, .audioProcessing),
    ]

    /// C value and Swift case of every mode (AkAudioSessionMode, then the iOS modes Wwise lacks).
    private static let modes: [(c: Int, mode: Mode)] = [
        (SE_AudioSessionModeDefault, .default), (SE_AudioSessionModeVoiceChat, .voiceChat),
        (SE_AudioSessionModeGameChat, .gameChat), (SE_AudioSessionModeVideoRecording, .videoRecording),
        (SE_AudioSessionModeMeasurement, .measurement), (SE_AudioSessionModeMoviePlayback, .moviePlayback),
        (SE_AudioSessionModeVideoChat, .videoChat), (SE_AudioSessionModeSpokenAudio, .spokenAudio),
        (SE_AudioSessionModeVoicePrompt, .voicePrompt),
    ]

    /// The configuration `properties` asks for, or why it is not one.
    init(_ p: SE_AudioSessionProperties, _ function: StaticString = #function) throws(SoundEngineError) {
        guard let category = Self.categories.first(where: { $0.c == Int(p.category) })?.category else {
            throw Argument.notListed(p.category, "category", "SE_AudioSessionCategory", function)
        }
        guard let mode = Self.modes.first(where: { $0.c == Int(p.mode) })?.mode else {
            throw Argument.notListed(p.mode, "mode", "SE_AudioSessionMode", function)
        }
        guard let policy = RouteSharingPolicy(rawValue: UInt(p.route_sharing_policy)) else {
            throw Argument.notListed(
                p.route_sharing_policy, "route_sharing_policy", "SE_AudioSessionRouteSharingPolicy", function)
        }
        try Argument.mask(p.category_options, known: 0xFF, "category_options", function)
        try Argument.mask(p.set_active_options, known: 0x1, "set_active_options", function)
        try Argument.mask(p.behavior, known: 0x1, "behavior", function)
        guard p.reserved.0 == 0, p.reserved.1 == 0 else {
            throw Argument.invalid(function, "reserved fields of SE_AudioSessionProperties must be 0")
        }
        self.init(
            category: category, categoryOptions: CategoryOptions(rawValue: UInt(p.category_options)), mode: mode,
            routeSharingPolicy: policy, setActiveOptions: SetActiveOptions(rawValue: UInt(p.set_active_options)),
            behavior: SessionBehavior(rawValue: UInt(p.behavior)))
    }

    /// The C struct of this configuration.
    var c: SE_AudioSessionProperties {
        // Both tables list every case.
        let category = Self.categories.first { $0.category == self.category }?.c ?? 0
        let mode = Self.modes.first { $0.mode == self.mode }?.c ?? 0
        return SE_AudioSessionProperties(
            category: UInt32(category), category_options: UInt32(truncatingIfNeeded: categoryOptions.rawValue),
            mode: UInt32(mode), route_sharing_policy: UInt32(truncatingIfNeeded: routeSharingPolicy.rawValue),
            set_active_options: UInt32(truncatingIfNeeded: setActiveOptions.rawValue),
            behavior: UInt32(truncatingIfNeeded: behavior.rawValue), reserved: (0, 0))
    }
}

extension PortType {
    /// The SE_PortType of this kind.
    var c: SE_PortType {
        let value: Int =
            switch self {
            case .lineIn: SE_PortLineIn
            case .builtInMic: SE_PortBuiltInMic
            case .headsetMic: SE_PortHeadsetMic
            case .lineOut: SE_PortLineOut
            case .headphones: SE_PortHeadphones
            case .bluetoothA2DP: SE_PortBluetoothA2DP
            case .builtInReceiver: SE_PortBuiltInReceiver
            case .builtInSpeaker: SE_PortBuiltInSpeaker
            case .hdmi: SE_PortHDMI
            case .airPlay: SE_PortAirPlay
            case .bluetoothLE: SE_PortBluetoothLE
            case .bluetoothHFP: SE_PortBluetoothHFP
            case .usbAudio: SE_PortUSBAudio
            case .carAudio: SE_PortCarAudio
            case .virtual: SE_PortVirtual
            case .pci: SE_PortPCI
            case .fireWire: SE_PortFireWire
            case .displayPort: SE_PortDisplayPort
            case .avb: SE_PortAVB
            case .thunderbolt: SE_PortThunderbolt
            }
        return SE_PortType(value)
    }
}

extension InterruptionSource {
    var c: SE_InterruptionSource {
        let value: Int =
            switch self {
            case .serverCorkRequest: SE_InterruptionSourceServerCorkRequest
            case .phoneCall: SE_InterruptionSourcePhoneCall
            case .otherMedia: SE_InterruptionSourceOtherMedia
            case .microphoneMuted: SE_InterruptionSourceMicrophoneMuted
            }
        return SE_InterruptionSource(value)
    }
}

extension Interruption {
    var c: SE_Interruption {
        SE_Interruption(
            type: UInt32(type.rawValue), should_resume: shouldResume, reason: UInt32(reason?.rawValue ?? 0),
            source: source?.c ?? SE_InterruptionSource(SE_InterruptionSourceNone))
    }
}

extension EngineState {
    /// The state and the pause reason.
    var c: (SE_EngineState, SE_PauseReason) {
        let state: Int
        let reason: Int
        switch self {
        case .running: (state, reason) = (SE_EngineStateRunning, SE_PauseReasonNone)
        case .stopped: (state, reason) = (SE_EngineStateStopped, SE_PauseReasonNone)
        case .paused(let why):
            state = SE_EngineStatePaused
            switch why {
            case .notConnected: reason = SE_PauseReasonNotConnected
            case .mediaServicesLost: reason = SE_PauseReasonMediaServicesLost
            case .sessionInactive: reason = SE_PauseReasonSessionInactive
            case .interrupted: reason = SE_PauseReasonInterrupted
            case .appInBackground: reason = SE_PauseReasonAppInBackground
            case .suspendedByGame(let renderAnyway):
                reason = renderAnyway ? SE_PauseReasonSuspendedByGameRenderAnyway : SE_PauseReasonSuspendedByGame
            }
        }
        return (SE_EngineState(state), SE_PauseReason(reason))
    }
}
