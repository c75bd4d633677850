public import CSoundEngineABI
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

// Banks, game objects, events, RTPCs, states and switches: the Wwise calls
// of the static façade (SoundEngine+Content.swift), reached from C.

// MARK: Banks and IDs

@c @implementation
public func se_load_bank(_ path: UnsafePointer<CChar>?, _ bank_id: UnsafeMutablePointer<UInt32>?) -> SE_Result {
    loadBank(path, 0, bank_id)
}

@c @implementation
public func se_load_bank_with_options(
    _ path: UnsafePointer<CChar>?, _ flags: SE_BankLoadFlags, _ bank_id: UnsafeMutablePointer<UInt32>?
) -> SE_Result {
    loadBank(path, flags, bank_id)
}

/// se_load_bank and se_load_bank_with_options, each naming itself in its errors.
private func loadBank(
    _ path: UnsafePointer<CChar>?, _ flags: SE_BankLoadFlags, _ bank_id: UnsafeMutablePointer<UInt32>?,
    _ function: StaticString = #function
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let path = try Argument.string(path, "path", function)
        let outside = UInt32(SE_BankLoadAllowFilesOutsideBankFolder)
        try Argument.mask(flags, known: outside, "flags", function)
        let out = try Argument.required(bank_id, "bank_id", function)
        out.pointee = try SoundEngine.loadBank(path: path, allowFilesOutsideBankFolder: flags & outside != 0).rawValue
    }
}

@c @implementation
public func se_unload_bank(_ bank_id: UInt32) -> SE_Result {
    report { () throws(SoundEngineError) in
        try withHandles { () throws(SoundEngineError) in
            try SoundEngine.unloadBank(BankID(rawValue: bank_id))
        }
    }
}

@c @implementation
public func se_get_id_from_string(_ name: UnsafePointer<CChar>?, _ id: UnsafeMutablePointer<UInt32>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(name, "name")
        try Argument.required(id, "id").pointee = SoundEngine.ContentReference(name).id
    }
}

// MARK: Game objects

@c @implementation
public func se_register_game_object(_ game_object: UInt64, _ name: UnsafePointer<CChar>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let object = try Argument.gameObject(game_object)
        let name = try Argument.optionalString(name, "name")
        try SoundEngine.registerGameObject(object, name: name)
    }
}

@c @implementation
public func se_unregister_game_object(_ game_object: UInt64) -> SE_Result {
    report { () throws(SoundEngineError) in
        let object = try Argument.gameObject(game_object)
        try withHandles { () throws(SoundEngineError) in try SoundEngine.unregisterGameObject(object) }
    }
}

@c @implementation
public func se_set_position(_ game_object: UInt64, _ transform: UnsafePointer<SE_Transform>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let object = try Argument.gameObject(game_object)
        let t = try Argument.required(transform, "transform").pointee
        let position = try Vector3(t.position, "transform->position")
        let orientation = Orientation(
            front: try Vector3(t.orientation_front, "transform->orientation_front"),
            top: try Vector3(t.orientation_top, "transform->orientation_top"))
        try withHandles { () throws(SoundEngineError) in
            try SoundEngine.setPosition(object, position, orientation: orientation)
        }
    }
}

extension Vector3 {
    /// `v`, whose components must be finite.
    fileprivate init(_ v: SE_Vector3, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError)
    {
        guard v.x.isFinite, v.y.isFinite, v.z.isFinite else {
            throw Argument.invalid(function, "\(name) = (\(v.x), \(v.y), \(v.z)): must be finite")
        }
        self.init(x: v.x, y: v.y, z: v.z)
    }
}

@c @implementation
public func se_set_default_listeners(_ listeners: UnsafePointer<UInt64>?, _ count: UInt32) -> SE_Result {
    report { () throws(SoundEngineError) in
        guard count <= 256 else { throw Argument.invalid(#function, "count = \(count): at most 256 listeners") }
        var objects: [GameObjectID] = []
        if count > 0 {
            let list = try Argument.required(listeners, "listeners")
            for i in 0..<Int(count) { objects.append(try Argument.gameObject(list[i], "listeners[i]")) }
        }
        try withHandles { () throws(SoundEngineError) in try SoundEngine.setDefaultListeners(objects) }
    }
}

@c @implementation
public func se_set_game_object_aux_send_values(
    _ gameObject: UInt64, _ sends: UnsafePointer<SE_AuxSend>?, _ count: UInt32
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let object = try Argument.gameObject(gameObject)
        guard count <= 4 else { throw Argument.invalid(#function, "count = \(count): at most 4 aux sends") }
        var list: [SoundEngine.AuxSend] = []
        if count > 0 {
            let given = try Argument.required(sends, "sends")
            for i in 0..<Int(count) {
                let send = given[i]
                let bus: SoundEngine.ContentReference =
                    if let name = try Argument.optionalString(send.bus_name, "sends[i].bus_name") { .name(name) }
                    else { .id(send.bus_id) }
                try Argument.finite(send.level, "sends[i].level")
                list.append(SoundEngine.AuxSend(bus: bus, level: send.level))
            }
        }
        try withHandles { () throws(SoundEngineError) in try SoundEngine.setGameObjectAuxSendValues(object, list) }
    }
}

// MARK: Events

/// The Swift event callback that tells the C one what `flags` ask for;
/// `nil` when nothing is asked (no closure, no cost).
private func eventCallback(
    _ flags: SE_CallbackType, _ callback: SE_EventCallback?, _ cookie: UnsafeMutableRawPointer?,
    _ object: GameObjectID, _ function: StaticString
) throws(SoundEngineError) -> (@Sendable (SoundEngine.CallbackInfo) -> Void)? {
    let end = UInt32(SE_CallbackEndOfEvent)
    let marker = UInt32(SE_CallbackMarker)
    let failed = UInt32(SE_CallbackVoiceFailed)
    let duration = UInt32(SE_CallbackDuration)
    try Argument.mask(flags, known: end | marker | failed | duration, "callback_flags", function)
    guard flags != 0, let c = CCallback(callback, cookie) else { return nil }
    return { event in
        switch event {
        case .endOfEvent(let playing):
            guard flags & end != 0 else { return }
            var info = SE_EventCallbackInfo(
                type: end, playing_id: UInt32(truncatingIfNeeded: playing.rawValue), game_object: object.rawValue, marker_name: nil,
                sound_name: nil, result: SE_Result(SE_Success), message: nil, duration_ms: 0, streaming: false)
            c.function(&info, c.cookie)
        case .marker(let playing, let name, let sound):
            guard flags & marker != 0 else { return }
            name.withCString { name in
                sound.withCString { sound in
                    var info = SE_EventCallbackInfo(
                        type: marker, playing_id: UInt32(truncatingIfNeeded: playing.rawValue), game_object: object.rawValue, marker_name: name,
                        sound_name: sound, result: SE_Result(SE_Success), message: nil, duration_ms: 0,
                        streaming: false)
                    c.function(&info, c.cookie)
                }
            }
        case .voiceFailed(let playing, let error):
            guard flags & failed != 0 else { return }
            error.reason.withCString { message in
                var info = SE_EventCallbackInfo(
                    type: failed, playing_id: UInt32(truncatingIfNeeded: playing.rawValue), game_object: object.rawValue,
                    marker_name: nil, sound_name: nil, result: error.akResult, message: message, duration_ms: 0,
                    streaming: false)
                c.function(&info, c.cookie)
            }
        case .duration(let playing, let sound, let length, let streaming):
            guard flags & duration != 0 else { return }
            sound.withCString { sound in
                var info = SE_EventCallbackInfo(
                    type: duration, playing_id: UInt32(truncatingIfNeeded: playing.rawValue),
                    game_object: object.rawValue, marker_name: nil, sound_name: sound, result: SE_Result(SE_Success),
                    message: nil, duration_ms: length.map { TimeArgument.seconds($0) * 1000 } ?? -1,
                    streaming: streaming)
                c.function(&info, c.cookie)
            }
        }
    }
}

@c @implementation
public func se_post_event(
    _ event_name: UnsafePointer<CChar>?, _ game_object: UInt64, _ callback_flags: SE_CallbackType,
    _ callback: SE_EventCallback?, _ cookie: UnsafeMutableRawPointer?, _ playing_id: UnsafeMutablePointer<UInt32>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let event = try Argument.string(event_name, "event_name")
        let object = try Argument.gameObject(game_object)
        let out = try Argument.required(playing_id, "playing_id")
        let callback = try eventCallback(callback_flags, callback, cookie, object, #function)
        out.pointee = try withGameObject(object) { () throws(SoundEngineError) in
            UInt32(
                truncatingIfNeeded: try SoundEngine.postEvent(
                    .init(event), on: object, callbackTypes: SoundEngine.CallbackTypes(rawValue: callback_flags), callback: callback
                ).rawValue)
        }
    }
}

@c @implementation
public func se_post_event_by_id(
    _ event_id: UInt32, _ game_object: UInt64, _ callback_flags: SE_CallbackType, _ callback: SE_EventCallback?,
    _ cookie: UnsafeMutableRawPointer?, _ playing_id: UnsafeMutablePointer<UInt32>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let object = try Argument.gameObject(game_object)
        let out = try Argument.required(playing_id, "playing_id")
        let callback = try eventCallback(callback_flags, callback, cookie, object, #function)
        out.pointee = try withGameObject(object) { () throws(SoundEngineError) in
            UInt32(
                truncatingIfNeeded: try SoundEngine.postEvent(
                    .id(event_id), on: object, callbackTypes: SoundEngine.CallbackTypes(rawValue: callback_flags), callback: callback
                ).rawValue)
        }
    }
}

@c @implementation
public func se_stop_playing_id(_ playing_id: UInt32, _ fade_out_ms: Int32) -> SE_Result {
    onPosting(playing_id, fade_out_ms, "fade_out_ms") { id, fade throws(SoundEngineError) in
        try SoundEngine.stop(id, fade: fade)
    }
}

@c @implementation
public func se_stop_all(_ fade_out_ms: Int32) -> SE_Result {
    report { () throws(SoundEngineError) in
        try SoundEngine.stopAll(fade: Argument.milliseconds(fade_out_ms, "fade_out_ms"))
    }
}

@c @implementation
public func se_stop_all_on_game_object(_ game_object: UInt64, _ fade_out_ms: Int32) -> SE_Result {
    report { () throws(SoundEngineError) in
        let object = try Argument.gameObject(game_object)
        let fade = try Argument.milliseconds(fade_out_ms, "fade_out_ms")
        try withHandles { () throws(SoundEngineError) in try SoundEngine.stopAll(on: object, fade: fade) }
    }
}

@c @implementation
public func se_is_playing(_ playing_id: UInt32) -> Bool {
    playing_id != 0 && (try? SoundEngine.isPlaying(PlayingID(posting: playing_id))) == true
}

/// A posting's ID from C: 0 names none. Checks the argument only; the
/// call checks ``issued(_:_:)`` once every other argument has passed.
private func posting(_ playing_id: UInt32, _ function: StaticString = #function) throws(SoundEngineError) -> PlayingID {
    guard playing_id != 0 else { throw Argument.invalid(function, "playing_id 0 is never a posting") }
    return PlayingID(posting: playing_id)
}

/// `id`, once the running engine has handed it out to a posting: a playing
/// ID no posting of this engine ever had is a made-up handle
/// (SE_InvalidParameter), while one that has ended is not (docs/c-api.md,
/// "Handles": calls that act on it ignore it, readers say SE_IDNotFound).
/// With no engine: SE_NotInitialized, as for every call.
private func issued(_ id: PlayingID, _ function: StaticString) throws(SoundEngineError) -> PlayingID {
    if let last = try SoundEngine.current.unissued(posting: id) {
        throw Argument.invalid(
            function,
            "\(id) names no posting of this engine (it has posted \(last == 0 ? "none yet" : "1…\(last)"))")
    }
    return id
}

/// Runs `body` with the posting `playing_id` names and the time `ms`
/// checked; a posting that has ended is the engine's to ignore.
private func onPosting(
    _ playing_id: UInt32, _ ms: Int32, _ name: StaticString, _ function: StaticString = #function,
    _ body: (PlayingID, Duration) throws(SoundEngineError) -> Void
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let id = try posting(playing_id, function)
        let time = try Argument.milliseconds(ms, name, function)
        try body(issued(id, function), time)
    }
}

@c @implementation
public func se_pause_playing_id(_ playing_id: UInt32, _ fade_ms: Int32) -> SE_Result {
    onPosting(playing_id, fade_ms, "fade_ms") { id, fade throws(SoundEngineError) in try SoundEngine.pause(id, fade: fade) }
}

@c @implementation
public func se_resume_playing_id(_ playing_id: UInt32, _ fade_ms: Int32) -> SE_Result {
    onPosting(playing_id, fade_ms, "fade_ms") { id, fade throws(SoundEngineError) in try SoundEngine.resume(id, fade: fade) }
}

@c @implementation
public func se_seek_on_playing_id(_ playing_id: UInt32, _ position_ms: Int32) -> SE_Result {
    onPosting(playing_id, position_ms, "position_ms") { id, position throws(SoundEngineError) in
        try SoundEngine.seek(id, to: position)
    }
}

@c @implementation
public func se_seek_on_playing_id_fraction(_ playing_id: UInt32, _ fraction: Float) -> SE_Result {
    report { () throws(SoundEngineError) in
        let id = try posting(playing_id)
        guard fraction.isFinite, fraction >= 0, fraction <= 1 else {
            throw Argument.invalid(#function, "fraction = \(fraction): must be 0…1")
        }
        try SoundEngine.seek(issued(id, #function), toFraction: Double(fraction))
    }
}

@c @implementation
public func se_get_source_play_position(_ playing_id: UInt32, _ position_ms: UnsafeMutablePointer<Int32>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let id = try posting(playing_id)
        let out = try Argument.required(position_ms, "position_ms")
        guard let position = try SoundEngine.playPosition(issued(id, #function)) else {
            throw .idNotFound("se_get_source_play_position: playing_id \(playing_id) has ended or has no voice yet")
        }
        out.pointee = Argument.milliseconds(position)
    }
}

// MARK: RTPCs

@c @implementation
public func se_set_rtpc_value(
    _ rtpc_name: UnsafePointer<CChar>?, _ value: Double, _ game_object: UInt64, _ interpolation_ms: Int32
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(rtpc_name, "rtpc_name")
        try Argument.finite(value, "value")
        let scope = try Argument.scope(game_object)
        let time = try Argument.milliseconds(interpolation_ms, "interpolation_ms")
        try withGameObject(scope) { () throws(SoundEngineError) in
            try SoundEngine.setRTPCValue(.init(name), value, on: scope, ramp: time)
        }
    }
}

@c @implementation
public func se_set_rtpc_value_by_id(_ rtpc_id: UInt32, _ value: Double, _ game_object: UInt64, _ interpolation_ms: Int32)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        try Argument.finite(value, "value")
        let scope = try Argument.scope(game_object)
        let time = try Argument.milliseconds(interpolation_ms, "interpolation_ms")
        try withGameObject(scope) { () throws(SoundEngineError) in
            try SoundEngine.setRTPCValue(.id(rtpc_id), value, on: scope, ramp: time)
        }
    }
}

@c @implementation
public func se_reset_rtpc_value(_ rtpc_name: UnsafePointer<CChar>?, _ game_object: UInt64) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(rtpc_name, "rtpc_name")
        let scope = try Argument.scope(game_object)
        try withGameObject(scope) { () throws(SoundEngineError) in
            try SoundEngine.resetRTPCValue(.init(name), on: scope)
        }
    }
}

@c @implementation
public func se_get_rtpc_value(
    _ rtpc_name: UnsafePointer<CChar>?, _ game_object: UInt64, _ value: UnsafeMutablePointer<Double>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(rtpc_name, "rtpc_name")
        let scope = try Argument.scope(game_object)
        let out = try Argument.required(value, "value")
        out.pointee = try withGameObject(scope) { () throws(SoundEngineError) in
            try SoundEngine.rtpcValue(.init(name), on: scope)
        }
    }
}

@c @implementation
public func se_set_rtpc_value_by_playing_id(
    _ rtpc_name: UnsafePointer<CChar>?, _ value: Double, _ playing_id: UInt32, _ interpolation_ms: Int32
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(rtpc_name, "rtpc_name")
        try Argument.finite(value, "value")
        let id = try posting(playing_id)
        let time = try Argument.milliseconds(interpolation_ms, "interpolation_ms")
        try SoundEngine.setRTPCValue(.init(name), value, on: issued(id, #function), ramp: time)
    }
}

@c @implementation
public func se_reset_rtpc_value_by_playing_id(_ rtpc_name: UnsafePointer<CChar>?, _ playing_id: UInt32) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(rtpc_name, "rtpc_name")
        let id = try posting(playing_id)
        try SoundEngine.resetRTPCValue(.init(name), on: issued(id, #function))
    }
}

@c @implementation
public func se_get_rtpc_value_by_playing_id(
    _ rtpc_name: UnsafePointer<CChar>?, _ playing_id: UInt32, _ value: UnsafeMutablePointer<Double>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(rtpc_name, "rtpc_name")
        let id = try posting(playing_id)
        let out = try Argument.required(value, "value")
        out.pointee = try SoundEngine.rtpcValue(.init(name), on: issued(id, #function))
    }
}

// MARK: States and switches

@c @implementation
public func se_set_state(_ state_group: UnsafePointer<CChar>?, _ state: UnsafePointer<CChar>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let group = try Argument.string(state_group, "state_group")
        let state = try Argument.string(state, "state")
        try SoundEngine.setState(.init(group), .init(state))
    }
}

@c @implementation
public func se_set_state_by_id(_ state_group_id: UInt32, _ state_id: UInt32) -> SE_Result {
    report { () throws(SoundEngineError) in
        try SoundEngine.setState(.id(state_group_id), .id(state_id))
    }
}

@c @implementation
public func se_get_state(_ state_group: UnsafePointer<CChar>?, _ state_id: UnsafeMutablePointer<UInt32>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let group = try Argument.string(state_group, "state_group")
        let out = try Argument.required(state_id, "state_id")
        out.pointee = SoundEngine.ContentReference(try SoundEngine.currentState(.init(group))).id
    }
}

@c @implementation
public func se_set_switch(
    _ switch_group: UnsafePointer<CChar>?, _ switch_value: UnsafePointer<CChar>?, _ game_object: UInt64
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let group = try Argument.string(switch_group, "switch_group")
        let value = try Argument.string(switch_value, "switch_value")
        let object = try Argument.gameObject(game_object)
        try withGameObject(object) { () throws(SoundEngineError) in
            try SoundEngine.setSwitch(.init(group), .init(value), on: object)
        }
    }
}

@c @implementation
public func se_set_switch_by_id(_ switch_group_id: UInt32, _ switch_value_id: UInt32, _ game_object: UInt64)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let object = try Argument.gameObject(game_object)
        try withGameObject(object) { () throws(SoundEngineError) in
            try SoundEngine.setSwitch(.id(switch_group_id), .id(switch_value_id), on: object)
        }
    }
}

@c @implementation
public func se_get_switch(
    _ switch_group: UnsafePointer<CChar>?, _ game_object: UInt64, _ switch_value_id: UnsafeMutablePointer<UInt32>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let group = try Argument.string(switch_group, "switch_group")
        let object = try Argument.gameObject(game_object)
        let out = try Argument.required(switch_value_id, "switch_value_id")
        out.pointee = try withGameObject(object) { () throws(SoundEngineError) in
            SoundEngine.ContentReference(try SoundEngine.switchValue(.init(group), on: object)).id
        }
    }
}
