// See include/allocation_counter.h. glibc exports __libc_malloc and friends,
// which lets these definitions forward without dlsym (dlsym itself allocates).
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SE_SANITIZED 1
#endif

// 0: not armed; n > 0: counting into slot n - 1.
static _Thread_local int armed;
static _Atomic uint64_t allocations[SE_ALLOC_COUNTER_SLOTS];
static _Atomic uint64_t frees[SE_ALLOC_COUNTER_SLOTS];
static _Atomic uint64_t armings[SE_ALLOC_COUNTER_SLOTS];

static inline void count_allocation(void) {
    if (armed) atomic_fetch_add_explicit(&allocations[armed - 1], 1, memory_order_relaxed);
}

static inline int valid(int slot) { return slot >= 0 && slot < SE_ALLOC_COUNTER_SLOTS; }

#ifndef SE_SANITIZED
// Under a sanitizer its runtime owns the heap functions; defining them here
// too would pair its mallocs with glibc's frees. The counter is compiled out
// and se_alloc_counter_compiled_out() says so.

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    count_allocation();
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    count_allocation();
    return __libc_realloc(p, size);
}

void free(void *p) {
    if (p && armed) atomic_fetch_add_explicit(&frees[armed - 1], 1, memory_order_relaxed);
    __libc_free(p);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_allocation();
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

#endif

int se_alloc_counter_compiled_out(void) {
#ifdef SE_SANITIZED
    return 1;
#else
    return 0;
#endif
}

void se_alloc_counter_arm(int slot) {
    if (!valid(slot)) abort();
    armed = slot + 1;
    atomic_fetch_add_explicit(&armings[slot], 1, memory_order_relaxed);
}

void se_alloc_counter_disarm(void) { armed = 0; }

uint64_t se_alloc_counter_allocations(int slot) {
    return valid(slot) ? atomic_load_explicit(&allocations[slot], memory_order_relaxed) : 0;
}
uint64_t se_alloc_counter_frees(int slot) {
    return valid(slot) ? atomic_load_explicit(&frees[slot], memory_order_relaxed) : 0;
}
uint64_t se_alloc_counter_armings(int slot) {
    return valid(slot) ? atomic_load_explicit(&armings[slot], memory_order_relaxed) : 0;
}

void se_alloc_counter_reset(int slot) {
    if (!valid(slot)) return;
    atomic_store_explicit(&allocations[slot], 0, memory_order_relaxed);
    atomic_store_explicit(&frees[slot], 0, memory_order_relaxed);
    atomic_store_explicit(&armings[slot], 0, memory_order_relaxed);
}

int se_alloc_counter_self_test(int slot) {
    if (!valid(slot)) return 0;
    int was_armed = armed;
    uint64_t a0 = se_alloc_counter_allocations(slot), f0 = se_alloc_counter_frees(slot);
    armed = slot + 1;
    // volatile function pointers keep the compiler from eliding the pair.
    void *(*volatile m)(size_t) = malloc;
    void (*volatile f)(void *) = free;
    void *p = m(64);
    f(p);
    armed = was_armed;
    int ok = se_alloc_counter_allocations(slot) > a0 && se_alloc_counter_frees(slot) > f0;
    // Undo the self-test's own counts so callers see only what they measure.
    if (ok) {
        atomic_fetch_sub_explicit(&allocations[slot], 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&frees[slot], 1, memory_order_relaxed);
    }
    return ok;
}
