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

// Every kernel is an always-inline `NAME_body`, instantiated once per
// instruction set by FX_LEVELS (`NAME_portable`, and on x86-64 `NAME_avx2`
// and `NAME_avx512`) and chosen per call by FX_DISPATCH from `level`
// (2 AVX-512, 1 AVX2+FMA, else portable). RETURN is `return` for a kernel
// with a result and empty for one without.
#if defined(__x86_64__)
#define FX_LEVELS(TYPE, RETURN, NAME, PARAMETERS, ARGUMENTS)                                                    \
    static TYPE NAME##_portable(PARAMETERS) MK_NONBLOCKING { RETURN NAME##_body(ARGUMENTS); }                   \
    __attribute__((target("avx2,fma"))) static TYPE NAME##_avx2(PARAMETERS) MK_NONBLOCKING {                    \
        RETURN NAME##_body(ARGUMENTS);                                                                           \
    }                                                                                                            \
    __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"))) static TYPE NAME##_avx512(           \
        PARAMETERS) MK_NONBLOCKING {                                                                             \
        RETURN NAME##_body(ARGUMENTS);                                                                           \
    }
#define FX_DISPATCH(level, NAME, ARGUMENTS)                                                                       \
    ((level) >= 2 ? NAME##_avx512(ARGUMENTS) : (level) == 1 ? NAME##_avx2(ARGUMENTS) : NAME##_portable(ARGUMENTS))
#else
#define FX_LEVELS(TYPE, RETURN, NAME, PARAMETERS, ARGUMENTS)                                                    \
    static TYPE NAME##_portable(PARAMETERS) MK_NONBLOCKING { RETURN NAME##_body(ARGUMENTS); }
#define FX_DISPATCH(level, NAME, ARGUMENTS) ((void)(level), NAME##_portable(ARGUMENTS))
#endif

/// Lanes of `a` where `mask` is set, else of `b`.
FX_INLINE fx_v16 fx_select(fx_i16 mask, fx_v16 a, fx_v16 b) {
    return (fx_v16)(((fx_i16)a & mask) | ((fx_i16)b & ~mask));
}

/// Unaligned 16-float load and store.
FX_INLINE fx_v16 fx_load(const float *p) {
    fx_v16 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

FX_INLINE void fx_store(float *p, fx_v16 v) { __builtin_memcpy(p, &v, sizeof v); }

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

/// The lane of each of the 16 lines' reads, one scalar load per lane from
/// a pointer per lane (no lane indices to take out of a vector).
FX_INLINE fx_v16 reverb_read(const float *const *read, int32_t t) {
    fx_v16 s;
    for (int k = 0; k < 16; k++) s[k] = read[k][t * 16 + k];
    return s;
}

FX_INLINE int32_t reverb_network_body(float *lines, int32_t ring_mask, int64_t first, int32_t *lengths,
                                       const int32_t *next, int32_t *fade, float *mixed, const float *in_left,
                                       const float *in_right, float *parameters, int32_t frames, float loud_square) {
    fx_v16 *p = (fx_v16 *)parameters;
    fx_v16 state = p[0], gain = p[1], pole = p[2];
    const fx_v16 gain_step = p[3], pole_step = p[4], inject_left = p[5], inject_right = p[6];
    const float threshold = loud_square * (1.0f / 16.0f);
    const int32_t rows = ring_mask + 1;
    int32_t loud = -1;
    fx_v16 *m = (fx_v16 *)mixed;
    int32_t j = 0;
    while (j < frames) {
        // A run of frames in which no read head wraps (and, while the lines
        // crossfade to new lengths, that ends where the crossfade does): at
        // frame j + t lane k reads lane k of row t after `read[k]` (and of
        // `incoming[k]`, the new length's head).
        const int fading = fade[1] > 0;
        const float *read[16], *incoming[16];
        int32_t run = frames - j;
        if (fading && fade[1] - fade[0] < run) run = fade[1] - fade[0];
        for (int k = 0; k < 16; k++) {
            const int32_t row = (int32_t)((first + j - lengths[k]) & ring_mask);
            read[k] = lines + (int64_t)row * 16;
            run = rows - row < run ? rows - row : run;
            const int32_t row2 = (int32_t)((first + j - next[k]) & ring_mask);
            incoming[k] = lines + (int64_t)row2 * 16;
            if (fading) run = rows - row2 < run ? rows - row2 : run;
        }
        for (int32_t t = 0; t < run; t++, j++) {
            fx_v16 s = reverb_read(read, t);
            if (fading) {
                // The smoothstep weight of the new heads: (pos / len)²·(3 − 2·pos / len).
                fade[0] += 1;
                float u = (float)fade[0] / (float)fade[1];
                u = u < 1.0f ? u : 1.0f;
                const float w = u * u * (3.0f - 2.0f * u);
                s += (reverb_read(incoming, t) - s) * w;
            }
            gain += gain_step;
            pole += pole_step;
            fx_v16 f = fx_flush(gain * s + pole * state);
            state = f;
            if (fx_any(f * f >= threshold)) loud = j;
            fx_v16 v = fx_hadamard(f) * 0.25f;
            *(fx_v16 *)(lines + (int64_t)((first + j) & ring_mask) * 16) =
                fx_flush(v + inject_left * in_left[j] + inject_right * in_right[j]);
            m[j] = v;
        }
        if (fading && fade[0] >= fade[1]) {
            // The crossfade is over: the new lengths are the lines' lengths.
            for (int k = 0; k < 16; k++) lengths[k] = next[k];
            fade[0] = 0;
            fade[1] = 0;
        }
    }
    p[0] = state;
    p[1] = gain;
    p[2] = pole;
    return loud;
}

#define FX_REVERB_PARAMETERS                                                                                     \
    float *lines, int32_t ring_mask, int64_t first, int32_t *lengths, const int32_t *next, int32_t *fade,          \
        float *mixed, const float *in_left, const float *in_right, float *parameters, int32_t frames,              \
        float loud_square
#define FX_REVERB_ARGUMENTS                                                                                      \
    lines, ring_mask, first, lengths, next, fade, mixed, in_left, in_right, parameters, frames, loud_square

FX_LEVELS(int32_t, return, reverb_network, FX_REVERB_PARAMETERS, FX_REVERB_ARGUMENTS)

int32_t fx_reverb_network(int32_t level, FX_REVERB_PARAMETERS) MK_NONBLOCKING {
    return FX_DISPATCH(level, reverb_network, FX_REVERB_ARGUMENTS);
}

// MARK: - The EQ's cascade

// The bands run as a wavefront: in step j band b filters frame j − b, taking
// band b − 1's output of the step before, so the bands of one step do not
// wait on each other. They sit side by side in one 16-lane vector:
// lanes 2b and 2b + 1 are band b's left and right channel. Each step runs
// every band at once, then shifts the outputs up two lanes: band b's
// output becomes band b + 1's input of the next step. The filter is the
// header's (Simper's SVF), rearranged so that the step's input is one
// multiply-add from the output and from each new state (the terms in the
// states before are computed while the input is still on its way):
//   y   = cx·x + (c1·ic1 + c2·ic2),  cx = m0 + m1·a2 + m2·a3,
//         c1 = m1·a1 + m2·a2, c2 = m2 − m1·a2 − m2·a3;
//   ic1 = q2·x + (p1·ic1 − q2·ic2);  ic2 = t3·x + (r3·ic2 + q2·ic1).
// The same filter within float rounding. The first and last (bands − 1)
// steps keep the states of bands that have no frame.
FX_INLINE void svf_lanes_body(float *left, float *right, int32_t frames, const float *coefficients, float *states,
                              const int bands) {
    // Packed lane by lane in memory, then loaded whole: built in registers
    // lane by lane, the vectors cost hundreds of inserts and spills where a
    // vector is two or four registers (AVX2, SSE), which short calls (a
    // moving band splits the call into 16-frame blocks) pay every time.
    enum { CX, C1, C2, P1, Q2, R3, T3, IC1, IC2, PACKED };
    float packed[PACKED][16] __attribute__((aligned(64)));
    __builtin_memset(packed, 0, sizeof packed);
    for (int b = 0; b < bands; b++) {
        const float *c = coefficients + b * FX_SVF_COEFFICIENTS;
        const float *st = states + b * FX_SVF_STATES;
        const float a1 = c[0], a2 = c[1], a3 = c[2], m0 = c[3], m1 = c[4], m2 = c[5];
        for (int h = 0; h < 2; h++) {
            const int l = 2 * b + h;
            packed[CX][l] = m0 + m1 * a2 + m2 * a3;
            packed[C1][l] = m1 * a1 + m2 * a2;
            packed[C2][l] = m2 - m1 * a2 - m2 * a3;
            packed[P1][l] = 2 * a1 - 1;
            packed[Q2][l] = 2 * a2;
            packed[R3][l] = 1 - 2 * a3;
            packed[T3][l] = 2 * a3;
            packed[IC1][l] = st[h];
            packed[IC2][l] = st[2 + h];
        }
    }
    const fx_v16 cx = fx_load(packed[CX]), c1 = fx_load(packed[C1]), c2 = fx_load(packed[C2]);
    const fx_v16 p1 = fx_load(packed[P1]), q2 = fx_load(packed[Q2]), r3 = fx_load(packed[R3]);
    const fx_v16 t3 = fx_load(packed[T3]);
    fx_v16 ic1 = fx_load(packed[IC1]), ic2 = fx_load(packed[IC2]);
    const fx_i16 band = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7};
    const int32_t last = bands - 1;
    const int32_t steps = frames + last;
    fx_v16 out = 0;
    for (int32_t j = 0; j < steps; j++) {
        fx_v16 in = 0;
        if (j < frames) {
            in[0] = left[j];
            in[1] = right ? right[j] : 0.0f;
        }
        const fx_v16 x = __builtin_shufflevector(in, out, 0, 1, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
        const fx_v16 w = c1 * ic1 + c2 * ic2;
        const fx_v16 d1 = p1 * ic1 - q2 * ic2;
        const fx_v16 d2 = r3 * ic2 + q2 * ic1;
        out = cx * x + w;
        const fx_v16 next1 = q2 * x + d1;
        const fx_v16 next2 = t3 * x + d2;
        if (j >= last && j < frames) {
            ic1 = next1;
            ic2 = next2;
        } else {
            // Only the bands with a frame in this step move on.
            const fx_i16 active = (band <= j) & (band > j - frames);
            ic1 = fx_select(active, next1, ic1);
            ic2 = fx_select(active, next2, ic2);
        }
        const int32_t k = j - last;
        if (k >= 0) {
            left[k] = out[2 * last];
            if (right) right[k] = out[2 * last + 1];
        }
    }
    fx_store(packed[IC1], ic1);
    fx_store(packed[IC2], ic2);
    for (int b = 0; b < bands; b++) {
        float *st = states + b * FX_SVF_STATES;
        st[0] = packed[IC1][2 * b];
        st[1] = packed[IC1][2 * b + 1];
        st[2] = packed[IC2][2 * b];
        st[3] = packed[IC2][2 * b + 1];
    }
}

// One instantiation per band count, so the loop's lane indices are constants.
#define FX_SVF_SWITCH(left, right, frames, coefficients, states, bands)                                          \
    switch (bands) {                                                                                           \
    case 1: svf_lanes_body(left, right, frames, coefficients, states, 1); break;                                \
    case 2: svf_lanes_body(left, right, frames, coefficients, states, 2); break;                                \
    case 3: svf_lanes_body(left, right, frames, coefficients, states, 3); break;                                \
    case 4: svf_lanes_body(left, right, frames, coefficients, states, 4); break;                                \
    case 5: svf_lanes_body(left, right, frames, coefficients, states, 5); break;                                \
    case 6: svf_lanes_body(left, right, frames, coefficients, states, 6); break;                                \
    default: break;                                                                                            \
    }

FX_INLINE void svf_cascade_body(float *left, float *right, int32_t frames, const float *coefficients, float *states,
                                int32_t bands) {
    FX_SVF_SWITCH(left, right, frames, coefficients, states, bands)
}

#define FX_SVF_PARAMETERS                                                                                        \
    float *left, float *right, int32_t frames, const float *coefficients, float *states, int32_t bands
#define FX_SVF_ARGUMENTS left, right, frames, coefficients, states, bands

FX_LEVELS(void, , svf_cascade, FX_SVF_PARAMETERS, FX_SVF_ARGUMENTS)

void fx_svf_cascade(int32_t level, FX_SVF_PARAMETERS) MK_NONBLOCKING {
    FX_DISPATCH(level, svf_cascade, FX_SVF_ARGUMENTS);
}

// MARK: - Compressor

// The same arithmetic as the Swift `fastLog2`/`fastExp2` (FastMath.swift)
// and the compressor's static curve, 16 frames at a time. No multiply is
// fused into an add, so every level gives the same result bit for bit.

/// log2(x); below the smallest normal float (NaN too) −126, above the
/// largest 128.
FX_INLINE fx_v16 fx_log2(fx_v16 x) {
#pragma clang fp contract(off)
    fx_i16 bits = (fx_i16)x;
    fx_i16 e = ((bits >> 23) & 0xFF) - 127;
    fx_v16 m = (fx_v16)((bits & 0x007FFFFF) | 0x3F800000);
    fx_i16 big = m > 1.4142135f;
    m = fx_select(big, m * 0.5f, m);
    e = e - big;  // a set mask is −1
    fx_v16 t = (m - 1.0f) / (m + 1.0f);
    fx_v16 t2 = t * t;
    fx_v16 p = 0.598954407629234900f * t2;
    p = 0.961471412131488500f + p;
    p = t2 * p;
    p = 2.885391285813485600f + p;
    fx_v16 r = __builtin_convertvector(e, fx_v16) + t * p;
    r = fx_select(x > 3.4028234e38f, (fx_v16)128.0f, r);
    return fx_select(x >= 1.1754944e-38f, r, (fx_v16)(-126.0f));
}

/// 2^x, x clamped to −126…127.99 (NaN counts as −126).
FX_INLINE fx_v16 fx_exp2(fx_v16 x) {
#pragma clang fp contract(off)
    fx_v16 c = fx_select(x >= -126.0f, x, (fx_v16)(-126.0f));
    c = fx_select(c > 127.99f, (fx_v16)127.99f, c);
    fx_i16 i = __builtin_convertvector(c, fx_i16);  // toward zero
    i = i + (__builtin_convertvector(i, fx_v16) > c);  // floor: a set mask is −1
    fx_v16 f = c - __builtin_convertvector(i, fx_v16);
    fx_v16 q = f * 0.00186694306107333f;
    q = 0.00901742105791673f + q;
    q = f * q;
    q = 0.05579964155419979f + q;
    q = f * q;
    q = 0.2401645204209004f + q;
    q = f * q;
    q = 0.693151306721616f + q;
    fx_v16 scale = (fx_v16)((i + 127) << 23);
    fx_v16 y = f * q;
    y = 1.0f + y;
    return y * scale;
}

/// The static curve's gain reduction (dB, ≥ 0) for `level` dB.
FX_INLINE fx_v16 fx_overshoot(fx_v16 level, float threshold, float slope, float knee) {
#pragma clang fp contract(off)
    fx_v16 e = level - threshold;
    fx_v16 twice = 2.0f * e;
    fx_v16 u = e + 0.5f * knee;
    fx_v16 quadratic = slope * u;
    quadratic = quadratic * u;
    quadratic = quadratic / (2.0f * knee);
    fx_v16 r = fx_select(twice < knee, quadratic, slope * e);
    return fx_select(twice <= -knee, (fx_v16)0.0f, r);
}

/// Up to 16 floats from `p` (the rest 0).
FX_INLINE fx_v16 fx_load_part(const float *p, int32_t n) {
    float a[16] = {0};
    for (int32_t j = 0; j < n; j++) a[j] = p[j];
    fx_v16 v;
    __builtin_memcpy(&v, a, sizeof v);
    return v;
}

FX_INLINE void fx_store_part(float *p, fx_v16 v, int32_t n) {
    float a[16];
    __builtin_memcpy(a, &v, sizeof v);
    for (int32_t j = 0; j < n; j++) p[j] = a[j];
}

FX_INLINE fx_v16 fx_peak_curve_step(const float *source, int64_t stride, int32_t channels, int32_t j, int32_t n,
                                    float threshold, float slope, float knee) {
    fx_v16 peak = 0.0f;
    for (int32_t c = 0; c < channels; c++) {
        const float *x = source + c * stride + j;
        fx_v16 a = n == 16 ? fx_load(x) : fx_load_part(x, n);
        a = (fx_v16)((fx_i16)a & 0x7FFFFFFF);
        peak = fx_select(a > peak, a, peak);
    }
    fx_v16 level = fx_log2(peak) * 6.020599913279624f;
    return fx_overshoot(level, threshold, slope, knee);
}

FX_INLINE void compressor_peak_curve_body(const float *source, int64_t stride, int32_t channels, int32_t frames,
                                          float *curve, float threshold, float slope, float knee) MK_NONBLOCKING {
    int32_t j = 0;
    for (; j + 16 <= frames; j += 16)
        fx_store(curve + j, fx_peak_curve_step(source, stride, channels, j, 16, threshold, slope, knee));
    if (j < frames)
        fx_store_part(curve + j, fx_peak_curve_step(source, stride, channels, j, frames - j, threshold, slope, knee),
                      frames - j);
}

FX_INLINE fx_v16 fx_gain_step(const float *curve, int32_t j, int32_t n, float makeup_from, float makeup_step,
                              int32_t first) {
#pragma clang fp contract(off)
    const fx_i16 lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    fx_v16 frame = __builtin_convertvector(lanes + (first + j + 1), fx_v16);
    fx_v16 makeup = makeup_step * frame;
    makeup = makeup_from + makeup;
    fx_v16 reduction = n == 16 ? fx_load(curve + j) : fx_load_part(curve + j, n);
    return fx_exp2((makeup - reduction) * 0.16609640474436812f);
}

FX_INLINE void compressor_gain_body(float *base, int64_t stride, int32_t channels, int32_t frames, const float *curve,
                                    float makeup_from, float makeup_step, int32_t first) MK_NONBLOCKING {
    int32_t j = 0;
    for (; j + 16 <= frames; j += 16) {
        fx_v16 g = fx_gain_step(curve, j, 16, makeup_from, makeup_step, first);
        for (int32_t c = 0; c < channels; c++) {
            float *x = base + c * stride + j;
            fx_store(x, fx_load(x) * g);
        }
    }
    if (j < frames) {
        int32_t n = frames - j;
        fx_v16 g = fx_gain_step(curve, j, n, makeup_from, makeup_step, first);
        for (int32_t c = 0; c < channels; c++) {
            float *x = base + c * stride + j;
            fx_store_part(x, fx_load_part(x, n) * g, n);
        }
    }
}

/// The detector's smoothing over `frames` frames of `curve` in place (see
/// the header). The flushes of tiny stages come at the end of the call, so
/// neither recursion waits on a compare each frame.
FX_INLINE void compressor_smooth_body(float *curve, int32_t frames, float release, float attack,
                                      float *stages) MK_NONBLOCKING {
#pragma clang fp contract(off)
    float y1 = stages[0], yL = stages[1];
    const float keep_release = 1.0f - release, keep_attack = 1.0f - attack;
    for (int32_t j = 0; j < frames; j++) {
        const float x = curve[j];
        const float fed = keep_release * x;
        const float decayed = release * y1;
        const float e = decayed + fed;
        y1 = x > e ? x : e;
        const float rise = keep_attack * y1;
        const float held = attack * yL;
        yL = held + rise;
        curve[j] = yL;
    }
    stages[0] = y1 < 1e-12f ? 0.0f : y1;
    stages[1] = yL < 1e-12f ? 0.0f : yL;
}

#define FX_COMPRESSOR_SMOOTH_PARAMETERS float *curve, int32_t frames, float release, float attack, float *stages
#define FX_COMPRESSOR_SMOOTH_ARGUMENTS curve, frames, release, attack, stages

FX_LEVELS(void, , compressor_smooth, FX_COMPRESSOR_SMOOTH_PARAMETERS, FX_COMPRESSOR_SMOOTH_ARGUMENTS)

void fx_compressor_smooth(int32_t level, FX_COMPRESSOR_SMOOTH_PARAMETERS) MK_NONBLOCKING {
    FX_DISPATCH(level, compressor_smooth, FX_COMPRESSOR_SMOOTH_ARGUMENTS);
}

#define FX_COMPRESSOR_CURVE_PARAMETERS                                                                          \
    const float *source, int64_t stride, int32_t channels, int32_t frames, float *curve, float threshold,      \
        float slope, float knee
#define FX_COMPRESSOR_CURVE_ARGUMENTS source, stride, channels, frames, curve, threshold, slope, knee
#define FX_COMPRESSOR_GAIN_PARAMETERS                                                                           \
    float *base, int64_t stride, int32_t channels, int32_t frames, const float *curve, float makeup_from,       \
        float makeup_step, int32_t first
#define FX_COMPRESSOR_GAIN_ARGUMENTS base, stride, channels, frames, curve, makeup_from, makeup_step, first

FX_LEVELS(void, , compressor_peak_curve, FX_COMPRESSOR_CURVE_PARAMETERS, FX_COMPRESSOR_CURVE_ARGUMENTS)
FX_LEVELS(void, , compressor_gain, FX_COMPRESSOR_GAIN_PARAMETERS, FX_COMPRESSOR_GAIN_ARGUMENTS)

void fx_compressor_peak_curve(int32_t level, FX_COMPRESSOR_CURVE_PARAMETERS) MK_NONBLOCKING {
    FX_DISPATCH(level, compressor_peak_curve, FX_COMPRESSOR_CURVE_ARGUMENTS);
}

void fx_compressor_gain(int32_t level, FX_COMPRESSOR_GAIN_PARAMETERS) MK_NONBLOCKING {
    FX_DISPATCH(level, compressor_gain, FX_COMPRESSOR_GAIN_ARGUMENTS);
}

// MARK: - The reverb's inputs and outputs

// What surrounds the network, 16 frames at a time, with the Swift
// arithmetic of Reverb.swift to the bit (no multiply fused into an add).

FX_INLINE int32_t reverb_inputs_body(const float *base, int64_t stride, int32_t channels, const float *weights,
                                     int32_t frames, float spread_from, float spread_step, int32_t done,
                                     float *in_left, float *in_right, float silence) MK_NONBLOCKING {
#pragma clang fp contract(off)
    const fx_i16 lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    int32_t loud = -1;
    for (int32_t j = 0; j < frames; j += 16) {
        const int32_t n = frames - j < 16 ? frames - j : 16;
        fx_v16 a = 0, b = 0;
        for (int32_t c = 0; c < channels; c++) {
            const float *x = base + c * stride + j;
            const fx_v16 v = n == 16 ? fx_load(x) : fx_load_part(x, n);
            const fx_v16 pa = weights[c] * v, pb = weights[8 + c] * v;
            a = a + pa;
            b = b + pb;
        }
        const fx_v16 la = (fx_v16)((fx_i16)a & 0x7FFFFFFF), lb = (fx_v16)((fx_i16)b & 0x7FFFFFFF);
        const fx_i16 is_loud = ((la >= silence) | (lb >= silence)) & (lanes < n);
        for (int k = 15; k >= 0; k--) {
            if (is_loud[k]) {
                loud = j + k;
                break;
            }
        }
        const fx_v16 frame = __builtin_convertvector(lanes + (done + j + 1), fx_v16);
        fx_v16 spread = spread_step * frame;
        spread = spread_from + spread;
        const fx_v16 sum = a + b, difference = a - b;
        const fx_v16 mid = 0.5f * sum, side = 0.5f * difference;
        const fx_v16 wide = spread * side;
        const fx_v16 left = mid + wide, right = mid - wide;
        if (n == 16) {
            fx_store(in_left + j, left);
            fx_store(in_right + j, right);
        } else {
            fx_store_part(in_left + j, left, n);
            fx_store_part(in_right + j, right, n);
        }
    }
    return loud;
}

/// One all-pass diffuser over `frames` frames of `signal` in place: ring
/// `ring` of `size` (a power of two) floats, delay `delay` ≥ `frames`.
FX_INLINE void reverb_diffuse(float *signal, float *ring, int32_t size, int32_t delay, int64_t first, int32_t frames,
                              float g) MK_NONBLOCKING {
#pragma clang fp contract(off)
    const int64_t mask = size - 1;
    int32_t j = 0;
    while (j < frames) {
        const int32_t r = (int32_t)((first - delay + j) & mask), w = (int32_t)((first + j) & mask);
        int32_t m = frames - j;
        if (size - r < m) m = size - r;
        if (size - w < m) m = size - w;
        // The read run ends `delay` ≥ `frames` samples before the write run
        // starts (mod the ring): they never overlap.
        const float *__restrict read = ring + r;
        float *__restrict write = ring + w;
        float *__restrict x = signal + j;
        int32_t t = 0;
        for (; t + 16 <= m; t += 16) {
            const fx_v16 d = fx_load(read + t);
            const fx_v16 gd = g * d;
            const fx_v16 u = fx_flush(fx_load(x + t) - gd);
            const fx_v16 gu = g * u;
            fx_store(write + t, u);
            fx_store(x + t, d + gu);
        }
        for (; t < m; t++) {
            const float d = read[t];
            const float gd = g * d;
            float u = x[t] - gd;
            u = (u >= 1e-15f || u <= -1e-15f) ? u : 0.0f;
            const float gu = g * u;
            write[t] = u;
            x[t] = d + gu;
        }
        j += m;
    }
}

FX_INLINE void reverb_diffusers_body(float *in_left, float *in_right, float *rings, int32_t size,
                                     const int32_t *delays, const float *gains, int64_t first,
                                     int32_t frames) MK_NONBLOCKING {
    for (int k = 0; k < 8; k++)
        reverb_diffuse(k < 4 ? in_left : in_right, rings + (int64_t)k * size, size, delays[k], first, frames,
                       gains[k]);
}

FX_INLINE void reverb_outputs_body(float *base, int64_t stride, int32_t channels, const int32_t *rows,
                                   const float *mixed, int32_t frames, int32_t done, float dry_from, float dry_step,
                                   float wet_from, float wet_step) MK_NONBLOCKING {
#pragma clang fp contract(off)
    // Frame by frame: a channel's wet signal is one lane of each frame's
    // row of `mixed`, which plain loads take as cheaply as anything (a
    // vector built from 16 of them costs more in inserts than it saves).
    for (int32_t c = 0; c < channels; c++) {
        float *x = base + c * stride;
        const int32_t row = rows[c];
        for (int32_t j = 0; j < frames; j++) {
            const float frame = (float)(done + j + 1);
            const float dry_gain = dry_from + dry_step * frame;
            const float dry = dry_gain * x[j];
            if (row >= 0) {
                const float wet_gain = wet_from + wet_step * frame;
                const float wet = wet_gain * mixed[j * 16 + row];
                x[j] = dry + wet;
            } else {
                x[j] = dry;
            }
        }
    }
}

#define FX_REVERB_INPUTS_PARAMETERS                                                                              \
    const float *base, int64_t stride, int32_t channels, const float *weights, int32_t frames, float spread_from, \
        float spread_step, int32_t done, float *in_left, float *in_right, float silence
#define FX_REVERB_INPUTS_ARGUMENTS                                                                               \
    base, stride, channels, weights, frames, spread_from, spread_step, done, in_left, in_right, silence
#define FX_REVERB_DIFFUSERS_PARAMETERS                                                                           \
    float *in_left, float *in_right, float *rings, int32_t size, const int32_t *delays, const float *gains,        \
        int64_t first, int32_t frames
#define FX_REVERB_DIFFUSERS_ARGUMENTS in_left, in_right, rings, size, delays, gains, first, frames
#define FX_REVERB_OUTPUTS_PARAMETERS                                                                             \
    float *base, int64_t stride, int32_t channels, const int32_t *rows, const float *mixed, int32_t frames,        \
        int32_t done, float dry_from, float dry_step, float wet_from, float wet_step
#define FX_REVERB_OUTPUTS_ARGUMENTS                                                                              \
    base, stride, channels, rows, mixed, frames, done, dry_from, dry_step, wet_from, wet_step

FX_LEVELS(int32_t, return, reverb_inputs, FX_REVERB_INPUTS_PARAMETERS, FX_REVERB_INPUTS_ARGUMENTS)
FX_LEVELS(void, , reverb_diffusers, FX_REVERB_DIFFUSERS_PARAMETERS, FX_REVERB_DIFFUSERS_ARGUMENTS)
FX_LEVELS(void, , reverb_outputs, FX_REVERB_OUTPUTS_PARAMETERS, FX_REVERB_OUTPUTS_ARGUMENTS)

int32_t fx_reverb_inputs(int32_t level, FX_REVERB_INPUTS_PARAMETERS) MK_NONBLOCKING {
    return FX_DISPATCH(level, reverb_inputs, FX_REVERB_INPUTS_ARGUMENTS);
}

void fx_reverb_diffusers(int32_t level, FX_REVERB_DIFFUSERS_PARAMETERS) MK_NONBLOCKING {
    FX_DISPATCH(level, reverb_diffusers, FX_REVERB_DIFFUSERS_ARGUMENTS);
}

void fx_reverb_outputs(int32_t level, FX_REVERB_OUTPUTS_PARAMETERS) MK_NONBLOCKING {
    FX_DISPATCH(level, reverb_outputs, FX_REVERB_OUTPUTS_ARGUMENTS);
}
