#include "mk_fpu.h"

#pragma clang diagnostic error "-Wfunction-effects"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>

#define MK_MXCSR_FTZ 0x8000u
#define MK_MXCSR_DAZ 0x0040u

uint64_t mk_fpu_enter(void) MK_NONBLOCKING {
    unsigned int previous = _mm_getcsr();
    _mm_setcsr(previous | MK_MXCSR_FTZ | MK_MXCSR_DAZ);
    return previous;
}

void mk_fpu_leave(uint64_t previous) MK_NONBLOCKING { _mm_setcsr((unsigned int)previous); }

int mk_fpu_flushes_denormals(void) MK_NONBLOCKING { return (_mm_getcsr() & MK_MXCSR_FTZ) != 0; }

#elif defined(__aarch64__)

#define MK_FPCR_FZ (1ull << 24)

uint64_t mk_fpu_enter(void) MK_NONBLOCKING {
    uint64_t previous;
    __asm__ volatile("mrs %0, fpcr" : "=r"(previous));
    __asm__ volatile("msr fpcr, %0" : : "r"(previous | MK_FPCR_FZ));
    return previous;
}

void mk_fpu_leave(uint64_t previous) MK_NONBLOCKING { __asm__ volatile("msr fpcr, %0" : : "r"(previous)); }

int mk_fpu_flushes_denormals(void) MK_NONBLOCKING {
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr & MK_FPCR_FZ) != 0;
}

#else

uint64_t mk_fpu_enter(void) MK_NONBLOCKING { return 0; }
void mk_fpu_leave(uint64_t previous) MK_NONBLOCKING { (void)previous; }
int mk_fpu_flushes_denormals(void) MK_NONBLOCKING { return 0; }

#endif
