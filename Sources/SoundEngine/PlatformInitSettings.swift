public import SoundBackend
public import SoundCore
public import SoundSession

/// Linux/PulseAudio engine settings, like Wwise's `AkPlatformInitSettings`
/// (its iOS shape: `audioSession` and `audioCallbacks` live here).
///
/// Start from ``SoundEngine/defaultPlatformInitSettings()``; every field is
/// validated by ``SoundEngine/initialize(_:_:)`` (``validate()``): a value
/// outside its documented range, or a string with a NUL character, is
/// `invalidParameter` naming the field, and nothing starts.
public struct PlatformInitSettings: Sendable {
    /// Frames per second of the mix and of the output stream (Wwise
    /// `uSampleRate`), 8000…192000. Default 48000.
    public var sampleRate: Int = 48_000
    /// Sample encoding of the output stream (Wwise Linux `sampleType`).
    /// Default float32; int16 halves the bytes sent to the server.
    public var sampleFormat: SampleFormat = .float32
    /// Output channels, 0…8. 0 (the default) takes the device's layout (as
    /// Wwise does when no channel configuration is given): the stream gets
    /// the channel count of the device it is created on, up to 8, and the
    /// mix is in that layout (stereo, quad, 5.1, 7.1…; docs/mixer.md,
    /// "Surround"). 1…8 asks for that many whatever the device: 1 and 2 get
    /// the stereo mix (1 its average), 3…8 a mix in their layout.
    public var channelCount: Int = 0
    /// The audio session: category, options, mode (Wwise
    /// `AkAudioSessionProperties`). Decides the stream's `media.role`, whether
    /// other apps' audio is silenced, and routing. Default soloAmbient.
    public var audioSession = SessionConfiguration()
    /// Session callbacks (interruption, route change, media-services reset).
    public var audioCallbacks = AudioCallbacks()
    /// Buffering between the mixer and the speaker. Default
    /// ``Latency/default`` (about 20 ms); ``Latency/low`` is about
    /// 10 ms. Sizes are for 48 kHz: `requestFrames` a power of two, 64…8192;
    /// `targetFrames` a whole number of requests, at least two, at most
    /// 24000 (500 ms); anything else is `invalidParameter`. They scale with
    /// ``sampleRate``: the request to the nearest power of two, the target to
    /// a whole number of requests.
    public var latency: LatencyRequest = .default
    /// `SCHED_RR` priority asked for the thread that renders (libpulse's
    /// mainloop thread), like Wwise's `threadLEngine` properties; `nil` keeps
    /// normal priority. Default 4, below PulseAudio's own 5. Without the
    /// privilege (root, `CAP_SYS_NICE` or an `rtprio` limit) the request is
    /// refused quietly and ``SoundEngine/outputStream`` reports
    /// `realtimePriority == nil`. Valid values 1…99.
    public var realtimePriority: Int32? = 4
    /// The PulseAudio server to use, e.g. `unix:/run/user/1000/pulse/native`
    /// or `tcp:host:4713`. `nil` (default) follows `PULSE_SERVER`, then the
    /// per-user server. The engine never starts a server itself.
    public var serverAddress: String? = nil
    /// How long initialize waits for the server before throwing
    /// `deviceNotReady`. Default 3 s.
    public var connectTimeout: Duration = .seconds(3)
    /// The name mixers and `pactl` show for this program (`application.name`).
    /// Default "SoundEngine".
    public var applicationName: String = "SoundEngine"
    /// Reverse-DNS application ID (`application.id`). Default none.
    public var applicationID: String? = nil
    /// Channels of the captured input in record and playAndRecord, 1…8.
    /// Default 1 (a microphone).
    public var inputChannelCount: Int = 1
    /// After this long with no voice playing, the engine corks its stream so
    /// the server can let the device sleep (PulseAudio and PipeWire suspend an
    /// idle sink after about 5 s); the next `play` (or `postEvent`) wakes the
    /// session thread, which uncorks it — the call itself returns at once —
    /// and the sound starts within one buffer of the stream and a server
    /// round trip (plus the device's wake-up if the server suspended it). The
    /// game sees no state change. Default 10 s; `nil` keeps the stream running (and the
    /// device awake) forever. Must be at least 100 ms.
    public var idleCorkTimeout: Duration? = .seconds(10)
    /// How what the session changes on other applications' streams (the
    /// mutes of a non-mixable category, duckOthers) is given back if the game
    /// dies holding it (docs/pulseaudio.md, "Nothing left behind").
    public var crashRepair = CrashRepair()

    /// The default settings (same as ``SoundEngine/defaultPlatformInitSettings()``).
    public init() {}
}

extension PlatformInitSettings {
    /// How the engine makes sure a crash never leaves other applications muted
    /// or ducked (docs/pulseaudio.md, "Nothing left behind").
    ///
    /// Before it changes another application's stream, the engine writes what
    /// it changes into a journal (`$XDG_RUNTIME_DIR/soundengine/`). If the game
    /// dies holding it, the guardian process gives it back within milliseconds;
    /// if the guardian died too, the next engine to start (of any game) does.
    public struct CrashRepair: Sendable, Hashable {
        /// Start a guardian process with the first change to another
        /// application's stream: the game's own executable run again, which a
        /// constructor of this library turns into the guardian before `main`
        /// (a C or C++ game's run again preloads libsoundengine.so for that).
        /// Default `true`; with `false` a crash is repaired at the next start only.
        public var guardianProcess = true
        /// Where the journals live; `nil` (default) is
        /// `$XDG_RUNTIME_DIR/soundengine` (or `/tmp/soundengine-<uid>`). It must
        /// be a directory only this user can write.
        public var journalDirectory: String? = nil

        /// The defaults: a guardian process, journals in `$XDG_RUNTIME_DIR/soundengine`.
        public init() {}
    }
}

extension PlatformInitSettings {
    /// The game's session callbacks (Wwise `AkAudioCallbacks`, plus the
    /// AVAudioSession notifications Wwise leaves to the app).
    ///
    /// All run on the engine's event thread — never the render thread — in the
    /// order the events happened; they may call back into the engine. The same
    /// values also arrive as `NotificationCenter` posts and through
    /// ``SoundEngine/events()``.
    ///
    /// Order: the engine acts first, then tells the game. When the interruption
    /// callback runs with `began`, the engine is already paused and fading out
    /// (the stream is corked once the fade has been heard, right after the
    /// callback; voices keep advancing on the engine's clock); with `ended` and
    /// `shouldResume`, the engine has already resumed. Any engine call, from the
    /// callback or elsewhere, first completes a pending cork or move. Wwise 2022+ calls the game before its own
    /// suspend; SoundEngine does not, because its callbacks never run inside the
    /// engine's control path (they may call any engine function without
    /// deadlocking) — see docs/audio-session.md, "Order of callbacks and engine".
    public struct AudioCallbacks: Sendable {
        /// An interruption began or ended.
        public var interruptionCallback: (@Sendable (Interruption) -> Void)? = nil
        /// The route changed, with the reason and the previous route.
        public var routeChangeCallback: (@Sendable (RouteChange) -> Void)? = nil
        /// The sound server went away (`mediaServicesWereLost`). The engine keeps
        /// taking calls and its voices keep advancing; it reconnects by itself.
        public var mediaServicesLostCallback: (@Sendable () -> Void)? = nil
        /// The sound server went away and came back; the engine has rebuilt its
        /// streams and re-applied the session.
        public var mediaServicesResetCallback: (@Sendable () -> Void)? = nil
        /// Other apps' audio started (`true`) or stopped playing audibly: Wwise's
        /// `AkAudioSourceChangeCallbackFunc` (`isOtherAudioPlaying`).
        public var otherAudioPlayingCallback: (@Sendable (Bool) -> Void)? = nil
        /// Another app's primary audio started or stopped while the game is in the
        /// foreground with an active session (`silenceSecondaryAudioHintNotification`).
        public var silenceSecondaryAudioHintCallback: (@Sendable (SilenceSecondaryAudioHintType) -> Void)? = nil
        /// Captured input (record and playAndRecord): interleaved float32 frames
        /// of ``PlatformInitSettings/inputChannelCount`` channels, delivered on
        /// the event thread every few milliseconds; the buffer is valid only
        /// during the call. When `nil`, read it with
        /// ``SoundEngine/readInput(into:)``.
        public var inputCallback: (@Sendable (UnsafeBufferPointer<Float>) -> Void)? = nil

        /// No callbacks.
        public init() {}
    }
}
