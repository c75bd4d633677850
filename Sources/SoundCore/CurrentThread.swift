import Glibc

/// The calling thread, as the kernel sees it.
package enum CurrentThread {
    /// Names the calling thread as `ps`, `top -H` and debuggers show it (the
    /// kernel keeps 15 bytes). Written to `/proc/thread-self/comm`, because
    /// `pthread_setname_np` is a GNU extension Swift's Glibc module hides.
    /// Not for the render thread (it is file I/O).
    package static func setName(_ name: String) {
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        fputs(String(name.utf8.prefix(15)) ?? name, file)
        fclose(file)
    }
}

extension CurrentThread {
    /// Puts the calling thread under `SCHED_BATCH`: the same fair share of
    /// the CPU as any other thread, but waking it never preempts the thread
    /// that woke it (it runs when a CPU is free, or at the next scheduler
    /// tick). For threads a game thread wakes on its way through a call, so
    /// the call is not charged with the woken thread's work. Returns whether
    /// the kernel agreed (it always does for an unprivileged thread at nice
    /// priority, but a sandbox may refuse).
    @discardableResult
    package static func preferNotToPreemptOnWakeup() -> Bool {
        var param = sched_param(sched_priority: 0)
        // SCHED_BATCH is 3 on Linux; Glibc declares it under _GNU_SOURCE only.
        return pthread_setschedparam(pthread_self(), 3, &param) == 0
    }
}
