import Dispatch
import Foundation
import SoundCore
import SoundSession
import Synchronization

/// The engine's event thread (`SoundEngine-evt`): the one thread that runs
/// game callbacks, posts notifications and feeds ``SoundEngine/events()``.
///
/// Producers (the session thread, game threads calling the engine) only
/// append to an inbox and signal; they never run game code. The thread also
/// polls the mixer's render → control event ring every ``pollMilliseconds``,
/// because the render thread itself never signals anything.
final class EventDispatcher: @unchecked Sendable {
    // @unchecked: `thread` and `threadID` are written once in start() before
    // any other thread can see them; everything else mutable is in Mutexes.

    private struct Inbox {
        var pending: [SessionEvent] = []
        var stopping = false
    }

    private let inbox = ControlLock(Inbox())
    private let wake = DispatchSemaphore(value: 0)
    private struct Subscribers {
        var continuations: [UInt64: AsyncStream<SessionEvent>.Continuation] = [:]
        /// The last engine state published: a new subscriber starts with it.
        var lastState: EngineState?
        var finished = false
    }
    private let subscribers = ControlLock(Subscribers())
    private let nextSubscriber = Atomic<UInt64>(0)
    private var threadID: pthread_t?
    /// Set by the thread when it returns; `stop` joins it (pthread_join), so
    /// after terminate no thread of ours is left, not even one on its way out.

    /// How often, in milliseconds, the mixer's event ring is drained when
    /// nothing else wakes the thread.
    let pollMilliseconds = 10

    /// Runs on the event thread for every event posted, in order.
    private let handle: @Sendable (SessionEvent) -> Void
    /// Runs on the event thread on every wake-up, to drain the mixer's events.
    private let poll: @Sendable () -> Void
    /// Runs on the event thread once, last: after ``stop()`` was called (when
    /// nothing renders any more), the final `poll` and the last inbound items.
    private let finish: @Sendable () -> Void

    init(
        handle: @escaping @Sendable (SessionEvent) -> Void, poll: @escaping @Sendable () -> Void,
        finish: @escaping @Sendable () -> Void = {}
    ) {
        self.handle = handle
        self.poll = poll
        self.finish = finish
    }

    /// Starts the thread.
    func start() {
        threadID = EngineThread.start("SoundEngine-evt") { self.run() }
    }

    /// Queues an event for the game, delivered on the event thread. Callable
    /// from any thread except the render path; never runs game code itself.
    func post(_ item: SessionEvent) {
        inbox.withLock { $0.pending.append(item) }
        wake.signal()
    }

    /// Whether the caller is the event thread (a callback calling back in).
    var isEventThread: Bool {
        guard let id = threadID else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    /// Delivers what is queued, then stops the thread and finishes every
    /// subscriber's stream. Waits for the thread unless called from it.
    func stop() {
        let already = inbox.withLock { inbox -> Bool in
            defer { inbox.stopping = true }
            return inbox.stopping
        }
        guard !already else { return }
        wake.signal()
        guard let thread = threadID else { return }
        if isEventThread {
            pthread_detach(thread)  // a callback terminated the engine: the thread ends when it returns
        } else {
            pthread_join(thread, nil)
        }
    }

    /// A new stream of every event from now on, starting with the engine's
    /// current state (the last `engineState` published), so a subscriber never
    /// misses the state it starts in and never sees it twice.
    func subscribe() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        // Relaxed: only uniqueness matters; the dictionary is behind its Mutex.
        let id = nextSubscriber.wrappingAdd(1, ordering: .relaxed).newValue
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        subscribers.withLock { subs in
            if let state = subs.lastState { continuation.yield(.engineState(state)) }
            if subs.finished {
                continuation.finish()
            } else {
                subs.continuations[id] = continuation
            }
        }
        return stream
    }

    /// Yields `event` to every subscriber. Event thread only. Under the same
    /// lock as `subscribe`, so a new subscriber gets each state exactly once.
    func publish(_ event: SessionEvent) {
        subscribers.withLock { subs in
            if case .engineState(let state) = event { subs.lastState = state }
            for continuation in subs.continuations.values { continuation.yield(event) }
        }
    }

    private func run() {
        var stopping = false
        while !stopping {
            _ = wake.wait(timeout: .now() + .milliseconds(pollMilliseconds))
            poll()
            let items: [SessionEvent]
            (items, stopping) = inbox.withLock { inbox in
                defer { inbox.pending.removeAll(keepingCapacity: true) }
                return (inbox.pending, inbox.stopping)
            }
            for item in items { handle(item) }
        }
        // Stopping: the mixer's last events, then whatever was posted while
        // the last batch ran, then what is left to finish, then end every
        // subscriber's stream.
        poll()
        for item in inbox.withLock({ inbox in defer { inbox.pending = [] }; return inbox.pending }) { handle(item) }
        finish()
        let continuations = subscribers.withLock { subs in
            defer {
                subs.continuations = [:]
                subs.finished = true
            }
            return Array(subs.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

