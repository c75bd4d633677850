import CMixKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A counting semaphore the streaming thread sleeps on, with a timeout; the
/// one place the mixer calls the POSIX semaphore functions.
final class Wakeup: @unchecked Sendable {
    // @unchecked: sem_t is designed for concurrent use; the pointer never changes.
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes one waiter (or the next one to wait).
    func signal() { sem_post(semaphore) }

    /// Sleeps until signalled, or at most `milliseconds` when given.
    func wait(milliseconds: Int?) {
        guard let milliseconds else {
            while sem_wait(semaphore) != 0 && errno == EINTR {}
            return
        }
        // On the monotonic clock: a wall-clock step (NTP, the user) must not
        // stretch or skip the wait (sem_timedwait only knows CLOCK_REALTIME).
        _ = mk_sem_wait_monotonic(semaphore, milliseconds)
    }
}
