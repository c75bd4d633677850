public import CSoundEngineABI
import SoundEngine
import SoundEffects
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

// Buses, meters and statistics: the façade's calls, reached from C. Bus IDs
// are the mixer's bus indices (SE_MASTER_BUS = 0).

@c @implementation
public func se_get_bus_id(_ name: UnsafePointer<CChar>?, _ bus: UnsafeMutablePointer<UInt32>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(name, "name")
        let out = try Argument.required(bus, "bus")
        guard let id = try SoundEngine.bus(named: name) else { throw .idNotFound("bus '\(name)'") }
        out.pointee = id.index
    }
}

@c @implementation
public func se_create_bus(_ name: UnsafePointer<CChar>?, _ parent: UInt32, _ bus: UnsafeMutablePointer<UInt32>?)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let name = try Argument.string(name, "name")
        let out = try Argument.required(bus, "bus")
        out.pointee = try withHandles { () throws(SoundEngineError) in
            try SoundEngine.createBus(name: name, parent: BusID(index: parent)).index
        }
    }
}

@c @implementation
public func se_set_bus_volume(_ bus: UInt32, _ volume: Float, _ ramp_ms: Int32) -> SE_Result {
    report { () throws(SoundEngineError) in
        try Argument.finite(volume, "volume")
        let time = try Argument.milliseconds(ramp_ms, "ramp_ms")
        try withHandles { () throws(SoundEngineError) in
            try SoundEngine.setBusVolume(BusID(index: bus), volume, ramp: time)
        }
    }
}

@c @implementation
public func se_set_bus_mute(_ bus: UInt32, _ muted: Bool, _ ramp_ms: Int32) -> SE_Result {
    report { () throws(SoundEngineError) in
        let time = try Argument.milliseconds(ramp_ms, "ramp_ms")
        try withHandles { () throws(SoundEngineError) in
            try SoundEngine.setBus(BusID(index: bus), muted: muted, ramp: time)
        }
    }
}

@c @implementation
public func se_set_bus_mute_for_background_music(_ bus: UInt32, _ mute_for_background_music: Bool) -> SE_Result {
    report { () throws(SoundEngineError) in
        try withHandles { () throws(SoundEngineError) in
            try SoundEngine.setBus(BusID(index: bus), mutedForBackgroundMusic: mute_for_background_music)
        }
    }
}

@c @implementation
public func se_get_bus_meter(_ bus: UInt32, _ meter: UnsafeMutablePointer<SE_BusMeter>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(meter, "meter")
        let limit = try SoundEngine.current.settings.maxBuses
        guard Int(bus) < limit else {
            throw Argument.invalid(#function, "bus \(bus) does not exist (InitSettings.max_buses = \(limit))")
        }
        let reading = try SoundEngine.meter(BusID(index: bus))
        out.pointee = SE_BusMeter(peak: reading.peak, rms: reading.rms)
    }
}

@c @implementation
public func se_set_bus_meter_callback(_ bus: UInt32, _ callback: SE_BusMeterCallback?, _ cookie: UnsafeMutableRawPointer?)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        var handler: (@Sendable (BusMeter) -> Void)? = nil
        if let c = CCallback(callback, cookie) {
            handler = { reading in
                var meter = SE_BusMeter(peak: reading.peak, rms: reading.rms)
                c.function(bus, &meter, c.cookie)
            }
        }
        try withHandles { () throws(SoundEngineError) in try SoundEngine.setBusMeterCallback(BusID(index: bus), handler) }
    }
}

@c @implementation
public func se_get_statistics(_ statistics: UnsafeMutablePointer<SE_Statistics>?, _ struct_size: Int) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(statistics, "statistics")
        try Argument.structSize(struct_size, of: SE_Statistics.self)
        let s = try SoundEngine.statistics
        out.pointee = SE_Statistics(
            struct_size: UInt32(MemoryLayout<SE_Statistics>.stride),
            voices_active: UInt32(clamping: s.voicesActive), voices_virtual: UInt32(clamping: s.voicesVirtual),
            commands_queued: s.commandsQueued, commands_processed: s.commandsProcessed,
            commands_rejected: s.commandsRejected, quanta_rendered: s.quantaRendered,
            starvations: s.starvations, events_dropped: s.eventsDropped,
            frames_rendered: s.framesRendered, underflows: s.underflows, reconnects: s.reconnects)
    }
}

@c @implementation
public func se_set_bus_effect(
    _ bus: UInt32, _ index: UInt32, _ type: SE_EffectType, _ parameters: UnsafePointer<CChar>?, _ sidechain_bus: UInt32
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let kinds: [UInt32: EffectKind?] = [
            UInt32(SE_EffectNone.rawValue): nil, UInt32(SE_EffectParametricEQ.rawValue): .parametricEQ,
            UInt32(SE_EffectCompressor.rawValue): .compressor, UInt32(SE_EffectLimiter.rawValue): .limiter,
            UInt32(SE_EffectDelay.rawValue): .delay, UInt32(SE_EffectReverb.rawValue): .reverb,
        ]
        guard let kind = kinds[UInt32(type.rawValue)] else {
            throw Argument.notListed(UInt32(type.rawValue), "type", "SE_EffectType")
        }
        let settings = try Argument.optionalString(parameters, "parameters") ?? ""
        let key = sidechain_bus == SE_NO_BUS ? nil : BusID(index: sidechain_bus)
        try withHandles { () throws(SoundEngineError) in
            try SoundEngine.current.setBusEffect(
                BusID(index: bus), index: Int(index), kind: kind, settings: settings, sidechain: key)
        }
    }
}

@c @implementation
public func se_set_bus_effect_parameter(
    _ bus: UInt32, _ index: UInt32, _ name: UnsafePointer<CChar>?, _ value: Float, _ ramp_ms: Int32
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let parameter = try Argument.string(name, "name")
        try Argument.finite(value, "value")
        let time = try Argument.milliseconds(ramp_ms, "ramp_ms")
        try withHandles { () throws(SoundEngineError) in
            try SoundEngine.setBusEffectParameter(BusID(index: bus), index: Int(index), parameter, value, ramp: time)
        }
    }
}
