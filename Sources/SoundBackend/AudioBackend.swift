public import SoundCore

/// The contract between the engine and a sound server: connect, open one
/// playback stream that pulls audio from a ``RenderEntry``, pause/resume it,
/// report what happens, close.
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
public protocol AudioBackend: AnyObject, Sendable {
    /// Connects to the server and creates the playback stream, paused.
    ///
    /// - Returns: what the server granted (format, buffer sizes, server name).
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
    /// called) or resumes the stream.
    func setPaused(_ paused: Bool) throws(SoundEngineError)

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
public typealias BackendEventHandler = @Sendable (BackendEvent) -> Void
