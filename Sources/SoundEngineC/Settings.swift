public import CSoundEngineABI
import Glibc
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

// The two settings blocks between C and Swift. The C defaults are read from
// the Swift defaults (InitSettings(), PlatformInitSettings()), so the two
// APIs cannot disagree about them.

/// The default application name as a C string that lives as long as the
/// process (se_default_platform_init_settings points the struct at it).
/// `nonisolated(unsafe)`: written once by the lazy global initialiser,
/// which runs once; never written again, only read.
private nonisolated(unsafe) let defaultApplicationName: UnsafePointer<CChar>? = UnsafePointer(
    strdup(PlatformInitSettings().applicationName))

/// Fills `settings` with the defaults (Wwise GetDefaultInitSettings).
@c @implementation
public func se_default_init_settings(_ settings: UnsafeMutablePointer<SE_InitSettings>?, _ struct_size: Int)
    -> SE_Result
{
    report { () throws(SoundEngineError) in
        let out = try Argument.required(settings, "settings")
        try Argument.write(SE_InitSettings.defaults, to: out, size: struct_size)
    }
}

extension SE_InitSettings: GrowingStruct {
    /// `profiler` and `profiler_edits` came after `max_audible_voices`.
    static let versions = [current, before(\SE_InitSettings.profiler)]

    /// The defaults: those of the Swift API's InitSettings().
    static var defaults: SE_InitSettings {
        let d = InitSettings()
        return SE_InitSettings(
            struct_size: UInt32(MemoryLayout<SE_InitSettings>.stride), samples_per_frame: UInt32(d.samplesPerFrame),
            command_queue_size: UInt32(d.commandQueueSize), max_voices: UInt32(d.maxVoices),
            max_buses: UInt32(d.maxBuses), max_sounds: UInt32(d.maxSounds), max_streams: UInt32(d.maxStreams),
            master_limiter: d.masterLimiter, bgm_callback: nil, bgm_callback_cookie: nil, log_callback: nil,
            log_callback_cookie: nil, log_level: SE_LogLevel(LogLevel.warning.rawValue), max_audible_voices: 0,
            profiler: d.profiler.enabled, profiler_edits: d.profiler.allowsEdits)
    }
}

/// Fills `settings` with the defaults (Wwise GetDefaultPlatformInitSettings).
@c @implementation
public func se_default_platform_init_settings(
    _ settings: UnsafeMutablePointer<SE_PlatformInitSettings>?, _ struct_size: Int
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(settings, "settings")
        try Argument.structSize(
            struct_size, of: SE_PlatformInitSettings.self)
        let d = PlatformInitSettings()
        var p = SE_PlatformInitSettings()
        p.struct_size = UInt32(MemoryLayout<SE_PlatformInitSettings>.stride)
        p.sample_rate = UInt32(d.sampleRate)
        p.sample_format = SE_SampleFormat(d.sampleFormat == .int16 ? SE_SampleFormatInt16 : SE_SampleFormatFloat32)
        p.channel_count = UInt32(d.channelCount)
        p.input_channel_count = UInt32(d.inputChannelCount)
        p.audio_session = d.audioSession.c
        p.latency_target_frames = UInt32(d.latency.targetFrames)
        p.latency_request_frames = UInt32(d.latency.requestFrames)
        p.realtime_priority = d.realtimePriority ?? 0
        p.connect_timeout_ms = UInt32(milliseconds(d.connectTimeout))
        p.idle_cork_timeout_ms = d.idleCorkTimeout.map { UInt32(milliseconds($0)) } ?? 0
        p.application_name = defaultApplicationName
        p.crash_repair_guardian_process = d.crashRepair.guardianProcess
        out.pointee = p
    }
}

/// Whole milliseconds of a default (seconds-scale) duration.
private func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
}

extension InitSettings {
    /// The settings `s` asks for (read in its size by ``Argument/grown(_:_:defaults:_:)``);
    /// the engine checks their ranges.
    init(_ s: SE_InitSettings, _ function: StaticString = #function) throws(SoundEngineError) {
        self.init()
        samplesPerFrame = Int(s.samples_per_frame)
        commandQueueSize = Int(s.command_queue_size)
        maxVoices = Int(s.max_voices)
        maxAudibleVoices = s.max_audible_voices == 0 ? nil : Int(s.max_audible_voices)
        maxBuses = Int(s.max_buses)
        maxSounds = Int(s.max_sounds)
        maxStreams = Int(s.max_streams)
        masterLimiter = s.master_limiter
        profiler = ProfilerSettings(enabled: s.profiler, allowsEdits: s.profiler_edits)
        if let c = CCallback(s.bgm_callback, s.bgm_callback_cookie) {
            backgroundMusicCallback = { muted in c.function(muted, c.cookie) }
        }
        guard let level = LogLevel(rawValue: Int(s.log_level)) else {
            throw Argument.notListed(s.log_level, "settings->log_level", "SE_LogLevel", function)
        }
        if let c = CCallback(s.log_callback, s.log_callback_cookie) {
            logger = CLogger(callback: c, minimum: level)
        }
    }
}

extension PlatformInitSettings {
    /// The settings `p` asks for (its size checked by ``Argument/sized(_:_:_:)``);
    /// the engine checks their ranges.
    init(_ p: SE_PlatformInitSettings, _ function: StaticString = #function) throws(SoundEngineError) {
        self.init()
        sampleRate = Int(p.sample_rate)
        switch Int(p.sample_format) {
        case SE_SampleFormatFloat32: sampleFormat = .float32
        case SE_SampleFormatInt16: sampleFormat = .int16
        default: throw Argument.notListed(p.sample_format, "platform->sample_format", "SE_SampleFormat", function)
        }
        channelCount = Int(p.channel_count)
        inputChannelCount = Int(p.input_channel_count)
        audioSession = try SessionConfiguration(p.audio_session, function)
        latency = LatencyRequest(targetFrames: Int(p.latency_target_frames), requestFrames: Int(p.latency_request_frames))
        realtimePriority = p.realtime_priority == 0 ? nil : p.realtime_priority
        // Both fit easily: a UInt32 of milliseconds is at most 50 days.
        connectTimeout = .milliseconds(Int(p.connect_timeout_ms))
        idleCorkTimeout = p.idle_cork_timeout_ms == 0 ? nil : .milliseconds(Int(p.idle_cork_timeout_ms))
        serverAddress = try Argument.optionalString(p.server_address, "platform->server_address", function)
        applicationName = try Argument.string(p.application_name, "platform->application_name", function)
        applicationID = try Argument.optionalString(p.application_id, "platform->application_id", function)
        crashRepair.guardianProcess = p.crash_repair_guardian_process
        crashRepair.journalDirectory = try Argument.optionalString(
            p.crash_repair_journal_directory, "platform->crash_repair_journal_directory", function)
        audioCallbacks = PlatformInitSettings.AudioCallbacks(p)
    }
}
