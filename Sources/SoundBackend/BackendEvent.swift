/// Something the backend observed. Delivered to the ``BackendEventHandler``
/// on the backend's thread.
public enum BackendEvent: Sendable, Hashable {
    /// The server ran out of our audio (`pa_stream_set_underflow_callback`).
    case underflow
    /// The server asked us to pause: a policy module (role-cork) wants silence
    /// (`PA_STREAM_EVENT_REQUEST_CORK`).
    case corkRequested
    /// The server lets us resume (`PA_STREAM_EVENT_REQUEST_UNCORK`).
    case uncorkRequested
    /// Our stream was moved to another device (name).
    case streamMoved(device: String)
    /// The device under our stream was suspended (`true`) or resumed.
    case deviceSuspended(Bool)
    /// The connection to the server failed; the stream is dead (reason).
    case connectionLost(String)
    /// The stream failed while the connection stayed up (reason).
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

    /// Creates counters.
    public init(renderCalls: UInt64 = 0, framesRendered: UInt64 = 0, underflows: UInt64 = 0) {
        self.renderCalls = renderCalls
        self.framesRendered = framesRendered
        self.underflows = underflows
    }
}
