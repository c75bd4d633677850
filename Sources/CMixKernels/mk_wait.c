#define _GNU_SOURCE
#include "mk_wait.h"

#include <errno.h>
#include <semaphore.h>
#include <time.h>

int mk_sem_wait_monotonic(void *semaphore, long milliseconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    long long nanoseconds = (long long)deadline.tv_nsec + (long long)milliseconds * 1000000LL;
    deadline.tv_sec += (time_t)(nanoseconds / 1000000000LL);
    deadline.tv_nsec = (long)(nanoseconds % 1000000000LL);
    int result;
    while ((result = sem_clockwait((sem_t *)semaphore, CLOCK_MONOTONIC, &deadline)) != 0 && errno == EINTR) {}
    return result == 0 ? 0 : -1;
}
