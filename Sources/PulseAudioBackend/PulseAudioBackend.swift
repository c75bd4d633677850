package import SoundBackend
package import SoundCore
package import SoundSession
import CPulseAudio
import Dispatch
import Foundation
import Synchronization

/// The PulseAudio backend: one `pa_context` on a `pa_threaded_mainloop`, one
/// float32 (or s16) playback stream whose write callback calls the
/// ``RenderEntry`` directly on the mainloop thread.
///
/// Works with a PulseAudio daemon and with pipewire-pulse. How each piece is
/// set up, and why the buffer sizes are what they are: docs/pulseaudio.md.
///
/// Threading: the ``AudioBackend`` methods are called from control threads;
/// they take the mainloop lock for every libpulse call. The render entry and
/// the event handler run on the mainloop thread (`SoundEngine-pulse`).
package final class PulseAudioBackend: AudioBackend, @unchecked Sendable {
    // @unchecked: `link` is only changed under its Mutex; the Connection's own
    // mutable fields are only touched with its mainloop lock held (libpulse
    // runs every callback under that lock); `captureRing` is plain memory
    // with one producer and one consumer (see CaptureRing).
    private struct Link {
        var connection: Connection?
        /// What `open` was given, kept for reconnects (stream properties
        /// follow `setStreamProperties`).
        var configuration: BackendConfiguration?
        var render: RenderEntry?
        var events: BackendEventHandler?
        var closing = false
        var reconnector: Reconnector?
        var reconnects: UInt64 = 0
    }

    private let link = ControlLock(Link())
    private let closedStatistics = ControlLock(BackendStatistics())
    /// Captured input, from the record stream's read callback to `readCapture`.
    private let captureRing: UnsafeMutablePointer<CaptureRing>

    /// Creates an unconnected backend; ``open(_:render:events:)`` connects.
    public init() {
        captureRing = .allocate(capacity: 1)
        captureRing.initialize(to: CaptureRing(minimumCapacity: 1 << 17))
    }

    deinit {
        close()
        captureRing.pointee.free()
        captureRing.deinitialize(count: 1)
        captureRing.deallocate()
    }

    public func open(
        _ configuration: BackendConfiguration,
        render: RenderEntry,
        events: @escaping BackendEventHandler
    ) throws(SoundEngineError) -> GrantedStream {
        try link.withLock { link throws(SoundEngineError) in
            guard link.connection == nil, link.configuration == nil else { throw .alreadyInitialized }
            let reconnector = Reconnector(backend: self)
            let connection = makeConnection(configuration, render: render, events: events, reconnector: reconnector)
            do throws(SoundEngineError) {
                let granted = try connection.connect()
                link = Link(
                    connection: connection, configuration: configuration, render: render, events: events,
                    reconnector: reconnector, reconnects: link.reconnects)
                return granted
            } catch {
                connection.teardown()
                reconnector.stop()
                throw error
            }
        }
    }

    /// A connection whose loss wakes `reconnector`. The loss is noticed on the
    /// mainloop thread with the mainloop lock held, so waking must not take
    /// `link` (control threads take `link`, then the mainloop lock).
    private func makeConnection(
        _ configuration: BackendConfiguration, render: RenderEntry, events: @escaping BackendEventHandler,
        reconnector: Reconnector
    ) -> Connection {
        Connection(
            configuration: configuration, render: render, events: events, captureRing: captureRing,
            onLost: { [weak reconnector] in reconnector?.wake() })
    }

    public func setPaused(_ paused: Bool) throws(SoundEngineError) {
        try link.withLock { link throws(SoundEngineError) in
            guard let connection = link.connection else { throw .deviceNotReady("the PulseAudio stream is not open") }
            try connection.setCorked(paused)
        }
    }

    public func perform(_ action: SessionAction) throws(SoundEngineError) {
        try link.withLock { link throws(SoundEngineError) in
            guard let connection = link.connection else {
                throw .mediaServicesFailed("the PulseAudio connection is not open (server away or closed)")
            }
            try connection.perform(action)
            // A reconnect re-creates the streams with the latest properties.
            if case .setStreamProperties = action { link.configuration = connection.configuration }
        }
    }

    public func readCapture(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let channels = link.withLock({ $0.configuration?.captureChannels }) else { return 0 }
        return captureRing.pointee.read(into: buffer, channels: channels) / channels
    }

    public func close() {
        let (connection, reconnector) = link.withLock { link -> (Connection?, Reconnector?) in
            defer { link = Link(reconnects: link.reconnects) }
            link.closing = true
            return (link.connection, link.reconnector)
        }
        // The reconnect thread takes `link` itself: join it unlocked.
        reconnector?.stop()
        if let connection {
            let final = connection.statistics
            connection.teardown()
            closedStatistics.withLock { $0 = final }
        }
    }

    public var statistics: BackendStatistics {
        let (live, reconnects) = link.withLock { ($0.connection?.statistics, $0.reconnects) }
        var stats = live ?? closedStatistics.withLock { $0 }
        stats.reconnects = reconnects
        return stats
    }

    public var outputLatency: Duration? {
        link.withLock { $0.connection?.latency }
    }

    public func waitUntilPlayed(extraFrames: Int, timeout: Duration) {
        // Under `link`, so close and reconnects wait; the wait is bounded by `timeout`.
        link.withLock { $0.connection?.waitUntilPlayed(extraFrames: extraFrames, timeout: timeout) }
    }

    /// Whether our stream is currently corked on the server, or `nil` when not open.
    public var isCorked: Bool? {
        link.withLock { $0.connection?.isCorked }
    }

    /// Our stream's index on the server (the sink-input index `pactl` shows), or `nil` when not open.
    public var streamIndex: UInt32? {
        link.withLock { $0.connection?.streamIndex }
    }

    /// Our capture stream's index on the server (the source-output index), or `nil` when none is open.
    public var captureIndex: UInt32? {
        link.withLock { $0.connection?.captureIndex }
    }

    // MARK: Reconnecting

    /// Reconnect thread: tears the dead connection down, then tries again
    /// with back-off (50 ms doubling to 250 ms) until a connection is made
    /// or the backend closes. Returns when done.
    func reconnect(_ reconnector: Reconnector) {
        let dead = link.withLock { link -> Connection? in
            defer { link.connection = nil }
            return link.connection?.isLost == true ? link.connection : nil
        }
        guard let dead else { return }  // nothing lost (a spurious wake)
        let final = dead.statistics
        dead.teardown()
        closedStatistics.withLock { $0 = final }
        var backoff = Duration.milliseconds(50)
        while true {
            let outcome = link.withLock { link -> Result<(GrantedStream, BackendEventHandler), SoundEngineError>? in
                guard !link.closing, var configuration = link.configuration, let render = link.render,
                    let events = link.events
                else { return nil }
                configuration.connectTimeout = configuration.reconnectTimeout
                let connection = makeConnection(configuration, render: render, events: events, reconnector: reconnector)
                do throws(SoundEngineError) {
                    let granted = try connection.connect()
                    link.connection = connection
                    link.reconnects += 1
                    return .success((granted, events))
                } catch {
                    connection.teardown()
                    return .failure(error)
                }
            }
            switch outcome {
            case nil:
                return  // closed
            case .success(let (granted, events))?:
                events(.reconnected(granted))
                return
            case .failure?:
                guard reconnector.sleep(backoff) else { return }
                backoff = min(backoff * 2, .milliseconds(250))
            }
        }
    }
}
