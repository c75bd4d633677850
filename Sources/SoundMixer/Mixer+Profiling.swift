import SoundCore

/// What the live profiler reads (docs/profiling.md), from any thread except
/// the render thread. Nothing here waits on the render thread: the timing is
/// atomics it publishes, the buses are the control side's own graph.
extension Mixer {
    /// How long the render thread took to mix quanta, in nanoseconds.
    package struct RenderTiming: Sendable, Hashable {
        /// The last quantum's.
        package var last: UInt64
        /// The sum over ``quanta`` quanta since the mixer was made.
        package var sum: UInt64
        /// Quanta timed since the mixer was made.
        package var quanta: UInt64
        /// The largest since the previous ``Mixer/takeRenderTiming()``.
        package var max: UInt64
    }

    /// The render timing, resetting its maximum (an exchange of 0): the
    /// caller keeps the previous reading to take the mean of an interval.
    package func takeRenderTiming() -> RenderTiming {
        let a = core.pointee.atomics
        // relaxed (all): published numbers (RenderCore.timeQuantum stores them relaxed).
        return RenderTiming(
            last: a.pointee.renderNanosLast.load(ordering: .relaxed),
            sum: a.pointee.renderNanosSum.load(ordering: .relaxed),
            quanta: a.pointee.renderQuantaTimed.load(ordering: .relaxed),
            max: a.pointee.renderNanosMax.exchange(0, ordering: .relaxed))
    }

    /// One bus as the control side last set it.
    package struct BusSummary: Sendable, Hashable {
        package var id: BusID
        package var name: String
        /// `nil` for the master.
        package var parent: BusID?
        /// Linear gain.
        package var volume: Float
        package var muted: Bool
        /// Soloed (``Mixer/setBusSoloed(_:_:)``).
        package var soloed: Bool
    }

    /// Every bus, master first (the control side's graph, under its lock).
    package var busSummaries: [BusSummary] {
        control.withLock { state in
            state.graph.buses.enumerated().map { index, bus in
                BusSummary(
                    id: BusID(index: UInt32(index)), name: bus.name,
                    parent: bus.parent < 0 ? nil : BusID(index: UInt32(bus.parent)), volume: bus.volume,
                    muted: bus.muted, soloed: bus.soloed)
            }
        }
    }
}
