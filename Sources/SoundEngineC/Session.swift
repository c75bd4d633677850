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

extension SE_AudioSessionStatus: GrowingStruct {
    /// 1.1 added the echo-cancellation fields.
    static let versions = [current, before(\SE_AudioSessionStatus.is_echo_cancellation_requested)]
}

@c @implementation
public func se_get_audio_session_status(_ status: UnsafeMutablePointer<SE_AudioSessionStatus>?, _ struct_size: Int)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let out = try Argument.required(status, "status")
        _ = try Argument.fieldBytes(struct_size, of: SE_AudioSessionStatus.self)
        let session = try SoundEngine.audioSession
        let (state, reason) = try SoundEngine.status.c
        let value = SE_AudioSessionStatus(
            struct_size: UInt32(MemoryLayout<SE_AudioSessionStatus>.stride), properties: session.configuration.c,
            is_active: session.isActive, is_interrupted: session.isInterrupted,
            is_other_audio_playing: session.isOtherAudioPlaying,
            secondary_audio_should_be_silenced_hint: session.secondaryAudioShouldBeSilencedHint,
            is_input_available: session.isInputAvailable, is_input_muted: session.isInputMuted,
            output_port_override: SE_AudioSessionPortOverride(session.outputPortOverride.rawValue),
            engine_state: state, pause_reason: reason,
            is_echo_cancellation_requested: session.isEchoCancellationRequested,
            is_echo_cancellation_available: session.isEchoCancellationAvailable)
        try Argument.write(value, to: out, size: struct_size)
    }
}

/// Hands the game `route` as one block (RouteBlock) through `pointer`,
/// which is NULL on every failure.
private func giveRoute(
    _ pointer: UnsafeMutablePointer<UnsafeMutablePointer<SE_Route>?>?, _ name: StaticString,
    _ function: StaticString = #function, _ route: () throws(SoundEngineError) -> RouteDescription
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(pointer, name, function)
        out.pointee = nil
        guard let block = RouteBlock.make(try route()) else {
            throw .insufficientMemory("\("\(function)".prefix { $0 != "(" }): no memory for the list of ports")
        }
        out.pointee = block
    }
}

@c @implementation
public func se_get_current_route(_ route: UnsafeMutablePointer<UnsafeMutablePointer<SE_Route>?>?) -> SE_Result {
    giveRoute(route, "route") { () throws(SoundEngineError) in try SoundEngine.audioSession.currentRoute }
}

@c @implementation
public func se_get_available_inputs(_ inputs: UnsafeMutablePointer<UnsafeMutablePointer<SE_Route>?>?) -> SE_Result {
    giveRoute(inputs, "inputs") { () throws(SoundEngineError) in
        RouteDescription(inputs: try SoundEngine.audioSession.availableInputs)
    }
}

@c @implementation
public func se_get_preferred_input(_ input: UnsafeMutablePointer<UnsafeMutablePointer<SE_Route>?>?) -> SE_Result {
    giveRoute(input, "input") { () throws(SoundEngineError) in
        RouteDescription(inputs: try SoundEngine.audioSession.preferredInput.map { [$0] } ?? [])
    }
}

@c @implementation
public func se_get_pinned_output(_ uid: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ length: UnsafeMutablePointer<Int>?)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let lengthOut = try Argument.required(length, "length")
        // size_t arrives as Int's bit pattern.
        let room = UInt(bitPattern: capacity)
        guard uid != nil || room == 0 else { throw Argument.invalid(#function, "uid is NULL but capacity is \(room)") }
        let pinned: String
        switch try SoundEngine.audioSession.pinnedOutput {
        case .systemDefault: pinned = ""
        case .device(let id): pinned = id
        }
        let bytes = Array(pinned.utf8)
        lengthOut.pointee = bytes.count
        guard let uid else { return }
        guard UInt(bytes.count) < room else {
            throw Argument.invalid(
                #function, "capacity = \(room): the pinned uid needs \(bytes.count + 1) bytes with its terminator")
        }
        for (i, byte) in bytes.enumerated() { uid[i] = CChar(bitPattern: byte) }
        uid[bytes.count] = 0
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
    giveRoute(devices, "devices") { () throws(SoundEngineError) in
        RouteDescription(outputs: try SoundEngine.audioSession.outputDevices)
    }
}

@c @implementation
public func se_pin_output(_ uid: UnsafePointer<CChar>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let uid = try Argument.optionalString(uid, "uid")
        try SoundEngine.audioSession.pinOutput(uid.map { .device(uid: $0) } ?? .systemDefault)
    }
}

@c @implementation
public func se_get_output_latency(_ latency_ms: UnsafeMutablePointer<Double>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(latency_ms, "latency_ms")
        out.pointee = try SoundEngine.outputLatency.map { TimeArgument.seconds($0) * 1000 } ?? -1
    }
}

@c @implementation
public func se_read_input(_ samples: UnsafeMutablePointer<Float>?, _ frame_capacity: Int, _ frames_read: UnsafeMutablePointer<Int>?)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let out = try Argument.required(frames_read, "frames_read")
        // size_t arrives as Int's bit pattern: a huge one is negative here.
        guard frame_capacity >= 0 else {
            throw Argument.invalid(
                #function, "frame_capacity = \(UInt(bitPattern: frame_capacity)): must be at most \(Int.max)")
        }
        guard samples != nil || frame_capacity == 0 else {
            throw Argument.invalid(#function, "samples is NULL but frame_capacity is \(frame_capacity)")
        }
        let channels = try SoundEngine.current.platformSettings.inputChannelCount
        let (count, overflow) = frame_capacity.multipliedReportingOverflow(by: channels)
        guard !overflow else {
            throw Argument.invalid(
                #function, "frame_capacity = \(frame_capacity): frames of \(channels) channels are more floats than memory holds")
        }
        guard let samples, count > 0 else {
            out.pointee = 0
            return
        }
        out.pointee = try SoundEngine.readInput(into: UnsafeMutableBufferPointer(start: samples, count: count))
    }
}
