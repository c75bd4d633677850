// Floating-point mode of the thread that renders: denormals flushed to zero
// (FTZ) and treated as zero on input (DAZ), so a decaying filter or a fade
// tail never falls into the 100x slower denormal path on the render thread.
// The mixer enters this mode for each render call and restores the caller's
// mode afterwards (a game thread driving an offline render keeps its own).
#ifndef SOUNDENGINE_MK_FPU_H
#define SOUNDENGINE_MK_FPU_H

#include "mix_kernels.h"
#include <stdint.h>

/// Sets FTZ and DAZ (x86: MXCSR bits 15 and 6; arm64: FPCR.FZ) and returns
/// the previous mode for mk_fpu_leave.
uint64_t mk_fpu_enter(void) MK_NONBLOCKING;
/// Restores the mode mk_fpu_enter returned.
void mk_fpu_leave(uint64_t previous) MK_NONBLOCKING;
/// Whether FTZ is set on the calling thread now (for tests).
int mk_fpu_flushes_denormals(void) MK_NONBLOCKING;

#endif
