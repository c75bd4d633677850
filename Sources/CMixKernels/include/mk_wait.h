// A semaphore wait with a deadline on CLOCK_MONOTONIC (glibc's sem_clockwait,
// which Swift's Glibc module does not export): a wall-clock step must not
// stretch or skip the streaming thread's wait.
#ifndef SOUNDENGINE_MK_WAIT_H
#define SOUNDENGINE_MK_WAIT_H

/// Waits on `semaphore` (a `sem_t *`) until posted or `milliseconds` pass on
/// the monotonic clock, retrying on EINTR. Returns 0 when posted, -1 on timeout.
int mk_sem_wait_monotonic(void *semaphore, long milliseconds);

#endif
