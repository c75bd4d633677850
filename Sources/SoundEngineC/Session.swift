public import CSoundEngineABI
import Glibc
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

// The audio session (SoundEngine.audioSession and the façade's session
// calls), reached from C.

@c @implementation
public func se_change_audio_session_properties(_ properties: UnsafePointer<SE_AudioSessionProperties>?)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let configuration = try SessionConfiguration(Argument.required(properties, "properties").pointee)
        try SoundEngine.changeAudioSessionProperties(configuration)
    }
}

@c @implementation
public func se_set_audio_session_active(_ active: Bool, _ options: SE_AudioSessionSetActiveOptions) -> SE_Result {
    report { () throws(SoundEngineError) in
        try Argument.mask(options, known: 0x1, "options")
        try SoundEngine.audioSession.setActive(active, options: SetActiveOptions(rawValue: UInt(options)))
    }
}

@c @implementation
public func se_override_output_audio_port(_ port_override: SE_AudioSessionPortOverride) -> SE_Result {
    report { () throws(SoundEngineError) in
        guard let value = PortOverride(rawValue: UInt(port_override)) else {
            throw Argument.notListed(port_override, "port_override", "SE_AudioSessionPortOverride")
        }
        try SoundEngine.audioSession.overrideOutputAudioPort(value)
    }
}

@c @implementation
public func se_set_preferred_input(_ uid: UnsafePointer<CChar>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let uid = try Argument.optionalString(uid, "uid")
        try SoundEngine.audioSession.setPreferredInput(uid: uid)
    }
}

@c @implementation
public func se_get_audio_session_status(_ status: UnsafeMutablePointer<SE_AudioSessionStatus>?, _ struct_size: Int)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let out = try Argument.required(status, "status")
        try Argument.structSize(
            struct_size, of: SE_AudioSessionStatus.self)
        let session = try SoundEngine.audioSession
        let (state, reason) = try SoundEngine.status.c
        out.pointee = SE_AudioSessionStatus(
            struct_size: UInt32(MemoryLayout<SE_AudioSessionStatus>.stride), properties: session.configuration.c,
            is_active: session.isActive, is_interrupted: session.isInterrupted,
            is_other_audio_playing: session.isOtherAudioPlaying,
            secondary_audio_should_be_silenced_hint: session.secondaryAudioShouldBeSilencedHint,
            is_input_available: session.isInputAvailable, is_input_muted: session.isInputMuted,
            output_port_override: SE_AudioSessionPortOverride(session.outputPortOverride.rawValue),
            engine_state: state, pause_reason: reason)
    }
}

@c @implementation
public func se_get_current_route(_ route: UnsafeMutablePointer<UnsafeMutablePointer<SE_Route>?>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(route, "route")
        out.pointee = nil
        let current = try SoundEngine.audioSession.currentRoute
        guard let block = RouteBlock.make(current) else {
            throw .insufficientMemory("se_get_current_route: no memory for the route")
        }
        out.pointee = block
    }
}

@c @implementation
public func se_free_route(_ route: UnsafeMutablePointer<SE_Route>?) {
    free(route)
}

@c @implementation
public func se_mute_background_music(_ mute: Bool) -> SE_Result {
    report { () throws(SoundEngineError) in try SoundEngine.muteBackgroundMusic(mute) }
}

@c @implementation
public func se_is_background_music_muted() -> Bool {
    (try? SoundEngine.isBackgroundMusicMuted) == true
}

@c @implementation
public func se_get_output_devices(_ devices: UnsafeMutablePointer<UnsafeMutablePointer<SE_Route>?>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(devices, "devices")
        out.pointee = nil
        let outputs = try SoundEngine.audioSession.outputDevices
        guard let block = RouteBlock.make(RouteDescription(outputs: outputs)) else {
            throw .insufficientMemory("se_get_output_devices: no memory for the list")
        }
        out.pointee = block
    }
}

@c @implementation
public func se_pin_output(_ uid: UnsafePointer<CChar>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let uid = try Argument.optionalString(uid, "uid")
        try SoundEngine.audioSession.pinOutput(uid.map { .device(uid: $0) } ?? .systemDefault)
    }
}
