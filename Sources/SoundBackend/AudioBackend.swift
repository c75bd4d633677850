package import SoundCore
package import SoundSession

/// The contract between the engine and a sound server: connect, open one
/// playback stream that pulls audio from a ``RenderEntry``, pause/resume it,
/// report what happens on the server as ``SystemEvent``s, perform the
/// server-side ``SessionAction``s of the session policy, reconnect after the
/// server went away, close.
///
/// Two implementations: `PulseAudioBackend` (a real server) and
/// ``OfflineBackend`` (no server; a manual clock pulls the render function, for
/// tests and offline rendering).
///
/// Threading: every method is called from control threads (the game's, the
/// engine's), never from the render thread or from inside an event handler.
/// The render entry is called on the backend's real-time thread; the event
/// handler is called on the backend's own thread and must return quickly
/// without calling back into the backend.
package protocol AudioBackend: AnyObject, Sendable {
    /// Connects to the server and creates the playback stream, paused.
    ///
    /// After `open` returns, the backend reports server facts through
    /// `events` (coalesced: one physical change, one fact). When the
    /// connection is lost it reports ``SystemEvent/connectionLost``, then
    /// reconnects by itself with back-off until ``close()``, and reports
    /// ``BackendEvent/reconnected(_:)`` with the new grant.
    ///
    /// - Returns: what the server granted (format, buffer sizes, server name)
    ///   and a ``SystemSnapshot`` of what the server has.
    /// - Throws: `deviceNotReady` naming the address tried when no server
    ///   answers within ``BackendConfiguration/connectTimeout``;
    ///   `alreadyInitialized` if already open. On failure nothing is left
    ///   running.
    func open(
        _ configuration: BackendConfiguration,
        render: RenderEntry,
        events: @escaping BackendEventHandler
    ) throws(SoundEngineError) -> GrantedStream

    /// Pauses (`true`, the stream is corked: the render entry stops being
    /// called, and what is buffered and not yet heard is dropped) or resumes
    /// the stream (the buffer is filled with fresh audio first).
    func setPaused(_ paused: Bool) throws(SoundEngineError)

    /// Blocks until everything the render entry has produced so far, plus
    /// `extraFrames` it may still hold, has been heard (or `timeout` passed,
    /// or the stream is paused or gone). The engine calls it between a
    /// fade-out and a cork, a move or a disconnect, so the cut falls in silence.
    func waitUntilPlayed(extraFrames: Int, timeout: Duration)

    /// Performs a server-side action of the session policy:
    /// ``SessionAction/selectOutput(_:)``, ``SessionAction/selectInput(_:)``,
    /// ``SessionAction/muteOtherStreams(_:)``, ``SessionAction/unmuteOtherStreams(_:)``,
    /// ``SessionAction/duckOtherStreams(_:factor:)``, ``SessionAction/unduckOtherStreams(_:)``,
    /// ``SessionAction/openCaptureStream``, ``SessionAction/closeCaptureStream``
    /// and ``SessionAction/setStreamProperties(_:)`` (re-creates the streams
    /// with the new properties, corked). Other actions are the engine's and
    /// are refused with `invalidParameter`.
    ///
    /// - Throws: `deviceNotReady`/`mediaServicesFailed` when the server is
    ///   away; `fail` naming what the server refused.
    func perform(_ action: SessionAction) throws(SoundEngineError)

    /// Reads captured input (interleaved float32 frames of
    /// ``BackendConfiguration/captureChannels`` channels at the stream rate) into `buffer`; returns the frames
    /// read, 0 when none are waiting or no capture stream is open. One
    /// reader at a time; never blocks.
    func readCapture(into buffer: UnsafeMutableBufferPointer<Float>) -> Int

    /// Stops the stream, disconnects and releases every server-side object and
    /// thread. Safe to call twice or when never opened.
    func close()

    /// Counters since `open`, readable at any time from any control thread.
    var statistics: BackendStatistics { get }

    /// How long a frame rendered now takes to be heard (our buffer plus the
    /// device's), as the server reports it; `nil` when unknown or not open.
    var outputLatency: Duration? { get }
}

/// Receives ``BackendEvent``s on the backend's thread. Must return quickly and
/// must not call the backend.
package typealias BackendEventHandler = @Sendable (BackendEvent) -> Void
