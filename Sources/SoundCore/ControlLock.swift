#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock around `State`, for the control world (never the
/// render path): game threads, the event thread, the backend's control loop.
///
/// Why not `Synchronization.Mutex`: on Linux it waits on a futex directly,
/// which ThreadSanitizer cannot see, so every access it protects is reported
/// as a race (measured: 559 reports in one 8-thread stress run, all inside
/// `Mutex.withLock`). This lock is a `pthread_mutex_t`, which TSan
/// intercepts, so a TSan run reports only real races (docs/architecture.md,
/// "Checking the threads"). Uncontended cost is the same: glibc's
/// `pthread_mutex_lock` is a futex fast path as well.
package final class ControlLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched between lock and unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Unchecked: the mutex already makes every access exclusive. The dynamic
    // exclusivity check only duplicated it, and for a zero-sized State (a lock
    // that guards a region, not a value: `ControlLock(())`) its formal access
    // lands on the address of `mutex`, which TSan then reports as racing with
    // the unlocked read of the pointer (found by HostileInputTests' threads
    // loading banks at once). Data races on the state itself are still seen.
    @exclusivity(unchecked) private var state: State

    /// Creates the lock holding `initial`.
    package init(_ initial: State) {
        state = initial
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and the state passed in-out.
    package func withLock<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Runs `body` if the lock is free now, else returns `nil` without waiting.
    package func withLockIfAvailable<Result, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
