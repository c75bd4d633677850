package import Glibc

/// Starts the engine's own threads: named, optionally under `SCHED_BATCH`,
/// each joined by its owner (`pthread_join`) so that no thread of ours
/// outlives terminate.
package enum EngineThread {
    /// Starts a thread named `name` (15 bytes show) that runs `body` and
    /// ends. With `batch`, it runs under `SCHED_BATCH` first
    /// (``CurrentThread/preferNotToPreemptOnWakeup()``): for threads a game
    /// thread wakes on its way through a call. Traps when the system refuses
    /// a thread (no engine thread can be done without).
    package static func start(_ name: String, batch: Bool = false, _ body: @escaping @Sendable () -> Void)
        -> pthread_t
    {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Start(name: name, batch: batch, body: body)).toOpaque()
        let result = pthread_create(&thread, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            CurrentThread.setName(start.name)
            if start.batch { CurrentThread.preferNotToPreemptOnWakeup() }
            start.body()
            return nil
        }, context)
        precondition(result == 0, "\(name): pthread_create failed (\(result))")
        return thread
    }

    /// What the new thread is handed.
    private final class Start {
        let name: String
        let batch: Bool
        let body: @Sendable () -> Void

        init(name: String, batch: Bool, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.batch = batch
            self.body = body
        }
    }
}
