/// One bus of a render plan, in processing order.
///
/// A plan is the bus graph compiled for the render thread: the buses in
/// processing order (every child before its parent, the master last) with
/// their target gains. Immutable once published; three of them live in the
/// render core's triple buffer (docs/mixer.md, "The plan swap").
struct PlanEntry: BitwiseCopyable {
    var bus: Int32
    /// Parent bus; -1 for the master.
    var parent: Int32
    /// Target gain: volume × mute × background-music mute.
    var gain: Float
    /// Frames over which the bus ramps to `gain` when it changed.
    var rampFrames: Int32
    /// Post a ``MixerEvent/meter(_:_:)`` event at the end of each meter window.
    var meterEvents: Bool
    /// Insert effects in order, `effectCount` of them: each an
    /// ``EffectBlock``'s memory (a ``RenderEffect`` then its state), owned
    /// by the control side until a plan without it has been taken.
    var effectCount: UInt8 = 0
    var effects: InlineArray<4, UnsafeMutableRawPointer?> = InlineArray(repeating: nil)
    /// The bus keying each effect's detector (a compressor's sidechain), or -1.
    var sidechains: InlineArray<4, Int16> = InlineArray(repeating: -1)

    init(bus: Int32, parent: Int32, gain: Float, rampFrames: Int32, meterEvents: Bool) {
        self.bus = bus
        self.parent = parent
        self.gain = gain
        self.rampFrames = rampFrames
        self.meterEvents = meterEvents
    }
}

/// The render thread's running state of one bus.
struct RenderBusState: BitwiseCopyable {
    var gain = GainRamp(1)
    /// The bus buffer holds this quantum's audio (else it is silent and stale).
    var dirty = false
    /// The bus was mixed this quantum (its buffer holds its output until
    /// the next quantum): a sidechain may read it.
    var heard = false
    /// Metering window accumulators.
    var peak: Float = 0
    var sumSquares: Double = 0
    var windowQuanta = 0
}
