/// What only some voices use, per voice slot, kept out of ``RenderVoice``
/// so that the voice table the mix loop walks stays compact: the per-channel
/// gains of a voice placed over a surround layout (docs/mixer.md,
/// "Surround"). Render-owned, like the voice table; a copy of a voice into
/// a fade slot copies its extras (``RenderCore/copyVoice(_:to:)``).
struct VoiceExtras: BitwiseCopyable {
    /// Gain of the voice's (mono) signal in each output channel, ramped.
    /// Meaningful while the voice's ``RenderVoice/speakerLayout`` is the
    /// mix's channel count.
    var speakers: InlineArray<8, GainRamp>
    /// Aux sends (docs/mixer.md, "Aux sends"): the bus each of the first
    /// ``RenderVoice/sendCount`` sends adds the voice's output to (-1: none),
    /// and its gain ramp.
    var sendBuses: InlineArray<4, Int16>
    var sendGains: InlineArray<4, GainRamp>

    /// Aux sends a voice can have (Wwise: four game-defined sends per game object).
    static var maxSends: Int { @_noLocks @inline(__always) get { 4 } }

    /// No gains, no sends.
    @_noLocks init() {
        speakers = InlineArray(repeating: GainRamp(0))
        sendBuses = InlineArray(repeating: -1)
        sendGains = InlineArray(repeating: GainRamp(0))
    }
}

/// Voices mixed together before their sends (``RenderCore/renderWithSends(_:from:bus:)``):
/// their bus, and each send's bus and settled gain, alike.
struct SendGroup: BitwiseCopyable {
    /// Voices are being gathered in the send scratch.
    var open: Bool
    /// The voices' own bus.
    var bus: Int
    /// Sends in use.
    var count: Int
    /// Each send's bus.
    var buses: InlineArray<4, Int16>
    /// Each send's gain (settled).
    var gains: InlineArray<4, Float>

    /// Closed, no sends. Render-safe.
    @_noLocks
    init() {
        open = false
        bus = 0
        count = 0
        buses = InlineArray(repeating: -1)
        gains = InlineArray(repeating: 0)
    }

    /// Whether `other` gathers the same voices (gains compared bit for bit). Render-safe.
    @_noLocks
    func same(as other: SendGroup) -> Bool {
        guard bus == other.bus, count == other.count else { return false }
        for s in 0..<count where buses[s] != other.buses[s] || gains[s].bitPattern != other.gains[s].bitPattern {
            return false
        }
        return true
    }
}
