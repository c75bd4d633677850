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
        /// ``VoiceParameters/priority``: a voice of higher priority may take
        /// this one's slot when every slot is in use.
        var priority = 50
        /// Start order (``ControlState/starts``): of equals, the newest is taken.
        var serial: UInt64 = 0
        /// It repeats its sound's loop region (a seek past the end wraps into it).
        var looping = false
        /// Its place among the speakers of a surround output, if any: placed
        /// again when the output's layout changes.
        var placement: SpeakerPlacement?
        /// The bus it plays into (for the live profiler's list).
        var bus = BusID.master
    }

    struct Sound {
        enum Content {
            case memory(SoundStorage)
            /// The opener, and where the stream's marker frames are (if any).
            case stream(AudioSourceOpener, markers: SoundArena.Allocation?)
        }
        var name: String
        var generation: UInt32
        var content: Content
        var canLoop: Bool
        /// Interpolation of voices that do not choose their own.
        var quality: ResamplerQuality
        /// The source's frames (`nil` for a stream whose header does not say)
        /// and its rate.
        var frames: Int? = nil
        var sampleRate = 0
        /// Unload requested; waiting for the render thread to release the slot.
        var unloading = false
    }

    var voices: [Voice]
    var freeVoices: [Int]
    /// Per voice slot: the newest generation whose end has been handed to
    /// `drainEvents` (from the ring, a sweep or a reclaimed slot). An end of an
    /// older or equal generation is a duplicate. Generations only grow per slot.
    var endReported: [UInt32]
    /// Ends found when a slot was reclaimed before its end was reported;
    /// delivered by the next `drainEvents`.
    var unreportedEnds: [(VoiceID, SoundID)] = []
    /// Voices started so far (the next one's ``Voice/serial``).
    var starts: UInt64 = 0
    /// Voices whose slot a voice of higher priority took (pool full).
    var voicesStolen: UInt64 = 0
    /// `voiceEndsDeferred` as of the last sweep.
    var sweptDeferrals: UInt64 = 0
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
    /// Plans published so far (the next one's generation).
    var planGeneration: UInt64 = 0
    /// Effects taken out of the graph, with the generation of the first
    /// plan without them: freed once the render thread took that plan.
    var retiredEffects: [(block: EffectBlock, generation: UInt64)] = []

    init(_ c: MixerConfiguration) {
        voices = Array(repeating: Voice(), count: c.maxVoices)
        freeVoices = Array((0..<c.maxVoices).reversed())
        endReported = Array(repeating: 0, count: c.maxVoices)
        sounds = Array(repeating: nil, count: c.maxSounds)
        soundGenerations = Array(repeating: 0, count: c.maxSounds)
        freeSounds = Array((0..<c.maxSounds).reversed())
        graph = BusGraph(capacity: c.maxBuses)
    }
}

extension ControlState {
    /// Records that the end of `generation` in `slot` is being reported;
    /// `false` when it (or a later end there) already was.
    mutating func claimEnd(slot: Int, generation: UInt32) -> Bool {
        // Wrapping difference: generations skip 0 and wrap after 2^32 voices in one slot.
        guard Int32(bitPattern: generation &- endReported[slot]) > 0 else { return false }
        endReported[slot] = generation
        return true
    }
}
