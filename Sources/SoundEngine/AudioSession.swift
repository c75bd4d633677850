import SoundBackend
package import SoundCore
package import SoundSession
import Synchronization

/// The live audio session as the game sees it: what `AVAudioSession` gives an
/// iOS game, on the engine's PulseAudio connection.
///
/// Reach it as ``SoundEngine/audioSession``. Its configuration changes
/// through ``SoundEngine/changeAudioSessionProperties(_:)`` (Wwise's one
/// call for it); what only AVAudioSession has — activation, the speaker
/// override, the preferred input, the live route and other audio — is here.
/// The iOS vocabulary nests in it: ``Category``, ``Mode``,
/// ``CategoryOptions``, ``RouteChangeReason``… Reads are snapshots taken after
/// the last change (never waiting on the server). Calls return at once: a
/// refused one throws and changes nothing; an accepted one is decided when
/// it returns (every read shows it), and the server work it causes (fades,
/// corks, moves, other apps' mutes) follows on the engine's session thread,
/// in order, a server round trip or a fade later. Everything the session
/// does on its own (interruptions, route changes, other apps) arrives as
/// ``SessionEvent``s. Once the engine has terminated, every read shows a
/// stopped default session and every call throws `notInitialized`.
///
/// ```swift
/// try SoundEngine.changeAudioSessionProperties(
///     AudioSession.Configuration(category: .playAndRecord, categoryOptions: [.defaultToSpeaker, .allowBluetooth],
///                                mode: .gameChat))
/// let session = try SoundEngine.audioSession
/// print(session.currentRoute)
/// try session.overrideOutputAudioPort(.speaker)   // QA1754's temporary override
/// ```
public final class AudioSession: Sendable {
    /// The engine, weakly: it owns the session, not the other way round.
    /// Set once by the engine's init, before anyone can reach the session.
    let owner = WeakBox<SoundEngineInstance>()

    init() {}

    private var engine: SoundEngineInstance? { owner.value }

    private func snapshot() -> SessionSnapshot {
        engine?.published.withLock { $0 } ?? SessionSnapshot.terminated
    }

    private func running() throws(SoundEngineError) -> SoundEngineInstance {
        guard let engine, !engine.isTerminated else { throw .notInitialized }
        return engine
    }

    // MARK: Configuration

    /// Category, options, mode, route-sharing policy, activation options and
    /// Wwise behaviour flags in force.
    public var configuration: SessionConfiguration { snapshot().configuration }
    /// The category (`AVAudioSession.category`).
    public var category: Category { configuration.category }
    /// The options set (`categoryOptions`).
    public var categoryOptions: CategoryOptions { configuration.categoryOptions }
    /// The mode (`mode`).
    public var mode: Mode { configuration.mode }

    // MARK: Activation

    /// Whether the session is active (the engine activates it at initialize).
    public var isActive: Bool { snapshot().isActive }

    /// Activates or deactivates the session, like `setActive(_:options:)`.
    /// Deactivating corks the output (voices hold) and gives other apps back
    /// exactly what the session took from them; with
    /// `.notifyOthersOnDeactivation` that is also what the other apps hear.
    ///
    /// - Throws: `cannotInterruptOthers` when a non-mixable session is
    ///   activated in the background; `invalidParameter` for unknown option bits.
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws(SoundEngineError) {
        try running().request(.setActive(active, options: options))
    }

    /// Whether an interruption is in progress (the session is inactive during it).
    public var isInterrupted: Bool { snapshot().isInterrupted }

    // MARK: Routes

    /// The inputs and outputs in use (`currentRoute`).
    public var currentRoute: RouteDescription { snapshot().currentRoute }
    /// The outputs the category and options allow, newest first.
    public var availableOutputs: [PortDescription] { snapshot().availableOutputs }
    /// The inputs the category and options allow, newest first (`availableInputs`).
    public var availableInputs: [PortDescription] { snapshot().availableInputs }
    /// Whether any input device is present (`isInputAvailable`).
    public var isInputAvailable: Bool { snapshot().isInputAvailable }
    /// Whether the input the route uses is muted at the server (a mic-mute
    /// key, `pactl set-source-mute`), like iOS 17's `AVAudioApplication.isInputMuted`:
    /// the microphone then delivers silence. In a recording category without
    /// ``CategoryOptions/overrideMutedMicrophoneInterruption`` this also
    /// interrupts the session with reason ``InterruptionReason/builtInMicMuted``.
    public var isInputMuted: Bool { snapshot().isInputMuted }
    /// The temporary output override in force.
    public var outputPortOverride: PortOverride { snapshot().portOverride }
    /// The input the game prefers (`preferredInput`), `nil` for the default
    /// rule; also `nil` while the preferred input is not present.
    public var preferredInput: PortDescription? {
        let s = snapshot()
        return s.preferredInput.flatMap { id in s.allInputs.first { $0.endpoint == id } }
    }

    /// Overrides the output, like `overrideOutputAudioPort(_:)`: `.speaker`
    /// routes a playAndRecord session to the built-in speaker until the next
    /// route change or interruption (QA1754); `.none` ends it.
    ///
    /// - Throws: `incompatibleCategory` outside playAndRecord;
    ///   `resourceNotAvailable` when there is no speaker.
    public func overrideOutputAudioPort(_ override: PortOverride) throws(SoundEngineError) {
        try running().request(.overrideOutputAudioPort(override))
    }

    /// Prefers an input, like `setPreferredInput(_:)`: one of
    /// ``availableInputs`` (its ``PortDescription/uid`` is what counts);
    /// `nil` returns to the default rule.
    ///
    /// - Throws: `incompatibleCategory` in a category without input;
    ///   `invalidParameter` naming the uid when no present input has it, or
    ///   for an input the options do not allow.
    public func setPreferredInput(_ input: PortDescription?) throws(SoundEngineError) {
        try setPreferredInput(uid: input?.uid)
    }

    /// ``setPreferredInput(_:)`` by the input's uid (`device` or
    /// `device#port`), as the C API and the demo name it.
    package func setPreferredInput(uid: String?) throws(SoundEngineError) {
        guard let uid else { return try running().request(.setPreferredInput(nil)) }
        let inputs = snapshot().allInputs
        guard let port = inputs.first(where: { $0.uid == uid }) else {
            throw .invalidParameter(
                "setPreferredInput: no input has uid '\(uid)'; present: \(inputs.map(\.uid).joined(separator: ", "))")
        }
        try running().request(.setPreferredInput(port.endpoint))
    }

    // MARK: The output device (a settings menu)

    /// What the game pins the output to, for a settings menu's "Output
    /// device" (Wwise `ReplaceOutput` to a device; FMOD `setDriver`).
    public enum OutputDevice: Hashable, Sendable, CustomStringConvertible {
        /// No pin: the routing rules choose (the system's default device the
        /// user sets in the desktop, the most recently connected accessory, …).
        case systemDefault
        /// The output whose ``PortDescription/uid`` this is — stable across
        /// runs and reconnections: the sink's name, and `#port` for a sink
        /// with ports.
        case device(uid: String)

        public var description: String {
            switch self {
            case .systemDefault: "systemDefault"
            case .device(let uid): "device(\(uid))"
            }
        }
    }

    /// The outputs a settings menu can offer: every present output the
    /// category and options allow, newest first, each with a stable
    /// ``PortDescription/uid`` and a human ``PortDescription/portName``.
    public var outputDevices: [PortDescription] { snapshot().availableOutputs }

    /// What the output is pinned to; kept while the pinned device is absent.
    public var pinnedOutput: OutputDevice {
        snapshot().pinnedOutput.map { .device(uid: $0.description) } ?? .systemDefault
    }

    /// Pins the output to one device — the player's choice — or, with
    /// `.systemDefault`, lets the routing rules choose again.
    ///
    /// A pinned device is an explicit choice, like a preferred input: it
    /// wins over the system default (a default change in the desktop leaves
    /// the game where it is) and over devices connected later (no last in
    /// wins); only the speaker override of playAndRecord and a move of the
    /// game's stream in the desktop's mixer (the user's newest choice; the
    /// next pin takes it back) come first. When the pinned device goes away
    /// the route falls back to what the rules give — the system default —
    /// with a ``RouteChange`` whose reason is `oldDeviceUnavailable`; when it
    /// comes back the route returns to it (`newDeviceAvailable`). The pin is
    /// kept across reconnections and media-services resets.
    ///
    /// - Throws: `incompatibleCategory` in a category without output;
    ///   `invalidParameter` naming the uid when no present output has it, or
    ///   for an output the category and options do not allow. Nothing changes then.
    public func pinOutput(_ device: OutputDevice) throws(SoundEngineError) {
        guard case .device(let uid) = device else { return try running().request(.pinOutput(nil)) }
        let outputs = snapshot().allOutputs
        guard let port = outputs.first(where: { $0.uid == uid }) else {
            throw .invalidParameter(
                "pinOutput: no output has uid '\(uid)'; present: \(outputs.map(\.uid).joined(separator: ", "))")
        }
        try running().request(.pinOutput(port.endpoint))
    }

    // MARK: Other audio

    /// Whether other apps' music, video or calls play audibly (`isOtherAudioPlaying`).
    public var isOtherAudioPlaying: Bool { snapshot().isOtherAudioPlaying }
    /// Whether the game should silence secondary audio such as its soundtrack
    /// (`secondaryAudioShouldBeSilencedHint`).
    public var secondaryAudioShouldBeSilencedHint: Bool { snapshot().secondaryAudioShouldBeSilencedHint }

    // MARK: Echo cancellation

    /// Whether the mode asks for echo cancellation (voiceChat, videoChat, gameChat).
    public var isEchoCancellationRequested: Bool { configuration.streamProperties.echoCancellation }
    /// Whether the server honours that wish: PulseAudio with
    /// module-filter-heuristics and module-filter-apply loaded puts
    /// module-echo-cancel between our streams and the devices.
    /// pipewire-pulse ignores `filter.want`: `false` there, and the game
    /// should fall back (headphones, push-to-talk) rather than assume it.
    public var isEchoCancellationAvailable: Bool { snapshot().granted.echoCancellationAvailable }
}

/// What the engine's getters read: a copy of the policy's view and the
/// engine's state after the last control operation.
struct SessionSnapshot: Sendable {
    var configuration: SessionConfiguration
    var isActive: Bool
    var isInterrupted: Bool
    var inForeground: Bool
    var currentRoute: RouteDescription
    var availableOutputs: [PortDescription]
    var availableInputs: [PortDescription]
    var allInputs: [PortDescription]
    var allOutputs: [PortDescription]
    var isInputAvailable: Bool
    var isInputMuted: Bool
    var portOverride: PortOverride
    var preferredInput: EndpointID?
    var pinnedOutput: EndpointID?
    var isOtherAudioPlaying: Bool
    var secondaryAudioShouldBeSilencedHint: Bool
    var granted: GrantedStream
    var state: EngineState

    init(policy: AudioSessionPolicy, granted: GrantedStream, state: EngineState) {
        configuration = policy.configuration
        isActive = policy.isActive
        isInterrupted = policy.isInterrupted
        inForeground = policy.isInForeground
        currentRoute = policy.currentRoute
        availableOutputs = policy.availableOutputs
        availableInputs = policy.availableInputs
        allInputs = policy.availableEndpoints.filter { $0.direction == .input }.map(\.portDescription)
        allOutputs = policy.availableEndpoints.filter { $0.direction == .output }.map(\.portDescription)
        isInputAvailable = policy.isInputAvailable
        isInputMuted = policy.isInputMuted
        portOverride = policy.portOverride
        preferredInput = policy.preferredInput
        pinnedOutput = policy.pinnedOutput
        isOtherAudioPlaying = policy.isOtherAudioPlaying
        secondaryAudioShouldBeSilencedHint = policy.secondaryAudioShouldBeSilencedHint
        self.granted = granted
        self.state = state
    }

    /// What a session whose engine is gone reads as.
    static let terminated: SessionSnapshot = {
        // A fresh policy of the default configuration cannot fail validation.
        let policy = try! AudioSessionPolicy()
        let granted = GrantedStream(
            format: StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32),
            buffer: BufferAttributes(maxLength: 0, targetLength: 0, prebuffer: 0, minimumRequest: 0),
            serverName: "", serverVersion: "", deviceName: "")
        return SessionSnapshot(policy: policy, granted: granted, state: .stopped)
    }()
}
