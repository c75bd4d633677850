import SoundCore

/// Everything the control side keeps, behind the mixer's mutex: which voice,
/// sound and stream slots are in use, the bus graph, and the back buffer of
/// the plan triple buffer. The command ring's producer end is used only while
/// this is locked, which makes the game's many threads one producer.
struct ControlState {
    struct Voice {
        var generation: UInt32 = 0
        var inUse = false
        var sound = SoundID(slot: 0, generation: 0)
        var volume: Float = 1
        var pan: Float = 0
        /// Stream slot of a streamed voice, else -1.
        var stream = -1
    }

    struct Sound {
        enum Content {
            case memory(SoundStorage)
            case stream(AudioSourceOpener)
        }
        var name: String
        var generation: UInt32
        var content: Content
        var canLoop: Bool
        /// Interpolation of voices that do not choose their own.
        var quality: ResamplerQuality
        /// Unload requested; waiting for the render thread to release the slot.
        var unloading = false
    }

    var voices: [Voice]
    var freeVoices: [Int]
    var sounds: [Sound?]
    var soundGenerations: [UInt32]
    var freeSounds: [Int]
    /// Slots being unloaded, freed once the render thread releases them.
    var retiredSounds: [Int] = []
    var graph: BusGraph
    /// The memory of in-memory sounds.
    var arena = SoundArena()
    /// The plan buffer the control side writes next (triple buffer).
    var backPlan = 2

    init(_ c: MixerConfiguration) {
        voices = Array(repeating: Voice(), count: c.maxVoices)
        freeVoices = Array((0..<c.maxVoices).reversed())
        sounds = Array(repeating: nil, count: c.maxSounds)
        soundGenerations = Array(repeating: 0, count: c.maxSounds)
        freeSounds = Array((0..<c.maxSounds).reversed())
        graph = BusGraph(capacity: c.maxBuses)
    }
}
