package import SoundBackend
package import SoundCore
package import SoundSession
import CPulseAudio
import Dispatch
import Foundation
import Synchronization

/// The PulseAudio backend: two `pa_context`s on two `pa_threaded_mainloop`s
/// (playback, whose loop thread renders in the write callback, and control,
/// which runs the server model), one float32 (or s16) playback stream
/// created by the session's first action, and a record stream on demand.
///
/// Works with a PulseAudio daemon and with pipewire-pulse. How each piece is
/// set up, and why the buffer sizes are what they are: docs/pulseaudio.md.
///
/// Threading: the ``AudioBackend`` methods are called from control threads;
/// they take `link`, then a loop lock for every libpulse call. The getters
/// read atomics (``BackendStatus``) and a small lock never held across a
/// server round trip. The render entry runs on the playback loop thread
/// (`SoundEngine-pulse`), the event handler on the control loop thread
/// (`SoundEngine-ctl`) or the reconnect thread.
package final class PulseAudioBackend: AudioBackend, @unchecked Sendable {
    // @unchecked: `link` and `granted` are only changed under their locks;
    // the Connection's own mutable fields are only touched with its loop
    // locks held (libpulse runs every callback under them); `captureRing` and
    // `status` are plain memory with atomics (see CaptureRing, BackendStatus).
    private struct Link {
        var connection: Connection?
        /// What `open` was given, kept for reconnects (stream properties
        /// follow `setStreamProperties`).
        var configuration: BackendConfiguration?
        var render: RenderEntry?
        var events: BackendEventHandler?
        var holds: HoldBook?
        var closing = false
        var reconnector: Reconnector?
    }

    private let link = ControlLock(Link())
    /// The stream as granted, for ``grantedStream``; never held across a round trip.
    private let granted = ControlLock<GrantedStream?>(nil)
    /// Captured input, from the record stream's read callback to `readCapture`.
    private let captureRing: UnsafeMutablePointer<CaptureRing>
    /// Counters and published state, for the getters (see ``BackendStatus``).
    private let status: UnsafeMutablePointer<BackendStatus>
    /// Whether connections wake their control loop through a pipe (else a 10 ms timer; see NoticeWakeup).
    private let noticePipe: Bool

    /// Creates an unconnected backend; ``open(_:render:events:)`` connects.
    public convenience init() { self.init(noticePipe: true) }

    /// `noticePipe: false` gives connections no notice pipe, as when `pipe()`
    /// fails, so the timer fallback runs (its test uses it).
    init(noticePipe: Bool) {
        self.noticePipe = noticePipe
        captureRing = .allocate(capacity: 1)
        captureRing.initialize(to: CaptureRing(minimumCapacity: 1 << 17))
        status = .allocate(capacity: 1)
        status.initialize(to: BackendStatus())
    }

    deinit {
        close()
        captureRing.pointee.free()
        captureRing.deinitialize(count: 1)
        captureRing.deallocate()
        status.deinitialize(count: 1)
        status.deallocate()
    }

    public func open(
        _ configuration: BackendConfiguration,
        render: RenderEntry,
        events: @escaping BackendEventHandler
    ) throws(SoundEngineError) -> ServerDescription {
        try link.withLock { link throws(SoundEngineError) in
            guard link.connection == nil, link.configuration == nil else { throw .alreadyInitialized }
            let holds = HoldBook(configuration, warn: { message in events(.warning(message)) })
            let reconnector = Reconnector(backend: self)
            let connection = makeConnection(configuration, render: render, events: events, holds: holds, reconnector: reconnector)
            do throws(SoundEngineError) {
                let server = try connection.connect()
                if let identity = connection.serverIdentity { holds.connected(to: identity) }
                link = Link(
                    connection: connection, configuration: configuration, render: render, events: events,
                    holds: holds, reconnector: reconnector)
                return server
            } catch {
                connection.teardown()
                reconnector.stop()
                holds.close()
                throw error
            }
        }
    }

    /// A connection whose loss wakes `reconnector`. The loss is noticed on a
    /// loop thread with its lock held, so waking must not take `link`
    /// (control threads take `link`, then the loop locks).
    private func makeConnection(
        _ configuration: BackendConfiguration, render: RenderEntry, events: @escaping BackendEventHandler,
        holds: HoldBook, reconnector: Reconnector
    ) -> Connection {
        Connection(
            configuration: configuration, render: render, events: events, captureRing: captureRing, status: status,
            holds: holds, noticePipe: noticePipe, onLost: { [weak reconnector] in reconnector?.wake() })
    }

    public func setPaused(_ paused: Bool) throws(SoundEngineError) {
        try link.withLock { link throws(SoundEngineError) in
            guard let connection = link.connection else { throw .deviceNotReady("the PulseAudio stream is not open") }
            try connection.setCorked(paused)
        }
    }

    public func perform(_ action: ServerAction) throws(SoundEngineError) {
        try link.withLock { link throws(SoundEngineError) in
            guard let connection = link.connection, !connection.isLost else {
                throw .mediaServicesFailed("the PulseAudio connection is not open (server away or closed)")
            }
            do throws(SoundEngineError) {
                try connection.perform(action)
            } catch {
                if case .setStreamProperties = action { publishGrant(nil) }
                throw error
            }
            if case .setStreamProperties(let properties) = action {
                // A reconnect re-creates the streams with the latest properties.
                link.configuration?.streamProperties = properties
                publishGrant(connection.mainloop?.withLock { connection.grant() } ?? nil)
            }
        }
    }

    private func publishGrant(_ grant: GrantedStream?) { granted.withLock { $0 = grant } }

    public var grantedStream: GrantedStream? { granted.withLock { $0 } }

    public func reconnect() {
        link.withLock { $0.connection?.abandon() }
    }

    public func readCapture(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let channels = link.withLock({ $0.configuration?.captureChannels }) else { return 0 }
        return captureRing.pointee.read(into: buffer, channels: channels) / channels
    }

    public func close() {
        let (connection, reconnector, holds) = link.withLock { link -> (Connection?, Reconnector?, HoldBook?) in
            defer { link = Link() }
            link.closing = true
            return (link.connection, link.reconnector, link.holds)
        }
        // The reconnect thread takes `link` itself: join it unlocked.
        reconnector?.stop()
        // The restore-database entries we touched are repaired while the
        // connection is still there (a server restarted later reads its
        // saved state, which may hold our change: it saves late).
        connection?.repairHolds()
        connection?.teardown()
        // Whatever is still held (the server went away while we held it) is
        // given back now if the server answers, else left to the next start.
        holds?.close()
        publishGrant(nil)
    }

    public var statistics: BackendStatistics {
        // relaxed: published counters.
        BackendStatistics(
            renderCalls: status.pointee.renderCalls.load(ordering: .relaxed),
            framesRendered: status.pointee.framesRendered.load(ordering: .relaxed),
            underflows: status.pointee.underflows.load(ordering: .relaxed),
            reconnects: status.pointee.reconnects.load(ordering: .relaxed))
    }

    public var outputLatency: Duration? {
        guard status.pointee.streamOpen.load(ordering: .acquiring) else { return nil }
        let micros = status.pointee.latencyMicros.load(ordering: .relaxed)
        return micros == .max ? nil : .microseconds(micros)
    }

    public func waitUntilPlayed(extraFrames: Int, timeout: Duration) {
        // Under `link`, so close and reconnects wait; the wait is bounded by `timeout`.
        link.withLock { $0.connection?.waitUntilPlayed(extraFrames: extraFrames, timeout: timeout) }
    }

    /// Whether our stream is currently corked on the server, or `nil` when none is open.
    public var isCorked: Bool? {
        // acquiring: pair with the connection's releasing stores.
        status.pointee.streamOpen.load(ordering: .acquiring) ? status.pointee.corked.load(ordering: .acquiring) : nil
    }

    /// Our stream's index on the server (the sink-input index `pactl` shows), or `nil` when none is open.
    public var streamIndex: UInt32? {
        let index = status.pointee.streamIndex.load(ordering: .acquiring)  // acquiring: as isCorked
        return index == paInvalidIndex ? nil : index
    }

    /// Our capture stream's index on the server (the source-output index), or `nil` when none is open.
    public var captureIndex: UInt32? {
        link.withLock { $0.connection }?.withPlaybackIfOpen { $0.capture?.index } ?? nil
    }

    /// The journal of what this backend holds changed on other streams (tests).
    var holdJournal: HoldJournal? { link.withLock { $0.holds?.journal } }

    /// Whether the server model has no burst open and nothing of its last
    /// flushes left to judge later events by (tests: a choice a person makes
    /// comes after a device settled, not milliseconds after it appeared).
    var serverModelHasSettled: Bool {
        link.withLock { $0.connection }?.withModel { $0.burstStart == nil && $0.aftermath.isSettled(at: .now) } ?? true
    }

    /// Whether a move of our playback stream that the engine did not ask for
    /// would now be taken for the user's: ``ServerModel/linkSettle`` after
    /// the stream was made (tests: a person moves a stream once it has
    /// settled in, not while the session manager still links it).
    package var ownPlaybackHasSettled: Bool {
        link.withLock { $0.connection }?.withModel { ContinuousClock.now >= $0.ownPlaybackSettles } ?? false
    }

    // MARK: Reconnecting

    /// Reconnect thread: tears the dead connection down, gives back what the
    /// journal holds on it (a client killed alone leaves its mutes behind on
    /// a server that is still there), then connects again with back-off
    /// (50 ms doubling to 250 ms) until it succeeds or the backend closes.
    func reconnect(_ reconnector: Reconnector) {
        let dead = link.withLock { link -> Connection? in
            defer { if link.connection?.isLost == true { link.connection = nil } }
            return link.connection?.isLost == true ? link.connection : nil
        }
        guard let dead else { return }  // nothing lost (a spurious wake)
        dead.teardown()
        var backoff = Duration.milliseconds(50)
        while true {
            let outcome = link.withLock { link -> Result<(ServerDescription, BackendEventHandler), SoundEngineError>? in
                guard !link.closing, var configuration = link.configuration, let render = link.render,
                    let events = link.events, let holds = link.holds
                else { return nil }
                configuration.connectTimeout = configuration.reconnectTimeout
                let connection = makeConnection(configuration, render: render, events: events, holds: holds, reconnector: reconnector)
                do throws(SoundEngineError) {
                    let server = try connection.connect()
                    if let identity = connection.serverIdentity { holds.connected(to: identity) }
                    link.connection = connection
                    status.pointee.reconnects.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
                    return .success((server, events))
                } catch {
                    connection.teardown()
                    return .failure(error)
                }
            }
            switch outcome {
            case nil:
                return  // closed
            case .success(let (server, events))?:
                publishGrant(nil)
                events(.reconnected(server))
                return
            case .failure?:
                guard reconnector.sleep(backoff) else { return }
                backoff = min(backoff * 2, .milliseconds(250))
            }
        }
    }
}

extension Connection {
    /// `body` with the playback lock held, `nil` when no loop runs.
    func withPlaybackIfOpen<T>(_ body: (Connection) -> T) -> T? {
        guard let loop = mainloop else { return nil }
        return loop.withLock { body(self) }
    }
}
