#include "mk_clock.h"

#include <time.h>

#pragma clang diagnostic error "-Wfunction-effects"

uint64_t mk_monotonic_ns(void) MK_NONBLOCKING {
    struct timespec now;
    // glibc does not declare clock_gettime nonblocking; for CLOCK_MONOTONIC it
    // reads the vDSO's shared page (no system call, no lock), so it is.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
    clock_gettime(CLOCK_MONOTONIC, &now);
#pragma clang diagnostic pop
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}
