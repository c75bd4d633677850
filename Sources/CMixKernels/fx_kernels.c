// See include/fx_kernels.h. Each kernel's body is written once, on clang's
// 16-lane vectors, as an always-inline function, and instantiated with no
// target (portable), AVX2+FMA and AVX-512 attributes: a 16-float vector is
// four SSE, two AVX2 or one AVX-512 register.
#if defined(__clang__)
#pragma clang diagnostic error "-Wfunction-effects"
// The helpers below take and return 16-lane vectors; all are inlined into
// the one kernel body per instruction set, so no vector crosses a call.
#pragma clang diagnostic ignored "-Wpsabi"
#endif
#include "fx_kernels.h"

typedef float fx_v16 __attribute__((ext_vector_type(16)));
typedef int32_t fx_i16 __attribute__((ext_vector_type(16)));

#define FX_INLINE static inline __attribute__((always_inline))

int32_t fx_best_level(void) {
    if (mk_kernels_supported(MK_KERNELS_AVX512)) return 2;
    if (mk_kernels_supported(MK_KERNELS_AVX2)) return 1;
    return 0;
}

/// Lanes with |x| < 1e-15 set to 0.
FX_INLINE fx_v16 fx_flush(fx_v16 x) {
    fx_i16 keep = (x >= 1e-15f) | (x <= -1e-15f);
    return (fx_v16)((fx_i16)x & keep);
}

/// The 16-point Walsh–Hadamard transform (Sylvester order, unnormalised):
/// four butterfly stages, each a lane permutation and a multiply-add by signs.
FX_INLINE fx_v16 fx_hadamard(fx_v16 v) {
    const fx_v16 s8 = {1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1, -1};
    const fx_v16 s4 = {1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1};
    const fx_v16 s2 = {1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1};
    const fx_v16 s1 = {1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1};
    v = __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7) + v * s8;
    v = __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11) + v * s4;
    v = __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13) + v * s2;
    v = __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14) + v * s1;
    return v;
}

FX_INLINE int fx_any(fx_i16 m) {
    int32_t r = 0;
    for (int k = 0; k < 16; k++) r |= m[k];
    return r != 0;
}

FX_INLINE int32_t reverb_network_body(float *rows, float *mixed, const float *in_left, const float *in_right,
                                       float *parameters, int32_t frames, float loud_square) {
    fx_v16 *p = (fx_v16 *)parameters;
    fx_v16 state = p[0], gain = p[1], pole = p[2];
    const fx_v16 gain_step = p[3], pole_step = p[4], inject_left = p[5], inject_right = p[6];
    const float threshold = loud_square * (1.0f / 16.0f);
    int32_t loud = -1;
    fx_v16 *r = (fx_v16 *)rows;
    fx_v16 *m = (fx_v16 *)mixed;
    for (int32_t j = 0; j < frames; j++) {
        gain += gain_step;
        pole += pole_step;
        fx_v16 f = fx_flush(gain * r[j] + pole * state);
        state = f;
        if (fx_any(f * f >= threshold)) loud = j;
        fx_v16 v = fx_hadamard(f) * 0.25f;
        r[j] = fx_flush(v + inject_left * in_left[j] + inject_right * in_right[j]);
        m[j] = v;
    }
    p[0] = state;
    p[1] = gain;
    p[2] = pole;
    return loud;
}

static int32_t reverb_network_portable(float *rows, float *mixed, const float *in_left, const float *in_right,
                                       float *parameters, int32_t frames, float loud_square) MK_NONBLOCKING {
    return reverb_network_body(rows, mixed, in_left, in_right, parameters, frames, loud_square);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static int32_t
reverb_network_avx2(float *rows, float *mixed, const float *in_left, const float *in_right, float *parameters,
                    int32_t frames, float loud_square) MK_NONBLOCKING {
    return reverb_network_body(rows, mixed, in_left, in_right, parameters, frames, loud_square);
}

__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"))) static int32_t
reverb_network_avx512(float *rows, float *mixed, const float *in_left, const float *in_right, float *parameters,
                      int32_t frames, float loud_square) MK_NONBLOCKING {
    return reverb_network_body(rows, mixed, in_left, in_right, parameters, frames, loud_square);
}
#endif

int32_t fx_reverb_network(int32_t level, float *rows, float *mixed, const float *in_left, const float *in_right,
                          float *parameters, int32_t frames, float loud_square) MK_NONBLOCKING {
#if defined(__x86_64__)
    if (level >= 2) return reverb_network_avx512(rows, mixed, in_left, in_right, parameters, frames, loud_square);
    if (level == 1) return reverb_network_avx2(rows, mixed, in_left, in_right, parameters, frames, loud_square);
#else
    (void)level;
#endif
    return reverb_network_portable(rows, mixed, in_left, in_right, parameters, frames, loud_square);
}
