public import SoundSession
import CPulseAudio
import SoundCore

/// What the server has, kept current by the subscription: sinks, sources
/// (and their ports), cards, sink inputs, source outputs, clients, the
/// default devices. Turns server events into coalesced ``SystemEvent``s for
/// the session policy and performs the policy's server-side actions on other
/// clients' streams and on the routing of ours.
///
/// Confinement: every method runs on the mainloop thread (callbacks) or with
/// the mainloop lock held (the Connection's control calls). `emit` is called
/// on the mainloop thread and must return quickly.
final class ServerModel {
    /// Waits with the mainloop lock held until the condition holds or the
    /// deadline passes; returns whether it held (the Connection's waitLocked).
    typealias Wait = (ContinuousClock.Instant, () -> Bool) -> Bool

    let context: PAContext
    let mainloop: PAMainloop
    let emit: (SystemEvent) -> Void
    let wait: Wait

    /// Our playback stream's sink-input index once it exists (set again when
    /// the stream is re-created): never reported as another client's stream;
    /// its moves that the engine did not ask for become ``SystemEvent/streamMovedByUser(_:)``.
    var ownPlaybackIndex: UInt32?
    /// Our capture stream's source-output index, likewise.
    var ownCaptureIndex: UInt32?

    init(context: PAContext, mainloop: PAMainloop, wait: @escaping Wait, emit: @escaping (SystemEvent) -> Void) {
        self.context = context
        self.mainloop = mainloop
        self.wait = wait
        self.emit = emit
    }

    /// Subscribes, loads every list and returns the snapshot. Lock held.
    func start(ownClient: UInt32, deadline: ContinuousClock.Instant) throws(SoundEngineError) -> SystemSnapshot {
        SystemSnapshot(ownClient: ClientID(rawValue: ownClient))
    }

    /// The output the policy selected last (where a re-created playback
    /// stream should connect), `nil` for the server's default.
    var selectedOutput: EndpointID? { nil }
    /// The input the policy selected last, `nil` for the server's default.
    var selectedInput: EndpointID? { nil }

    /// Whether `filter.want=echo-cancel` will be honoured (module-filter-heuristics
    /// and module-filter-apply are loaded); `false` on pipewire-pulse.
    var echoCancellationAvailable: Bool { false }

    /// Performs selectOutput, selectInput, mute/unmute, duck/unduck. Lock held.
    func perform(_ action: SessionAction, deadline: ContinuousClock.Instant) throws(SoundEngineError) {}

    /// Unsubscribes and cancels pending timers and operations. Lock held, before the context disconnects.
    func stop() {}
}
