// The render thread's clock: how long a quantum took to mix (the live
// profiler's render CPU, docs/profiling.md). CLOCK_MONOTONIC through the
// vDSO: no system call, no lock, no allocation.
#ifndef SOUNDENGINE_MK_CLOCK_H
#define SOUNDENGINE_MK_CLOCK_H

#include "mix_kernels.h"
#include <stdint.h>

/// Nanoseconds of CLOCK_MONOTONIC (clock_gettime).
uint64_t mk_monotonic_ns(void) MK_NONBLOCKING;

#endif
