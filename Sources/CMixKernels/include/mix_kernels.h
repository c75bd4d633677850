// Mixing kernels (placeholder until the mixer lands).
#ifndef SOUNDENGINE_MIX_KERNELS_H
#define SOUNDENGINE_MIX_KERNELS_H
#include <stdint.h>
#endif
