public import CSoundEngineABI
import Dispatch
import Glibc
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession
import Synchronization

// Sounds and voices: the façade's playback calls, reached from C. Sound and
// voice handles are Handles' 64-bit encodings.

extension SE_VoiceParameters: GrowingStruct {
    /// 1.1 added `delay_ms` and `quality`.
    static let versions = [current, before(\SE_VoiceParameters.delay_ms)]

    /// The defaults: those of the Swift API's PlayParameters().
    static var defaults: SE_VoiceParameters {
        let d = SoundEngine.PlayParameters()
        return SE_VoiceParameters(
            struct_size: UInt32(MemoryLayout<SE_VoiceParameters>.stride), volume: d.volume, pan: d.pan, pitch: d.pitch,
            loop: d.loop, fade_in_ms: 0, low_pass_hz: d.lowPassHz ?? 0, priority: Int32(d.priority),
            virtual_behavior: SE_VirtualBehavior(SE_VirtualBehaviorKill), delay_ms: 0,
            quality: SE_ResamplerQuality(SE_ResamplerQualityDefault))
    }
}

/// The Swift quality an SE_ResamplerQuality names; `nil` for SE_ResamplerQualityDefault.
func resamplerQuality(_ value: SE_ResamplerQuality, _ name: StaticString, _ function: StaticString)
    throws(SoundEngineError) -> ResamplerQuality?
{
    switch Int(value) {
    case SE_ResamplerQualityDefault: return nil
    case SE_ResamplerQualityLinear: return .linear
    case SE_ResamplerQualityCubic: return .cubic
    case SE_ResamplerQualitySinc: return .sinc
    default: throw Argument.notListed(value, name, "SE_ResamplerQuality", function)
    }
}

extension SoundEngine.PlayParameters {
    /// The parameters `p` asks for (read by ``Argument/grown(_:_:defaults:_:)``);
    /// the engine checks their ranges.
    fileprivate init(_ p: SE_VoiceParameters, _ function: StaticString = #function) throws(SoundEngineError) {
        try Argument.finite(p.volume, "parameters->volume", function)
        try Argument.finite(p.pan, "parameters->pan", function)
        try Argument.finite(p.pitch, "parameters->pitch", function)
        try Argument.finite(p.low_pass_hz, "parameters->low_pass_hz", function)
        guard (0...100).contains(p.priority) else {
            throw Argument.invalid(function, "parameters->priority = \(p.priority): must be 0...100")
        }
        let behaviors: [SoundEngine.VirtualBehavior] = [.kill, .continue, .restart]
        guard Int(p.virtual_behavior) < behaviors.count else {
            throw Argument.notListed(p.virtual_behavior, "parameters->virtual_behavior", "SE_VirtualBehavior", function)
        }
        self.init(
            volume: p.volume, pan: p.pan, pitch: p.pitch, loop: p.loop,
            fadeIn: try Argument.milliseconds(p.fade_in_ms, "parameters->fade_in_ms", function),
            delay: try Argument.milliseconds(p.delay_ms, "parameters->delay_ms", function),
            quality: try resamplerQuality(p.quality, "parameters->quality", function),
            lowPassHz: p.low_pass_hz == 0 ? nil : p.low_pass_hz, priority: Int(p.priority),
            virtualBehavior: behaviors[Int(p.virtual_behavior)])
    }
}

@c @implementation
public func se_default_voice_parameters(_ parameters: UnsafeMutablePointer<SE_VoiceParameters>?, _ struct_size: Int)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let out = try Argument.required(parameters, "parameters")
        try Argument.write(SE_VoiceParameters.defaults, to: out, size: struct_size)
    }
}

// MARK: Sounds

extension SE_SoundOptions: GrowingStruct {
    static let versions = [current]
}

/// How a sound is loaded: its loop region (`nil`: it cannot loop) and resampler.
private struct SoundOptions {
    var loop: LoopRegion? = .whole
    var quality: ResamplerQuality = .linear

    /// The options `pointer` asks for; NULL: the defaults.
    init(_ pointer: UnsafePointer<SE_SoundOptions>?, streaming: Bool, _ function: StaticString) throws(SoundEngineError) {
        guard pointer != nil else { return }
        let o = try Argument.grown(pointer, "options", defaults: SE_SoundOptions.defaults, function)
        quality = try resamplerQuality(o.quality, "options->quality", function) ?? .linear
        let region = LoopRegion(start: Int(o.loop_start_frame), end: o.loop_end_frame == 0 ? nil : Int(o.loop_end_frame))
        // A stream can always loop, whole: a region is for sounds in memory
        // (the mixer bakes it into their samples).
        guard !streaming || (o.loopable && region == .whole) else {
            throw Argument.invalid(
                function,
                "options: a streamed sound always loops whole (loopable true, loop_start_frame and loop_end_frame 0)")
        }
        guard o.loopable else {
            guard region == .whole else {
                throw Argument.invalid(function, "options: loop_start_frame and loop_end_frame must be 0 when loopable is false")
            }
            loop = nil
            return
        }
        loop = region
    }
}

extension SE_SoundOptions {
    static var defaults: SE_SoundOptions {
        SE_SoundOptions(
            struct_size: UInt32(MemoryLayout<SE_SoundOptions>.stride), loopable: true, loop_start_frame: 0,
            loop_end_frame: 0, quality: SE_ResamplerQuality(SE_ResamplerQualityDefault))
    }
}

@c @implementation
public func se_default_sound_options(_ options: UnsafeMutablePointer<SE_SoundOptions>?, _ struct_size: Int) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(options, "options")
        try Argument.write(SE_SoundOptions.defaults, to: out, size: struct_size)
    }
}

@c @implementation
public func se_load_sound(_ path: UnsafePointer<CChar>?, _ streaming: Bool, _ sound: UnsafeMutablePointer<UInt64>?)
    -> SE_Result
{
    loadSound(path, streaming, nil, sound)
}

@c @implementation
public func se_load_sound_with_options(
    _ path: UnsafePointer<CChar>?, _ streaming: Bool, _ options: UnsafePointer<SE_SoundOptions>?,
    _ sound: UnsafeMutablePointer<UInt64>?
) -> SE_Result {
    loadSound(path, streaming, options, sound)
}

/// se_load_sound and se_load_sound_with_options, each naming itself in its errors.
private func loadSound(
    _ path: UnsafePointer<CChar>?, _ streaming: Bool, _ options: UnsafePointer<SE_SoundOptions>?,
    _ sound: UnsafeMutablePointer<UInt64>?, _ function: StaticString = #function
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let path = try Argument.string(path, "path", function)
        let o = try SoundOptions(options, streaming: streaming, function)
        let out = try Argument.required(sound, "sound", function)
        out.pointee = Handles.sound(
            try SoundEngine.loadSound(path: path, streaming: streaming, loop: o.loop, quality: o.quality))
    }
}

@c @implementation
public func se_load_sound_from_memory(
    _ name: UnsafePointer<CChar>?, _ samples: UnsafePointer<Float>?, _ frame_count: Int, _ channel_count: UInt32,
    _ sample_rate: UInt32, _ options: UnsafePointer<SE_SoundOptions>?, _ sound: UnsafeMutablePointer<UInt64>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let name = try Argument.string(name, "name")
        let samples = try Argument.required(samples, "samples")
        // The engine's own limits, checked before anything is read or allocated.
        guard (1...1024).contains(channel_count) else {
            throw Argument.invalid(#function, "channel_count = \(channel_count): must be 1…1024")
        }
        guard (1000...768_000).contains(sample_rate) else {
            throw Argument.invalid(#function, "sample_rate = \(sample_rate): must be 1000…768000")
        }
        // size_t arrives as Int's bit pattern: a huge one is negative here.
        let maxSamples = Int(Int32.max)
        guard frame_count > 0, frame_count <= maxSamples / Int(channel_count) else {
            throw Argument.invalid(
                #function,
                "frame_count = \(UInt(bitPattern: frame_count)): must be 1…\(maxSamples / Int(channel_count)) for \(channel_count) channels (at most \(maxSamples) samples)")
        }
        let o = try SoundOptions(options, streaming: false, #function)
        let out = try Argument.required(sound, "sound")
        let count = frame_count * Int(channel_count)
        // The copy can need gigabytes: an allocation that fails is an error, not a trap.
        guard let probe = malloc(count * MemoryLayout<Float>.stride) else {
            throw .insufficientMemory("se_load_sound_from_memory: no memory to copy \(count) samples")
        }
        free(probe)
        let audio = SoundEngine.DecodedAudio(
            sampleRate: Int(sample_rate), channelCount: Int(channel_count),
            samples: Array(UnsafeBufferPointer(start: samples, count: count)))
        out.pointee = Handles.sound(try SoundEngine.loadSound(audio, name: name, loop: o.loop, quality: o.quality))
    }
}

@c @implementation
public func se_unload_sound(_ sound: UInt64) -> SE_Result {
    report { () throws(SoundEngineError) in
        let id = try Handles.soundID(sound)
        try withHandles { () throws(SoundEngineError) in try SoundEngine.unloadSound(id) }
    }
}

/// The handle of a voice being started, for its end callback: the voice can
/// end (and its callback run, on the event thread) before `play` has
/// returned its ID to the starting thread, so the callback waits the
/// moment it takes that thread to hand the ID over.
private final class PendingVoice: Sendable {
    private let handle = Mutex<UInt64>(0)
    private let handedOver = DispatchSemaphore(value: 0)

    func handOver(_ value: UInt64) {
        handle.withLock { $0 = value }
        handedOver.signal()
    }

    var value: UInt64 {
        handedOver.wait()
        handedOver.signal()  // a second read does not wait
        return handle.withLock { $0 }
    }
}

@c @implementation
public func se_play_sound(
    _ sound: UInt64, _ bus: UInt32, _ parameters: UnsafePointer<SE_VoiceParameters>?, _ callback: SE_VoiceEndCallback?,
    _ cookie: UnsafeMutableRawPointer?, _ voice: UnsafeMutablePointer<UInt64>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        // Optional: NULL plays with the defaults.
        let values = try parameters == nil
            ? SoundEngine.PlayParameters()
            : SoundEngine.PlayParameters(Argument.grown(parameters, "parameters", defaults: .defaults))
        let out = try Argument.required(voice, "voice")
        let id = try Handles.soundID(sound)
        guard let c = CCallback(callback, cookie) else {
            out.pointee = Handles.voice(
                try withHandles { () throws(SoundEngineError) in
                    try SoundEngine.play(id, on: BusID(index: bus), values)
                })
            return
        }
        let pending = PendingVoice()
        let failure = Mutex<SoundEngineError?>(nil)
        let started = try withHandles { () throws(SoundEngineError) in
            try SoundEngine.play(id, on: BusID(index: bus), values) { info in
                switch info {
                case .voiceFailed(_, let error): failure.withLock { $0 = error }
                case .endOfEvent:
                    if let error = failure.withLock({ $0 }) {
                        error.reason.withCString { c.function(pending.value, error.akResult, $0, c.cookie) }
                    } else {
                        c.function(pending.value, SE_Result(SE_Success), nil, c.cookie)
                    }
                case .marker, .duration: break
                }
            }
        }
        let handle = Handles.voice(started)
        pending.handOver(handle)
        out.pointee = handle
    }
}

/// Runs `body` with the voice `handle` names and the time `ms` checked,
/// after checking that `value` (a volume or pan, when given) is finite.
private func onVoice(
    _ handle: UInt64, _ ms: Int32, _ name: StaticString, finite value: (Float, StaticString)? = nil,
    _ function: StaticString = #function, _ body: (PlayingID, Duration) throws(SoundEngineError) -> Void
) -> SE_Result {
    report { () throws(SoundEngineError) in
        if let (value, valueName) = value { try Argument.finite(value, valueName, function) }
        let time = try Argument.milliseconds(ms, name, function)
        let id = try Handles.playing(handle, function)
        // Stopping, pausing or resuming an ended play is no error in Swift
        // (nothing is left to do); in C a handle that names nothing is.
        guard try SoundEngine.isPlaying(id) else {
            throw Argument.invalid(function, "voice 0x\(String(handle, radix: 16)) has ended")
        }
        try withHandles { () throws(SoundEngineError) in try body(id, time) }
    }
}

@c @implementation
public func se_stop_voice(_ voice: UInt64, _ fade_out_ms: Int32) -> SE_Result {
    onVoice(voice, fade_out_ms, "fade_out_ms") { id, fade throws(SoundEngineError) in
        try SoundEngine.stop(id, fade: fade)
    }
}

@c @implementation
public func se_pause_voice(_ voice: UInt64, _ fade_ms: Int32) -> SE_Result {
    onVoice(voice, fade_ms, "fade_ms") { id, fade throws(SoundEngineError) in try SoundEngine.pause(id, fade: fade) }
}

@c @implementation
public func se_resume_voice(_ voice: UInt64, _ fade_ms: Int32) -> SE_Result {
    onVoice(voice, fade_ms, "fade_ms") { id, fade throws(SoundEngineError) in try SoundEngine.resume(id, fade: fade) }
}

@c @implementation
public func se_seek_voice(_ voice: UInt64, _ position_ms: Int32) -> SE_Result {
    onVoice(voice, position_ms, "position_ms") { id, position throws(SoundEngineError) in
        try SoundEngine.seek(id, to: position)
    }
}

@c @implementation
public func se_seek_voice_fraction(_ voice: UInt64, _ fraction: Float) -> SE_Result {
    // The argument first: a bad fraction is refused with or without an engine.
    guard fraction.isFinite, fraction >= 0, fraction <= 1 else {
        return report { () throws(SoundEngineError) in
            throw Argument.invalid(#function, "fraction = \(fraction): must be 0…1")
        }
    }
    return onVoice(voice, 0, "") { id, _ throws(SoundEngineError) in
        try SoundEngine.seek(id, toFraction: Double(fraction))
    }
}

@c @implementation
public func se_get_voice_position(_ voice: UInt64, _ position_ms: UnsafeMutablePointer<Int32>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(position_ms, "position_ms")
        let id = try Handles.playing(voice)
        guard let position = try SoundEngine.playPosition(id) else {
            throw Argument.invalid(#function, "voice 0x\(String(voice, radix: 16)) has ended")
        }
        out.pointee = Argument.milliseconds(position)
    }
}

@c @implementation
public func se_set_voice_volume(_ voice: UInt64, _ volume: Float, _ ramp_ms: Int32) -> SE_Result {
    onVoice(voice, ramp_ms, "ramp_ms", finite: (volume, "volume")) { id, time throws(SoundEngineError) in
        try SoundEngine.setVolume(id, volume, ramp: time)
    }
}

@c @implementation
public func se_set_voice_pan(_ voice: UInt64, _ pan: Float, _ ramp_ms: Int32) -> SE_Result {
    onVoice(voice, ramp_ms, "ramp_ms", finite: (pan, "pan")) { id, time throws(SoundEngineError) in
        try SoundEngine.setPan(id, pan, ramp: time)
    }
}

@c @implementation
public func se_set_voice_low_pass(_ voice: UInt64, _ cutoff_hz: Float, _ ramp_ms: Int32) -> SE_Result {
    onVoice(voice, ramp_ms, "ramp_ms", finite: (cutoff_hz, "cutoff_hz")) { id, time throws(SoundEngineError) in
        try SoundEngine.setLowPass(id, cutoffHz: cutoff_hz == 0 ? nil : cutoff_hz, ramp: time)
    }
}

@c @implementation
public func se_set_voice_pitch(_ voice: UInt64, _ pitch: Double) -> SE_Result {
    report { () throws(SoundEngineError) in
        try Argument.finite(pitch, "pitch")
        let id = try Handles.playing(voice)
        try withHandles { () throws(SoundEngineError) in try SoundEngine.setPitch(id, pitch) }
    }
}

@c @implementation
public func se_is_voice_playing(_ voice: UInt64) -> Bool {
    guard let id = try? Handles.playing(voice) else { return false }
    return (try? SoundEngine.isPlaying(id)) == true
}
