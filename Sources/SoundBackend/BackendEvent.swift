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
    /// The backend reconnected by itself after ``SystemEvent/connectionLost``:
    /// a new playback stream exists, corked, with this grant (its
    /// ``GrantedStream/snapshot`` is what the server has now).
    case reconnected(GrantedStream)
    /// The server ran out of our audio (`pa_stream_set_underflow_callback`).
    case underflow
    /// The device under our stream was suspended (`true`) or resumed.
    case deviceSuspended(Bool)
    /// The playback or capture stream failed while the connection stayed up (reason).
    case streamFailed(String)
}

/// Counters a backend keeps since `open`.
public struct BackendStatistics: Sendable, Hashable, Codable {
    /// Times the render entry was called.
    public var renderCalls: UInt64
    /// Frames the render entry produced.
    public var framesRendered: UInt64
    /// Underflows the server reported.
    public var underflows: UInt64
    /// Times the backend connected again after losing the server.
    public var reconnects: UInt64

    /// Creates counters.
    public init(renderCalls: UInt64 = 0, framesRendered: UInt64 = 0, underflows: UInt64 = 0, reconnects: UInt64 = 0) {
        self.renderCalls = renderCalls
        self.framesRendered = framesRendered
        self.underflows = underflows
        self.reconnects = reconnects
    }
}
