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
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = deadline.tv_nsec + milliseconds * 1_000_000
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while sem_timedwait(semaphore, &deadline) != 0 && errno == EINTR {}
    }
}
