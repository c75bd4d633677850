/// One render → control message, trivial so it crosses the event ring by
/// copy. Turned into a ``MixerEvent`` by ``Mixer/drainEvents(_:)``.
struct RenderEvent: BitwiseCopyable {
    enum Kind: UInt8, BitwiseCopyable {
        case voiceEnded
        case streamStarved
        case eventsDropped
        case meter
        /// A voice crossed marker `count` of its sound.
        case marker
    }

    var kind: Kind
    var voiceSlot: UInt32 = 0
    var voiceGeneration: UInt32 = 0
    var soundSlot: UInt32 = 0
    var soundGeneration: UInt32 = 0
    /// For `eventsDropped`: how many; for `meter`: the bus.
    var count: Int = 0
    /// For `meter`: peak and mean square of the window.
    var peak: Float = 0
    var meanSquare: Float = 0

    @_noLocks
    init(
        kind: Kind, voiceSlot: UInt32 = 0, voiceGeneration: UInt32 = 0, soundSlot: UInt32 = 0,
        soundGeneration: UInt32 = 0, count: Int = 0, peak: Float = 0, meanSquare: Float = 0
    ) {
        self.kind = kind
        self.voiceSlot = voiceSlot
        self.voiceGeneration = voiceGeneration
        self.soundSlot = soundSlot
        self.soundGeneration = soundGeneration
        self.count = count
        self.peak = peak
        self.meanSquare = meanSquare
    }
}
