import SoundEngine

/// What the full-screen demo shows of the engine, read once a frame (every
/// read is a snapshot the engine already publishes: never a server round
/// trip). A plain value, so page rendering is tested with made-up ones.
struct EngineSnapshot: Equatable, Sendable {
    /// A port as the route page lists it.
    struct Port: Equatable, Sendable {
        var type: String
        var name: String
        var uid: String
    }

    /// A bus's meter reading (linear amplitudes).
    struct Level: Equatable, Sendable {
        var peak = 0.0
        var rms = 0.0
    }

    var status = "stopped"
    var isRunning = false
    var configuration = AudioSession.Configuration()
    var isActive = false
    var isInterrupted = false
    var speakerOverride = false
    var outputs: [Port] = []
    var inputs: [Port] = []
    var availableOutputs: [Port] = []
    var availableInputs: [Port] = []
    var otherAudioPlaying = false
    var secondaryAudioShouldBeSilenced = false
    var backgroundMusicMuted = false
    /// The car's RPM in force (`rtpcValue`), nil without the bank.
    var rpmInForce: Double?
    var master = Level()
    /// Bus 'music', nil when there is none.
    var music: Level?
    /// Bus 'world' (the demo bank's 3D bus), nil when there is none.
    var world: Level?
    var underflows: UInt64 = 0
    var voices = 0
}
