// See include/allocation_counter.h. glibc exports __libc_malloc and friends,
// which lets these definitions forward without dlsym (dlsym itself allocates).
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static _Thread_local int armed;
static _Atomic uint64_t allocations;
static _Atomic uint64_t frees;
static _Atomic uint64_t armings;

static inline void count_allocation(void) {
    if (armed) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

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
    if (p && armed) atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
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

void se_alloc_counter_arm(void) {
    armed = 1;
    atomic_fetch_add_explicit(&armings, 1, memory_order_relaxed);
}

void se_alloc_counter_disarm(void) { armed = 0; }

uint64_t se_alloc_counter_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
uint64_t se_alloc_counter_frees(void) { return atomic_load_explicit(&frees, memory_order_relaxed); }
uint64_t se_alloc_counter_armings(void) { return atomic_load_explicit(&armings, memory_order_relaxed); }

void se_alloc_counter_reset(void) {
    atomic_store_explicit(&allocations, 0, memory_order_relaxed);
    atomic_store_explicit(&frees, 0, memory_order_relaxed);
    atomic_store_explicit(&armings, 0, memory_order_relaxed);
}

int se_alloc_counter_self_test(void) {
    int was_armed = armed;
    uint64_t a0 = se_alloc_counter_allocations(), f0 = se_alloc_counter_frees();
    armed = 1;
    // volatile function pointers keep the compiler from eliding the pair.
    void *(*volatile m)(size_t) = malloc;
    void (*volatile f)(void *) = free;
    void *p = m(64);
    f(p);
    armed = was_armed;
    int ok = se_alloc_counter_allocations() > a0 && se_alloc_counter_frees() > f0;
    // Undo the self-test's own counts so callers see only what they measure.
    atomic_fetch_sub_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&frees, 1, memory_order_relaxed);
    return ok;
}
