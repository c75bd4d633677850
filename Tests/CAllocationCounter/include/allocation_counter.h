// A heap-allocation counter for tests: this target defines malloc, calloc,
// realloc, free and the aligned variants for the whole test process, forwards
// them to glibc, and counts the calls made by threads that armed the counter.
//
// Used to prove the render path allocates nothing: a test wraps the real
// render function so that the real-time thread arms the counter on entry and
// disarms it on exit, then asserts the count stayed at zero. The self-test
// functions prove the interposition is live, so a zero can be trusted.
//
// Counts live in slots, one per test: the test runner runs tests in parallel
// in one process, and a test must neither see another test's render threads
// nor have its counts reset under it.
#ifndef SOUNDENGINE_ALLOCATION_COUNTER_H
#define SOUNDENGINE_ALLOCATION_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Number of slots; valid slots are 0 ..< SE_ALLOC_COUNTER_SLOTS.
#define SE_ALLOC_COUNTER_SLOTS 8

/// Starts counting the calling thread's heap calls into `slot`.
void se_alloc_counter_arm(int slot);
/// Stops counting heap calls made by the calling thread.
void se_alloc_counter_disarm(void);
/// Allocations (malloc, calloc, realloc, aligned variants) counted into `slot` since its last reset.
uint64_t se_alloc_counter_allocations(int slot);
/// Frees of non-NULL pointers counted into `slot` since its last reset.
uint64_t se_alloc_counter_frees(int slot);
/// Times any thread armed `slot` since its last reset (how many render calls were watched).
uint64_t se_alloc_counter_armings(int slot);
/// Zeroes the counts of `slot`.
void se_alloc_counter_reset(int slot);
/// Allocates and frees one block with `slot` armed, restoring the previous
/// state and counts; returns 1 if both calls were counted (the interposition
/// works), else 0.
int se_alloc_counter_self_test(int slot);
/// 1 in a sanitizer build (ThreadSanitizer, AddressSanitizer), where the
/// sanitizer's runtime owns malloc and this counter is compiled out; else 0.
int se_alloc_counter_compiled_out(void);

#ifdef __cplusplus
}
#endif

#endif
