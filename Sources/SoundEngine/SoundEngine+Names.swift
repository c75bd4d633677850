public import SoundBackend
public import SoundCore
public import SoundMixer
public import SoundSession

// The types of the layers below that a game uses, nested where they belong
// (decision 0013): the engine's in `SoundEngine`, the iOS session's in
// `AudioSession`, the settings' own in `PlatformInitSettings`.

extension SoundEngine {
    /// A loaded sound (``SoundEngine/loadSound(path:streaming:loop:quality:)``).
    public typealias SoundID = SoundMixer.SoundID
    /// A bus of the mix: ``BusID/master``, one made by
    /// ``SoundEngine/createBus(name:parent:)`` or by a bank.
    public typealias BusID = SoundMixer.BusID
    /// The frames a looping play repeats.
    public typealias LoopRegion = SoundMixer.LoopRegion
    /// How a voice interpolates between source samples.
    public typealias ResamplerQuality = SoundMixer.ResamplerQuality
    /// A bus's peak and RMS.
    public typealias BusMeter = SoundMixer.BusMeter
    /// Audio in memory, for ``SoundEngine/loadSound(_:name:loop:quality:)``.
    public typealias DecodedAudio = SoundCore.DecodedAudio
    /// Whether the engine renders, and why not (``SoundEngine/status``).
    public typealias State = SoundSession.EngineState
    /// What the server granted (``SoundEngine/outputStream``).
    public typealias OutputStream = SoundBackend.GrantedStream
    /// How much a ``SoundLogger`` message matters.
    public typealias LogLevel = SoundCore.LogLevel
}

extension SoundSession.EngineState {
    /// Why the engine does not render (``SoundEngine/State/paused(_:)``).
    public typealias PauseReason = SoundSession.PauseReason
}

extension SoundBackend.GrantedStream {
    /// The output's sample rate, channels and encoding.
    public typealias Format = SoundCore.StreamFormat
    /// The server's buffer sizes, in bytes.
    public typealias Buffer = SoundBackend.BufferAttributes
}

extension AudioSession {
    /// The audio session category (`AVAudioSession.Category`).
    public typealias Category = SoundSession.Category
    /// Category options (`AVAudioSession.CategoryOptions`).
    public typealias CategoryOptions = SoundSession.CategoryOptions
    /// The session mode (`AVAudioSession.Mode`).
    public typealias Mode = SoundSession.Mode
    /// Activation options (`AVAudioSession.SetActiveOptions`).
    public typealias SetActiveOptions = SoundSession.SetActiveOptions
    /// Route-sharing policy (`AVAudioSession.RouteSharingPolicy`).
    public typealias RouteSharingPolicy = SoundSession.RouteSharingPolicy
    /// Wwise's session behaviour flags (`AkAudioSessionBehaviorOptions`).
    public typealias Behavior = SoundSession.SessionBehavior
    /// Category, options, mode, route sharing, activation options and
    /// behaviour together (Wwise `AkAudioSessionProperties`).
    public typealias Configuration = SoundSession.SessionConfiguration
    /// The temporary output override (`AVAudioSession.PortOverride`).
    public typealias PortOverride = SoundSession.PortOverride
    /// Kinds of input and output port (`AVAudioSession.Port`).
    public typealias Port = SoundSession.PortType
    /// One input or output of a route (`AVAudioSessionPortDescription`).
    public typealias PortDescription = SoundSession.PortDescription
    /// The inputs and outputs in use (`AVAudioSessionRouteDescription`).
    public typealias RouteDescription = SoundSession.RouteDescription
    /// A route change: reason, previous and current route.
    public typealias RouteChange = SoundSession.RouteChange
    /// Why the route changed (`AVAudioSession.RouteChangeReason`).
    public typealias RouteChangeReason = SoundSession.RouteChangeReason
    /// An interruption that began or ended.
    public typealias Interruption = SoundSession.Interruption
    /// Began or ended (`AVAudioSession.InterruptionType`).
    public typealias InterruptionType = SoundSession.InterruptionType
    /// `shouldResume` (`AVAudioSession.InterruptionOptions`).
    public typealias InterruptionOptions = SoundSession.InterruptionOptions
    /// Why an interruption began (`AVAudioSession.InterruptionReason`).
    public typealias InterruptionReason = SoundSession.InterruptionReason
    /// Which PulseAudio mechanism saw the interruption.
    public typealias InterruptionSource = SoundSession.InterruptionSource
    /// Another app's primary audio began or ended
    /// (`AVAudioSession.SilenceSecondaryAudioHintType`).
    public typealias SilenceSecondaryAudioHintType = SoundSession.SilenceSecondaryAudioHintType
}

extension PlatformInitSettings {
    /// The buffering between the mixer and the speaker.
    public typealias Latency = SoundBackend.LatencyRequest
    /// The output stream's sample encoding.
    public typealias SampleFormat = SoundCore.SampleFormat
}
