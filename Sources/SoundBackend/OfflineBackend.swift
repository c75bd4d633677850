package import SoundCore
package import SoundSession
import Synchronization

/// A backend with no server: nothing renders until the caller advances the
/// clock with ``render(frames:)``, which calls the render entry on the calling
/// thread and returns the audio. Deterministic; for tests and offline bounces.
///
/// ``inject(_:)`` delivers a ``BackendEvent`` as if a server had sent it;
/// ``performed`` lists the server actions the engine asked for. The server
/// it pretends to be has one output, a built-in speaker named `offline`,
/// unless `snapshot` says otherwise: a fake of our own backend protocol for
/// engine tests, never a stand-in for PulseAudio.
package final class OfflineBackend: AudioBackend {
    // Mutable state lives behind one lock; render() copies the entry out and
    // calls it outside that lock, so the render function never runs under it.
    // It runs under `renderGate`, which only setPaused and close also take:
    // like a server's cork, they return once no render is in flight, so the
    // engine's clock never mixes while a render of ours still does (issue 16:
    // rendering from one thread while others pause is a race otherwise).
    private struct State {
        var configuration: BackendConfiguration?
        var render: RenderEntry?
        var events: BackendEventHandler?
        var paused = true
        var statistics = BackendStatistics()
        var performed: [ServerAction] = []
        /// The playback stream, once the first setStreamProperties created it.
        var stream: GrantedStream?
        var reconnects = 0
        /// Called before each render (``setBeforeRender(_:)``).
        var beforeRender: (@Sendable () -> Void)?
        /// Stream creations still to refuse (``failStreamCreations(_:)``), and
        /// when each creation was asked for.
        var creationsToFail = 0
        var creationAttempts: [(at: ContinuousClock.Instant, created: Bool)] = []
    }

    private let state = ControlLock(State())
    /// Held for each call of the render entry, and by setPaused and close;
    /// it counts the render calls made.
    private let renderGate = ControlLock<UInt64>(0)

    /// What `open` grants: the requested format unless overridden here.
    private let grantedFormatOverride: StreamFormat?

    /// Creates an offline backend for a game's own tests: one built-in
    /// speaker, the requested format granted.
    package convenience init() { self.init(grantedFormat: nil, snapshot: nil) }

    /// Creates an offline backend. `grantedFormat` lets a test pretend the
    /// server granted something other than what was asked (e.g. `int16`).
    package init(grantedFormat: StreamFormat? = nil, snapshot: SystemSnapshot? = nil) {
        self.grantedFormatOverride = grantedFormat
        self.snapshot = snapshot ?? Self.defaultSnapshot
    }

    /// What `open` reports the pretend server has.
    private let snapshot: SystemSnapshot

    /// One built-in speaker, `offline`, the default output.
    package static let defaultSnapshot = SystemSnapshot(
        endpoints: [AudioEndpoint(id: EndpointID(.output, device: "offline"), portType: .builtInSpeaker, name: "Offline")],
        defaultOutput: EndpointID(.output, device: "offline"))

    /// The server-side actions performed since `open`, in order.
    package var performed: [ServerAction] { state.withLock { $0.performed } }

    /// The first ``ServerAction/setStreamProperties(_:)`` creates the stream
    /// (paused), as on a real server; the rest is recorded. A creation
    /// ``failStreamCreations(_:)`` refuses leaves no stream (a real backend
    /// closes the old one first) and is not recorded in ``performed``.
    package func perform(_ action: ServerAction) throws(SoundEngineError) {
        try state.withLock { s throws(SoundEngineError) in
            guard let configuration = s.configuration else { throw .deviceNotReady("the offline backend is not open") }
            if case .setStreamProperties = action {
                let refused = s.creationsToFail > 0
                s.creationAttempts.append((.now, !refused))
                if refused {
                    s.creationsToFail -= 1
                    s.stream = nil
                    throw .deviceNotReady("the offline backend refused to create the stream (failStreamCreations)")
                }
                s.paused = true
                s.stream = grant(configuration)
            }
            s.performed.append(action)
        }
    }

    /// Refuses the next `count` stream creations, as a server that cannot
    /// make the stream does (the engine tries again, then reconnects).
    package func failStreamCreations(_ count: Int) { state.withLock { $0.creationsToFail = count } }

    /// Every stream creation asked for since `open`: when, and whether it made the stream.
    package var streamCreationAttempts: [(at: ContinuousClock.Instant, created: Bool)] {
        state.withLock { $0.creationAttempts }
    }

    /// What this backend says of its pretend server, as ``open(_:render:events:)``
    /// returned it: a test injects ``BackendEvent/reconnected(_:)`` with it
    /// after a ``BackendEvent/system(_:)`` `.connectionLost`, as a real
    /// backend reports a reconnect.
    package var serverDescription: ServerDescription { server }

    package var grantedStream: GrantedStream? { state.withLock { $0.stream } }

    /// Counts the request (a manual clock has no connection to drop).
    package func reconnect() { state.withLock { $0.reconnects += 1 } }

    /// How often the engine asked to reconnect.
    package var reconnectRequests: Int { state.withLock { $0.reconnects } }

    /// Always 0: there is no microphone.
    package func readCapture(into buffer: UnsafeMutableBufferPointer<Float>) -> Int { 0 }

    package func open(
        _ configuration: BackendConfiguration,
        render: RenderEntry,
        events: @escaping BackendEventHandler
    ) throws(SoundEngineError) -> ServerDescription {
        try state.withLock { s throws(SoundEngineError) in
            guard s.configuration == nil else { throw .alreadyInitialized }
            s.configuration = configuration
            s.render = render
            s.events = events
            s.paused = true
            s.statistics = BackendStatistics()
            s.performed = []
            s.stream = nil
            s.creationAttempts = []
        }
        return server
    }

    private var server: ServerDescription {
        ServerDescription(serverName: "offline", serverVersion: "1", snapshot: snapshot)
    }

    /// The stream `open`'s configuration asks for, in the granted format.
    private func grant(_ configuration: BackendConfiguration) -> GrantedStream {
        let latency = configuration.latency
        return GrantedStream(
            server: server, format: grantedFormatOverride ?? configuration.format,
            buffer: BufferAttributes(
                maxLength: latency.targetFrames * 4, targetLength: latency.targetFrames,
                prebuffer: latency.targetFrames - latency.requestFrames, minimumRequest: latency.requestFrames),
            deviceName: "offline")
    }

    package func setPaused(_ paused: Bool) throws(SoundEngineError) {
        try renderGate.withLock { _ throws(SoundEngineError) in
            try state.withLock { s throws(SoundEngineError) in
                guard s.configuration != nil, s.stream != nil else {
                    throw .deviceNotReady("the offline backend has no stream open")
                }
                s.paused = paused
            }
        }
    }

    package func close() {
        renderGate.withLock { _ in
            state.withLock { s in
                s.configuration = nil
                s.render = nil
                s.events = nil
                s.paused = true
                s.stream = nil
            }
        }
    }

    package var statistics: BackendStatistics { state.withLock { $0.statistics } }

    /// Renders are made on the caller's thread: `hook` runs before each.
    package func setBeforeRender(_ hook: (@Sendable () -> Void)?) {
        state.withLock { $0.beforeRender = hook }
    }

    /// Always `nil`: a manual clock has no latency to report.
    package var outputLatency: Duration? { nil }

    /// Returns at once: nothing is buffered between a render and its output.
    package func waitUntilPlayed(extraFrames: Int, timeout: Duration) {}

    /// Whether the stream is paused (corked).
    package var isPaused: Bool { state.withLock { $0.paused } }

    /// Advances the clock by `frames`: lets the engine finish what earlier
    /// calls queued for its own threads (a posted event's actions), then
    /// calls the render entry once for that many frames if the stream is
    /// open and running, and returns the bytes it wrote (in the granted
    /// format). Returns `nil` while paused or closed. `frames` is clamped to
    /// 0…1 048 576 (about 22 s at 48 kHz; render a longer bounce in several
    /// calls), so no count traps.
    package func render(frames: Int) -> [UInt8]? {
        let frames = min(max(frames, 0), Self.maxFramesPerRender)
        state.withLock { $0.beforeRender }?()
        return renderGate.withLock { calls -> [UInt8]? in
            let snapshot: (RenderEntry, StreamFormat)? = state.withLock { s in
                guard let entry = s.render, let config = s.configuration, !s.paused else { return nil }
                s.statistics.renderCalls += 1
                s.statistics.framesRendered += UInt64(frames)
                return (entry, grantedFormatOverride ?? config.format)
            }
            guard let (entry, format) = snapshot else { return nil }
            var bytes = [UInt8](repeating: 0, count: frames * format.bytesPerFrame)
            bytes.withUnsafeMutableBytes { raw in
                if let base = raw.baseAddress { entry(base, frames: frames) }
            }
            calls &+= 1
            return bytes
        }
    }

    /// The most frames one ``render(frames:)`` renders.
    private static let maxFramesPerRender = 1 << 20

    /// Renders `frames` frames as ``render(frames:)`` does and returns the
    /// samples as floats: as written for a float32 stream, an int16 stream's
    /// scaled to -1…1 (÷ 32768).
    package func renderFloat(frames: Int) -> [Float]? {
        let format = state.withLock { s in s.configuration.map { grantedFormatOverride ?? $0.format } }
        guard let bytes = render(frames: frames) else { return nil }
        if format?.sampleFormat == .int16 {
            return bytes.withUnsafeBytes { $0.withMemoryRebound(to: Int16.self) { $0.map { Float($0) / 32768 } } }
        }
        return bytes.withUnsafeBytes { $0.withMemoryRebound(to: Float.self) { Array($0) } }
    }

    /// Delivers `event` to the engine as if the server had sent it. Does
    /// nothing while the backend is not open (no server, nobody to tell, and
    /// the statistics count only what happened since `open`).
    package func inject(_ event: BackendEvent) {
        let handler = state.withLock { s -> BackendEventHandler? in
            guard s.configuration != nil else { return nil }
            if case .underflow = event { s.statistics.underflows += 1 }
            return s.events
        }
        handler?(event)
    }
}
