package import SoundCore

/// Platform-independent engine settings, like Wwise's `AkInitSettings`.
///
/// Start from ``SoundEngine/defaultInitSettings()`` (or `InitSettings()`,
/// the same values), change what you need, pass it to
/// ``SoundEngine/initialize(_:_:)``. Every field is validated there, once; a
/// bad value throws `invalidParameter` naming the field and nothing starts.
///
/// ```swift
/// var settings = InitSettings()
/// settings.samplesPerFrame = 512
/// settings.backgroundMusicCallback = { muted in hud.showMusicMuted(muted) }
/// ```
public struct InitSettings: Sendable {
    /// Frames the mixer renders per quantum (Wwise `uNumSamplesPerFrame`): a
    /// power of two, 64…8192. Default 512 (10.7 ms at 48 kHz). Commands such as
    /// volume changes take effect at quantum boundaries; voice starts are
    /// sample-accurate inside a quantum.
    public var samplesPerFrame: Int = 512
    /// Bytes of the lock-free game → audio command queue (Wwise
    /// `uCommandQueueSize`). Default 256 KiB. When it is full a call throws
    /// `commandQueueFull` rather than blocking or dropping the command.
    public var commandQueueSize: Int = 256 * 1024
    /// Voices that can exist at once, heard or virtual: the pool. Default
    /// 256. Fixed at initialize. When every one is in use, a new voice takes
    /// the place of the least important voice of lower priority (the lowest
    /// priority, then the quietest, then the newest), which fades out over
    /// the de-click; a voice of no higher priority than all of them is not
    /// started (a posting's callback is told `voiceFailed`, a `play` throws
    /// `maxReached`).
    public var maxVoices: Int = 256
    /// Voices mixed at once, 1…``maxVoices`` (Wwise's max-voices limit);
    /// `nil` (the default) is ``maxVoices``. Beyond it, the voices of lowest
    /// bank priority (then the quietest, then the newest) are not mixed and
    /// follow their sound's `virtualBehavior`: `kill` ends them, `continue`
    /// keeps their place in time and brings them back where they would have
    /// been, `restart` brings them back from their start (docs/content-engine.md,
    /// "Voice limit"). Plays of ``SoundEngine/play(_:on:_:callbackTypes:callback:)`` have
    /// priority 50 and are killed. Fixed at initialize.
    public var maxAudibleVoices: Int? = nil
    /// Buses, including the master bus. Default 32.
    public var maxBuses: Int = 32
    /// Sounds loaded at once (in memory or streamed). Default 512.
    public var maxSounds: Int = 512
    /// Streamed sounds that can play at once. Default 8.
    public var maxStreams: Int = 8
    /// Soft-clip the master output. Default off: the mix is written unaltered.
    public var masterLimiter: Bool = false
    /// Called when the buses flagged "mute for background music" are muted
    /// (`true`) or unmuted (Wwise `BGMCallback`, whose flag is
    /// `in_bBackgroundMusicMuted`; SPEC calls it `otherAudioIsPlaying`). The
    /// session mutes them while another application's music plays and the
    /// category is mixable; ``SoundEngine/muteBackgroundMusic(_:)``
    /// mutes them by hand and is reported the same way, as Wwise does. Runs
    /// on the engine's event thread, never the render thread; it may call
    /// back into the engine.
    public var backgroundMusicCallback: (@Sendable (Bool) -> Void)? = nil
    /// The live profiler's link (docs/profiling.md). Default: off, no socket
    /// and no thread. `SOUNDENGINE_PROFILER=1` in the environment turns it on
    /// at initialize whatever this says.
    public var profiler = ProfilerSettings()
    /// Where the engine writes what it does. Default: nowhere.
    public var logger: any SoundLogger = SilentLogger()

    /// The default settings (same as ``SoundEngine/defaultInitSettings()``).
    public init() {}
}
