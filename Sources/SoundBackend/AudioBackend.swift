package import SoundCore
package import SoundSession

/// The contract between the engine and a sound server: connect, report what
/// happens on the server as ``SystemEvent``s, perform the session policy's
/// ``ServerAction``s — the first of which creates the playback stream that
/// pulls audio from a ``RenderEntry`` — pause and resume that stream,
/// reconnect after the server went away, close.
///
/// Two implementations: `PulseAudioBackend` (a real server) and
/// ``OfflineBackend`` (no server; a manual clock pulls the render function, for
/// tests and offline rendering).
///
/// Threading: every method is called from control threads (the engine's
/// session thread, a game thread for the getters), never from the render
/// thread or from inside an event handler. The getters never wait on the
/// server. The render entry is called on the backend's real-time thread; the
/// event handler is called on the backend's own thread and must return
/// quickly without calling back into the backend.
package protocol AudioBackend: AnyObject, Sendable {
    /// Connects to the server. No stream exists yet: the session policy's
    /// first action, ``ServerAction/setStreamProperties(_:)``, creates it, so
    /// start-up, a category change and a recovery take one path.
    ///
    /// After `open` returns, the backend reports server facts through
    /// `events` (coalesced: one physical change, one fact). When the
    /// connection is lost it reports ``SystemEvent/connectionLost``, then
    /// reconnects by itself with back-off until ``close()``, and reports
    /// ``BackendEvent/reconnected(_:)``; the engine then creates its streams
    /// again. When our stream alone is lost (killed, failed, stalled) it
    /// reports ``BackendEvent/streamFailed(_:)``.
    ///
    /// - Returns: what the server is and a ``SystemSnapshot`` of what it has.
    /// - Throws: `deviceNotReady` naming the address tried when no server
    ///   answers within ``BackendConfiguration/connectTimeout``;
    ///   `alreadyInitialized` if already open. On failure nothing is left
    ///   running.
    func open(
        _ configuration: BackendConfiguration,
        render: RenderEntry,
        events: @escaping BackendEventHandler
    ) throws(SoundEngineError) -> ServerDescription

    /// Performs a server-side action of the session policy.
    /// ``ServerAction/setStreamProperties(_:)`` creates the playback stream
    /// (corked) the first time and re-creates it (and an open capture
    /// stream) with new properties, or after it was lost.
    ///
    /// - Throws: `deviceNotReady`/`mediaServicesFailed` when the server is
    ///   away; `fail` naming what the server refused.
    func perform(_ action: ServerAction) throws(SoundEngineError)

    /// The playback stream as the server granted it (format, buffer sizes,
    /// device), `nil` while there is none. Never waits on the server.
    var grantedStream: GrantedStream? { get }

    /// Pauses (`true`, the stream is corked: the render entry stops being
    /// called, and what is buffered and not yet heard is dropped) or resumes
    /// the stream (the buffer is filled with fresh audio first).
    func setPaused(_ paused: Bool) throws(SoundEngineError)

    /// Blocks until everything the render entry has produced so far, plus
    /// `extraFrames` it may still hold, has been heard (or `timeout` passed,
    /// or the stream is paused or gone). The engine calls it between a
    /// fade-out and a cork, a move or a disconnect, so the cut falls in silence.
    func waitUntilPlayed(extraFrames: Int, timeout: Duration)

    /// Drops the connection and reconnects with back-off, as after a lost
    /// server (reported as ``SystemEvent/connectionLost``, then
    /// ``BackendEvent/reconnected(_:)``): what the engine does when its
    /// stream cannot be created again on the connection it has.
    func reconnect()

    /// Reads captured input (interleaved float32 frames of
    /// ``BackendConfiguration/captureChannels`` channels at the stream rate) into `buffer`; returns the frames
    /// read, 0 when none are waiting or no capture stream is open. One
    /// reader at a time; never blocks.
    func readCapture(into buffer: UnsafeMutableBufferPointer<Float>) -> Int

    /// Stops the stream, disconnects and releases every server-side object and
    /// thread. Safe to call twice or when never opened.
    func close()

    /// Counters since `open`, readable at any time from any thread; never waits on the server.
    var statistics: BackendStatistics { get }

    /// How long a frame rendered now takes to be heard (our buffer plus the
    /// device's), as the server reports it; `nil` when unknown or not open.
    /// Never waits on the server.
    var outputLatency: Duration? { get }

    /// Work the engine hands to its own threads (a posted event's actions
    /// wait for the posting thread) that must be done before a render a
    /// caller makes itself: a backend that renders on its caller's thread
    /// (``OfflineBackend``) calls `hook` before each render, outside its
    /// locks, so a render made after a call hears what the call started. A
    /// real-time backend never calls it (its render thread may not wait or
    /// lock; the posting thread runs within microseconds of the call).
    func setBeforeRender(_ hook: (@Sendable () -> Void)?)
}

extension AudioBackend {
    /// Real-time backends render on their own thread and ignore the hook.
    package func setBeforeRender(_ hook: (@Sendable () -> Void)?) {}
}

/// Receives ``BackendEvent``s on the backend's thread. Must return quickly and
/// must not call the backend.
package typealias BackendEventHandler = @Sendable (BackendEvent) -> Void
