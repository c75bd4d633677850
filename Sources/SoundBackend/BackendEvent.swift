package import SoundSession

/// Something the backend observed. Delivered to the ``BackendEventHandler``
/// on the backend's thread.
package enum BackendEvent: Sendable, Hashable {
    /// A fact for the session policy: devices, defaults, other clients'
    /// streams, moves of our streams the engine did not ask for, cork
    /// requests, the connection lost (``SystemEvent/connectionLost``). A
    /// connection made again after a loss arrives as ``reconnected(_:)``,
    /// not as ``SystemEvent/connected(_:)``.
    case system(SystemEvent)
    /// The backend reconnected by itself after ``SystemEvent/connectionLost``
    /// (its ``ServerDescription/snapshot`` is what the server has now). No
    /// stream exists yet: the policy's actions create it again.
    case reconnected(ServerDescription)
    /// The server ran out of our audio (`pa_stream_set_underflow_callback`).
    case underflow
    /// Something the engine should log as a warning: the backend could not
    /// do something that is not the game's concern (a journal it could not
    /// write, a guardian it could not start).
    case warning(String)
    /// The device under our stream was suspended (`true`) or resumed.
    case deviceSuspended(Bool)
    /// Our playback or capture stream is gone while the connection stayed up:
    /// the server killed it, it failed, or it stalled (no write request for
    /// several buffer lengths while uncorked). The reason, in words. The
    /// stream is not re-created by the backend: the engine does it, through
    /// ``ServerAction/setStreamProperties(_:)``.
    case streamFailed(String)
}

/// Counters a backend keeps since `open`.
package struct BackendStatistics: Sendable, Hashable, Codable {
    /// Times the render entry was called.
    package var renderCalls: UInt64
    /// Frames the render entry produced.
    package var framesRendered: UInt64
    /// Underflows the server reported.
    package var underflows: UInt64
    /// Times the backend connected again after losing the server.
    package var reconnects: UInt64

    /// Creates counters.
    package init(renderCalls: UInt64 = 0, framesRendered: UInt64 = 0, underflows: UInt64 = 0, reconnects: UInt64 = 0) {
        self.renderCalls = renderCalls
        self.framesRendered = framesRendered
        self.underflows = underflows
        self.reconnects = reconnects
    }
}
