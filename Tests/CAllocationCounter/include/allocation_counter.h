// A heap-allocation counter for tests: this target defines malloc, calloc,
// realloc, free and the aligned variants for the whole test process, forwards
// them to glibc, and counts the calls made by threads that armed the counter.
//
// Used to prove the render path allocates nothing: a test wraps the real
// render function so that the real-time thread arms the counter on entry and
// disarms it on exit, then asserts the count stayed at zero. The self-test
// functions prove the interposition is live, so a zero can be trusted.
#ifndef SOUNDENGINE_ALLOCATION_COUNTER_H
#define SOUNDENGINE_ALLOCATION_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Starts counting heap calls made by the calling thread.
void se_alloc_counter_arm(void);
/// Stops counting heap calls made by the calling thread.
void se_alloc_counter_disarm(void);
/// Allocations (malloc, calloc, realloc, aligned variants) made by armed threads since the last reset.
uint64_t se_alloc_counter_allocations(void);
/// Frees of non-NULL pointers made by armed threads since the last reset.
uint64_t se_alloc_counter_frees(void);
/// Times any thread armed the counter since the last reset (how many render calls were watched).
uint64_t se_alloc_counter_armings(void);
/// Zeroes all counts.
void se_alloc_counter_reset(void);
/// Allocates and frees one block while armed, restoring the previous state;
/// returns 1 if both calls were counted (the interposition works), else 0.
int se_alloc_counter_self_test(void);

#ifdef __cplusplus
}
#endif

#endif
