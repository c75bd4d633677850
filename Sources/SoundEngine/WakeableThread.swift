import Dispatch
import Foundation
import SoundCore
import Synchronization

/// A thread of the engine that sleeps until a game thread wakes it, then
/// runs `work`: the content engine's posting thread (`SoundEngine-pst`),
/// which runs the actions of the events game threads post.
///
/// Waking it costs the waker an atomic exchange and, for the first wake of
/// a burst, one semaphore signal (a futex wake); wakes that come while a
/// run is owed are the same run. The thread runs under `SCHED_BATCH`
/// (``CurrentThread/preferNotToPreemptOnWakeup()``): the kernel puts a woken
/// thread on its waker's CPU and would otherwise let it preempt the waker,
/// charging the game's call with the work it just handed off (measured with
/// the session thread: docs/performance.md, "Call time on an idle-corked engine").
final class WakeableThread: @unchecked Sendable {
    // @unchecked: `work` is written once by `start` before the thread exists
    // (pthread_create orders it before the thread's first read); `thread` is
    // written by `start` and read only by `stop`, on the threads that own the
    // engine's lifecycle (serialised by the instance), never by the thread
    // itself; the rest is immutable or atomic.

    private let name: String
    private var work: (@Sendable () -> Void)?
    private let semaphore = DispatchSemaphore(value: 0)
    /// A run is owed: set by `wake`, cleared by the thread just before it runs.
    private let owed = Atomic(false)
    private let stopping = Atomic(false)
    private var thread: pthread_t?

    /// A thread named `name` (15 bytes at most show), not started.
    init(name: String) {
        self.name = name
    }

    /// Starts the thread, which runs `work` after wakes. Once.
    func start(_ work: @escaping @Sendable () -> Void) {
        self.work = work
        thread = EngineThread.start(name, batch: true) { self.run() }
    }

    /// Any thread: `work` runs soon on the thread, after everything the
    /// caller did before this call. Never blocks, takes no lock.
    func wake() {
        // acquiringAndReleasing: the caller's writes before the wake are seen by the run it causes.
        guard !owed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        semaphore.signal()
    }

    /// Ends the thread once its current run (if any) has returned, and waits
    /// for it. Idempotent; `work` does not run again.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing), let thread else { return }
        semaphore.signal()
        pthread_join(thread, nil)
    }

    private func run() {
        while true {
            semaphore.wait()
            if stopping.load(ordering: .acquiring) { return }
            // Cleared before the run: a wake during it owes another run.
            guard owed.exchange(false, ordering: .acquiringAndReleasing) else { continue }
            work?()
        }
    }
}
