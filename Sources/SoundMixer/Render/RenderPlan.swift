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
}

/// The render thread's running state of one bus.
struct RenderBusState: BitwiseCopyable {
    var gain = GainRamp(1)
    /// The bus buffer holds this quantum's audio (else it is silent and stale).
    var dirty = false
    /// Metering window accumulators.
    var peak: Float = 0
    var sumSquares: Double = 0
    var windowQuanta = 0
}
