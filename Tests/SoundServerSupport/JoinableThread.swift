import Glibc

/// A thread a test can join: ``join()`` returns after the body has returned,
/// through `pthread_join`, a happens-before edge ThreadSanitizer sees;
/// polling Foundation's `Thread.isFinished` gives it none, so reading what
/// the thread wrote after such a poll is reported as a race.
public final class JoinableThread: @unchecked Sendable {
    // @unchecked: `handle` is written by start() and read by join(), both on
    // the creating thread; `body` is immutable.
    private var handle = pthread_t()
    private let body: @Sendable () -> Void

    public init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    /// Starts the thread.
    public func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<JoinableThread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            return nil
        }, context)
        precondition(created == 0, "pthread_create failed: \(created)")
    }

    /// Waits until the thread has finished.
    public func join() { pthread_join(handle, nil) }
}
