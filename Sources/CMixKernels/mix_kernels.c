// See include/mix_kernels.h. Layout of this file: the shared sinc table, the
// per-frame interpolators, the kernel bodies written once as always-inline
// functions, their instantiation for each instruction set (the AVX2 linear
// kernel is written by hand with intrinsics), the tables, dispatch.
//
// The build settings carry no flags (Package.swift): what this file needs
// from the compiler it says here. Every `nonblocking` function is checked by
// clang's function-effects analysis, and a violation (a call that may
// allocate, lock or block) is a compile error, not a warning:
#if defined(__clang__)
#pragma clang diagnostic error "-Wfunction-effects"
#endif
// Nothing in a kernel calls libm (fabsf is a builtin and never sets errno),
// so -fno-math-errno is not needed; optimisation comes from the build
// configuration (-O2 in -c release).
#include "mix_kernels.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define MK_HAVE_AVX2 1
#define MK_AVX2 __attribute__((target("avx2,fma")))
#define MK_HAVE_AVX512 1
#define MK_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma")))
#endif

#define MK_INLINE static inline __attribute__((always_inline))
#define MK_FRACTION(pos) ((float)((uint32_t)(pos) >> 8) * (1.0f / 16777216.0f))

// MARK: - Sinc table

enum { SINC_TAPS = 16, SINC_PHASES = 256, SINC_BEFORE = 7 };

// Row p holds the 16 taps for fraction p / 256; delta row p is row p+1 minus
// row p, so a fraction between two phases interpolates the coefficients.
static float sinc_table[SINC_PHASES][SINC_TAPS] __attribute__((aligned(64)));
static float sinc_delta[SINC_PHASES][SINC_TAPS] __attribute__((aligned(64)));
static pthread_once_t sinc_once = PTHREAD_ONCE_INIT;

static double bessel_i0(double x) {
    double sum = 1, term = 1;
    for (int k = 1; k < 40; k++) {
        term *= (x / (2 * k)) * (x / (2 * k));
        sum += term;
    }
    return sum;
}

static void sinc_coefficients(double fraction, float *row) {
    const double cutoff = 0.85, beta = 6.0, half = SINC_TAPS / 2.0;
    double sum = 0, taps[SINC_TAPS];
    for (int j = 0; j < SINC_TAPS; j++) {
        double t = (double)(j - SINC_BEFORE) - fraction;  // distance from the read position
        double u = t / half;
        double window = fabs(u) < 1 ? bessel_i0(beta * sqrt(1 - u * u)) / bessel_i0(beta) : 0;
        double x = M_PI * cutoff * t;
        taps[j] = (fabs(x) < 1e-12 ? 1.0 : sin(x) / x) * window;
        sum += taps[j];
    }
    for (int j = 0; j < SINC_TAPS; j++) row[j] = (float)(taps[j] / sum);  // unity gain at DC
}

static void build_sinc_table(void) {
    float next[SINC_TAPS];
    for (int p = 0; p < SINC_PHASES; p++) {
        sinc_coefficients((double)p / SINC_PHASES, sinc_table[p]);
        sinc_coefficients((double)(p + 1) / SINC_PHASES, next);
        for (int j = 0; j < SINC_TAPS; j++) sinc_delta[p][j] = next[j] - sinc_table[p][j];
    }
}

// MARK: - Interpolators: one output sample at a 32.32 position

MK_INLINE float sample_linear(const float *x, uint64_t pos) MK_NONBLOCKING {
    const float *p = x + (pos >> 32);
    float f = MK_FRACTION(pos);
    return p[0] + f * (p[1] - p[0]);
}

MK_INLINE float sample_cubic(const float *x, uint64_t pos) MK_NONBLOCKING {
    const float *p = x + (pos >> 32);
    float f = MK_FRACTION(pos);
    float xm1 = p[-1], x0 = p[0], x1 = p[1], x2 = p[2];
    float c1 = 0.5f * (x1 - xm1);
    float c2 = xm1 - 2.5f * x0 + 2.0f * x1 - 0.5f * x2;
    float c3 = 0.5f * (x2 - xm1) + 1.5f * (x0 - x1);
    return ((c3 * f + c2) * f + c1) * f + x0;
}

MK_INLINE float sample_sinc(const float *x, uint64_t pos) MK_NONBLOCKING {
    const float *p = x + (pos >> 32) - SINC_BEFORE;
    uint32_t fraction = (uint32_t)pos;
    const float *c = sinc_table[fraction >> 24], *d = sinc_delta[fraction >> 24];
    float t = (float)(fraction & 0xFFFFFF) * (1.0f / 16777216.0f);
    float acc = 0;
    for (int j = 0; j < SINC_TAPS; j++) acc += p[j] * (c[j] + t * d[j]);
    return acc;
}

// MARK: - Kernel bodies, written once

// The generic mix loop: one interpolated sample per plane per frame, gains
// computed from the frame index (no accumulated rounding drift).
#define MK_MIX_BODY(SAMPLE)                                                                       \
    const float *x = s->source[0], *y = s->source[1];                                             \
    uint64_t pos = s->position + (uint64_t)start * s->step;                                       \
    const float gl = s->gain[0], gr = s->gain[1], dl = s->gain_step[0], dr = s->gain_step[1];     \
    if (y == NULL && R == NULL) {                                                                 \
        for (int32_t i = start; i < n; i++, pos += s->step) L[i] += SAMPLE(x, pos) * (gl + dl * (float)i); \
    } else if (y == NULL) {                                                                       \
        for (int32_t i = start; i < n; i++, pos += s->step) {                                     \
            float v = SAMPLE(x, pos);                                                             \
            L[i] += v * (gl + dl * (float)i);                                                     \
            R[i] += v * (gr + dr * (float)i);                                                     \
        }                                                                                         \
    } else {                                                                                      \
        for (int32_t i = start; i < n; i++, pos += s->step) {                                     \
            L[i] += SAMPLE(x, pos) * (gl + dl * (float)i);                                        \
            R[i] += SAMPLE(y, pos) * (gr + dr * (float)i);                                        \
        }                                                                                         \
    }

MK_INLINE void mix_linear_from(const mk_segment *s, float *L, float *R, int32_t start, int32_t n) MK_NONBLOCKING {
    MK_MIX_BODY(sample_linear)
}
MK_INLINE void mix_cubic_from(const mk_segment *s, float *L, float *R, int32_t start, int32_t n) MK_NONBLOCKING {
    MK_MIX_BODY(sample_cubic)
}
MK_INLINE void mix_sinc_body(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {
    const int32_t start = 0;
    MK_MIX_BODY(sample_sinc)
}

MK_INLINE void clear_body(float *L, float *R, int32_t n) MK_NONBLOCKING {
    for (int32_t i = 0; i < n; i++) L[i] = 0;
    for (int32_t i = 0; i < n; i++) R[i] = 0;
}

MK_INLINE void accumulate_body(const float *sl, const float *sr, float *dl, float *dr, float g, float dg,
                               int32_t n) MK_NONBLOCKING {
    for (int32_t i = 0; i < n; i++) {
        float gi = g + dg * (float)i;
        dl[i] += sl[i] * gi;
        dr[i] += sr[i] * gi;
    }
}

MK_INLINE void scale_body(float *L, float *R, float g, float dg, int32_t n) MK_NONBLOCKING {
    for (int32_t i = 0; i < n; i++) {
        float gi = g + dg * (float)i;
        L[i] *= gi;
        R[i] *= gi;
    }
}

// The meter runs in 16 lanes with a fixed order: lane j takes frames j,
// j + 16, j + 32, …, and the lanes are summed pairwise at the end. So it
// vectorises (a plain running sum is a float reduction the compiler may not
// reorder) and gives the same figure at every kernel level: each lane's
// arithmetic is the same whatever the vector width, and no multiply is fused
// into an add.
enum { MEASURE_LANES = 16 };

/// One frame into one lane's peak `m` and sum of squares `s`.
MK_INLINE void measure_frame(float l, float r, float *m, float *s) MK_NONBLOCKING {
#pragma clang fp contract(off)
    float a = fabsf(l), b = fabsf(r);
    float x = a > b ? a : b;
    *m = x > *m ? x : *m;
    float ll = l * l, rr = r * r;
    *s += ll + rr;
}

MK_INLINE void measure_body(const float *L, const float *R, int32_t n, float *peak, double *sum_squares) MK_NONBLOCKING {
#pragma clang fp contract(off)
    float m[MEASURE_LANES], s[MEASURE_LANES];
    for (int j = 0; j < MEASURE_LANES; j++) {
        m[j] = *peak;
        s[j] = 0;
    }
    int32_t i = 0;
    for (; i + MEASURE_LANES <= n; i += MEASURE_LANES) {
        for (int j = 0; j < MEASURE_LANES; j++) measure_frame(L[i + j], R[i + j], &m[j], &s[j]);
    }
    for (int j = 0; i + j < n; j++) measure_frame(L[i + j], R[i + j], &m[j], &s[j]);
    for (int width = MEASURE_LANES / 2; width > 0; width /= 2) {
        for (int j = 0; j < width; j++) {
            m[j] = m[j + width] > m[j] ? m[j + width] : m[j];
            s[j] += s[j + width];
        }
    }
    *peak = m[0];
    *sum_squares += s[0];
}

MK_INLINE float clip_one(float x) MK_NONBLOCKING {
    const float knee = 0.75f, room = 1.0f - knee;
    float a = fabsf(x);
    if (a <= knee) return x;
    float u = (a - knee) / room;
    float y = knee + room * (u / (1.0f + u));  // slope 1 at the knee, tends to 1
    return x < 0 ? -y : y;
}

MK_INLINE void clip_body(float *L, float *R, int32_t n) MK_NONBLOCKING {
    for (int32_t i = 0; i < n; i++) L[i] = clip_one(L[i]);
    for (int32_t i = 0; i < n; i++) R[i] = clip_one(R[i]);
}

MK_INLINE void write_f32_body(const float *L, const float *R, float *d, int32_t n, int32_t ch) MK_NONBLOCKING {
    if (ch == 2) {
        for (int32_t i = 0; i < n; i++) {
            d[2 * i] = L[i];
            d[2 * i + 1] = R[i];
        }
    } else if (ch == 1) {
        for (int32_t i = 0; i < n; i++) d[i] = 0.5f * (L[i] + R[i]);
    } else {
        for (int32_t i = 0; i < n; i++) {
            float *f = d + (ptrdiff_t)i * ch;
            f[0] = L[i];
            f[1] = R[i];
            for (int32_t c = 2; c < ch; c++) f[c] = 0;
        }
    }
}

MK_INLINE int16_t to_s16(float x) MK_NONBLOCKING {
    x = x > 1.0f ? 1.0f : (x < -1.0f ? -1.0f : x);
    x *= 32767.0f;
    return (int16_t)(x >= 0 ? x + 0.5f : x - 0.5f);
}

MK_INLINE void write_s16_body(const float *L, const float *R, int16_t *d, int32_t n, int32_t ch) MK_NONBLOCKING {
    if (ch == 2) {
        for (int32_t i = 0; i < n; i++) {
            d[2 * i] = to_s16(L[i]);
            d[2 * i + 1] = to_s16(R[i]);
        }
    } else if (ch == 1) {
        for (int32_t i = 0; i < n; i++) d[i] = to_s16(0.5f * (L[i] + R[i]));
    } else {
        for (int32_t i = 0; i < n; i++) {
            int16_t *f = d + (ptrdiff_t)i * ch;
            f[0] = to_s16(L[i]);
            f[1] = to_s16(R[i]);
            for (int32_t c = 2; c < ch; c++) f[c] = 0;
        }
    }
}

// MARK: - Instantiation

// One set of entry functions per instruction set, from the same bodies; the
// compiler vectorises each for its target.
#define MK_INSTANTIATE(SUFFIX, ATTR)                                                                          \
    static ATTR void mix_sinc_##SUFFIX(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {   \
        mix_sinc_body(s, L, R, n);                                                                            \
    }                                                                                                         \
    static ATTR void clear_##SUFFIX(float *L, float *R, int32_t n) MK_NONBLOCKING { clear_body(L, R, n); }  \
    static ATTR void accumulate_##SUFFIX(const float *sl, const float *sr, float *dl, float *dr, float g,   \
                                         float dg, int32_t n) MK_NONBLOCKING {                                \
        accumulate_body(sl, sr, dl, dr, g, dg, n);                                                            \
    }                                                                                                         \
    static ATTR void scale_##SUFFIX(float *L, float *R, float g, float dg, int32_t n) MK_NONBLOCKING {       \
        scale_body(L, R, g, dg, n);                                                                           \
    }                                                                                                         \
    static ATTR void measure_##SUFFIX(const float *L, const float *R, int32_t n, float *peak, double *sq)    \
        MK_NONBLOCKING {                                                                                      \
        measure_body(L, R, n, peak, sq);                                                                      \
    }                                                                                                         \
    static ATTR void clip_##SUFFIX(float *L, float *R, int32_t n) MK_NONBLOCKING { clip_body(L, R, n); }    \
    static ATTR void write_f32_##SUFFIX(const float *L, const float *R, float *d, int32_t n, int32_t ch)   \
        MK_NONBLOCKING {                                                                                      \
        write_f32_body(L, R, d, n, ch);                                                                       \
    }                                                                                                         \
    static ATTR void write_s16_##SUFFIX(const float *L, const float *R, int16_t *d, int32_t n, int32_t ch) \
        MK_NONBLOCKING {                                                                                      \
        write_s16_body(L, R, d, n, ch);                                                                       \
    }

MK_INSTANTIATE(portable, )

static void mix_linear_portable(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {
    mix_linear_from(s, L, R, 0, n);
}

static void mix_cubic_portable(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {
    mix_cubic_from(s, L, R, 0, n);
}

#ifdef MK_HAVE_AVX2
MK_INSTANTIATE(avx2, MK_AVX2)

// Linear interpolation near unity rate (|step - 1| < 1/8), the common case
// (pitch bends, small rate differences, the mix-N workload): lane j of a
// block of 8 frames reads at k0 + j + t_j with t_j = f0 + j * (step - 1),
// and t_j stays within one sample of 0. So each lane's pair of samples is
// one of two neighbouring unaligned loads, picked with a blend: no permute,
// no gather. The offsets within a block are computed in float (exact to
// ~1e-7 of a sample); the block start stays exact 32.32.
MK_INLINE MK_AVX2 __m256 near_unity_pick(const float *xb, __m256 mask, __m256 f, const int up, const int cubic)
    MK_NONBLOCKING {
    // up: t in [0, 2), lanes with t >= 1 read one sample further;
    // down: t in (-1, 1), lanes with t < 0 read one sample earlier.
    if (cubic) {  // the four taps k-1 … k+2 of Catmull-Rom, each picked the same way
        const int shift = up ? 1 : -1;
        __m256 xm1 = _mm256_blendv_ps(_mm256_loadu_ps(xb - 1), _mm256_loadu_ps(xb - 1 + shift), mask);
        __m256 x0 = _mm256_blendv_ps(_mm256_loadu_ps(xb), _mm256_loadu_ps(xb + shift), mask);
        __m256 x1 = _mm256_blendv_ps(_mm256_loadu_ps(xb + 1), _mm256_loadu_ps(xb + 1 + shift), mask);
        __m256 x2 = _mm256_blendv_ps(_mm256_loadu_ps(xb + 2), _mm256_loadu_ps(xb + 2 + shift), mask);
        const __m256 half = _mm256_set1_ps(0.5f);
        __m256 c1 = _mm256_mul_ps(half, _mm256_sub_ps(x1, xm1));
        __m256 c2 = _mm256_sub_ps(
            _mm256_fmadd_ps(_mm256_set1_ps(2.0f), x1, _mm256_fmadd_ps(_mm256_set1_ps(-2.5f), x0, xm1)),
            _mm256_mul_ps(half, x2));
        __m256 c3 = _mm256_fmadd_ps(half, _mm256_sub_ps(x2, xm1), _mm256_mul_ps(_mm256_set1_ps(1.5f), _mm256_sub_ps(x0, x1)));
        return _mm256_fmadd_ps(_mm256_fmadd_ps(_mm256_fmadd_ps(c3, f, c2), f, c1), f, x0);
    }
    __m256 x0 = _mm256_loadu_ps(xb), x1 = _mm256_loadu_ps(xb + 1), a, b;
    if (up) {
        a = _mm256_blendv_ps(x0, x1, mask);
        b = _mm256_blendv_ps(x1, _mm256_loadu_ps(xb + 2), mask);
    } else {
        a = _mm256_blendv_ps(x0, _mm256_loadu_ps(xb - 1), mask);
        b = _mm256_blendv_ps(x1, x0, mask);
    }
    return _mm256_fmadd_ps(f, _mm256_sub_ps(b, a), a);
}

MK_INLINE MK_AVX2 void mix_near_unity_avx2(const mk_segment *s, float *L, float *R, int32_t blocks8, const int ramp,
                                           const int up, const int stereo, const int cubic) MK_NONBLOCKING {
    const float *x = s->source[0], *y = s->source[1];
    const float *p0 = s->prefetch[0], *p1 = s->prefetch[1];
    const uint64_t step = s->step, step8 = step * 8;
    uint64_t pos = s->position;
    const float delta = (float)((double)step * (1.0 / 4294967296.0) - 1.0);
    const __m256 lane_delta = _mm256_mul_ps(_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_ps(delta));
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    const __m256 gl = _mm256_set1_ps(s->gain[0]), gr = _mm256_set1_ps(s->gain[1]);
    const __m256 dl = _mm256_set1_ps(s->gain_step[0]), dr = _mm256_set1_ps(s->gain_step[1]);
    const __m256 eight = _mm256_set1_ps(8);
    __m256 frame = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    for (int32_t i = 0; i < blocks8; i += 8, pos += step8) {
        const ptrdiff_t k = (ptrdiff_t)(pos >> 32);
        if ((i & 8) == 0) {  // one cache line of the next voice every other step
            if (p0) _mm_prefetch((const char *)(p0 + i), _MM_HINT_T0);
            if (p1) _mm_prefetch((const char *)(p1 + i), _MM_HINT_T0);
        }
        __m256 t = _mm256_add_ps(_mm256_set1_ps((float)(uint32_t)pos * (1.0f / 4294967296.0f)), lane_delta);
        __m256 mask = up ? _mm256_cmp_ps(t, one, _CMP_GE_OQ) : _mm256_cmp_ps(t, zero, _CMP_LT_OQ);
        __m256 f = up ? _mm256_sub_ps(t, _mm256_and_ps(mask, one)) : _mm256_add_ps(t, _mm256_and_ps(mask, one));
        __m256 v = near_unity_pick(x + k, mask, f, up, cubic);
        __m256 w = stereo ? near_unity_pick(y + k, mask, f, up, cubic) : v;
        __m256 g0 = gl, g1 = gr;
        if (ramp) {
            g0 = _mm256_fmadd_ps(dl, frame, gl);
            g1 = _mm256_fmadd_ps(dr, frame, gr);
            frame = _mm256_add_ps(frame, eight);
        }
        _mm256_storeu_ps(L + i, _mm256_fmadd_ps(v, g0, _mm256_loadu_ps(L + i)));
        if (R) _mm256_storeu_ps(R + i, _mm256_fmadd_ps(w, g1, _mm256_loadu_ps(R + i)));
    }
}

// Instantiates the near-unity loop with its four switches fixed, so none is
// tested inside the loop.
static MK_AVX2 void mix_near_unity_dispatch(const mk_segment *s, float *L, float *R, int32_t blocks8, const int cubic)
    MK_NONBLOCKING {
    const int ramp = s->gain_step[0] != 0 || s->gain_step[1] != 0;
    const int up = s->step >= (1ull << 32);
    const int stereo = s->source[1] != NULL;
#define MK_NU(C_, R_, U_, S_) \
    if (cubic == C_ && ramp == R_ && up == U_ && stereo == S_) {                                              \
        mix_near_unity_avx2(s, L, R, blocks8, R_, U_, S_, C_);                                                 \
        return;                                                                                               \
    }
    MK_NU(0, 0, 0, 0) MK_NU(0, 0, 0, 1) MK_NU(0, 0, 1, 0) MK_NU(0, 0, 1, 1)
    MK_NU(0, 1, 0, 0) MK_NU(0, 1, 0, 1) MK_NU(0, 1, 1, 0) MK_NU(0, 1, 1, 1)
    MK_NU(1, 0, 0, 0) MK_NU(1, 0, 0, 1) MK_NU(1, 0, 1, 0) MK_NU(1, 0, 1, 1)
    MK_NU(1, 1, 0, 0) MK_NU(1, 1, 0, 1) MK_NU(1, 1, 1, 0) MK_NU(1, 1, 1, 1)
#undef MK_NU
}

/// Near unity rate (7/8 < step < 9/8) the vector loop; elsewhere, and for
/// the last frames, the generic body.
MK_INLINE int near_unity(const mk_segment *s) MK_NONBLOCKING {
    return s->step > (7ull << 29) && s->step < (9ull << 29);
}

static MK_AVX2 void mix_cubic_avx2(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {
    int32_t blocks = 0;
    if (near_unity(s)) {
        blocks = n & ~7;
        mix_near_unity_dispatch(s, L, R, blocks, 1);
    }
    mix_cubic_from(s, L, R, blocks, n);
}

// The hand-vectorised linear kernel: 8 output frames per step. The 8 read
// positions of a step span at most 2 * 7 + 1 source samples when step <= 2,
// so instead of a gather it loads 16 consecutive samples (two vectors, plus
// the same shifted by one for the right-hand neighbours) and picks each
// lane's samples with a cross-lane permute; when step <= 1 all positions fall
// in the first vector and one permute per neighbour suffices. Larger steps
// use a hardware gather. Positions stay exact 32.32: each lane's offset from
// the step's first position is j * step, split into integer and fraction
// words with an explicit carry.
static MK_AVX2 void mix_linear_avx2(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {
    const float *x = s->source[0], *y = s->source[1];
    const uint64_t step = s->step;
    uint64_t pos = s->position;
    const int32_t blocks = n & ~7;
    if (near_unity(s)) {
        mix_near_unity_dispatch(s, L, R, blocks, 0);
        mix_linear_from(s, L, R, blocks, n);
        return;
    }

    int32_t jlo[8], jhi[8];
    for (int j = 0; j < 8; j++) {
        uint64_t o = (uint64_t)j * step;
        jlo[j] = (int32_t)(uint32_t)o;
        jhi[j] = (int32_t)(o >> 32);
    }
    const __m256i lane_lo = _mm256_loadu_si256((const __m256i *)jlo);
    const __m256i lane_hi = _mm256_loadu_si256((const __m256i *)jhi);
    const __m256i sign = _mm256_set1_epi32((int32_t)0x80000000);
    const __m256i lane_lo_signed = _mm256_xor_si256(lane_lo, sign);
    const __m256 to_unit = _mm256_set1_ps(1.0f / 16777216.0f);
    const __m256 gl = _mm256_set1_ps(s->gain[0]), gr = _mm256_set1_ps(s->gain[1]);
    const __m256 dl = _mm256_set1_ps(s->gain_step[0]), dr = _mm256_set1_ps(s->gain_step[1]);
    __m256 frame = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 eight = _mm256_set1_ps(8);
    const uint64_t step8 = step * 8;
    const int mode = step <= (1ull << 32) ? 0 : (step <= (2ull << 32) ? 1 : 2);

    for (int32_t i = 0; i < blocks; i += 8, pos += step8) {
        const float *xb = x + (pos >> 32);
        // lo = fraction(pos) + lane_lo (mod 2^32); carry where it wrapped.
        __m256i f0 = _mm256_set1_epi32((int32_t)(uint32_t)pos);
        __m256i lo = _mm256_add_epi32(f0, lane_lo);
        __m256i carry = _mm256_cmpgt_epi32(lane_lo_signed, _mm256_xor_si256(lo, sign));
        __m256i idx = _mm256_sub_epi32(lane_hi, carry);
        __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(lo, 8)), to_unit);
        __m256 g0 = _mm256_fmadd_ps(dl, frame, gl), g1 = _mm256_fmadd_ps(dr, frame, gr);
        frame = _mm256_add_ps(frame, eight);

        __m256 a, b, c, d;  // plane x: a = x[k], b = x[k+1]; plane y: c, d
#define MK_PICK(base, OUT0, OUT1)                                                                       \
    if (mode == 0) {                                                                                    \
        OUT0 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(base), idx);                                     \
        OUT1 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(base + 1), idx);                                 \
    } else if (mode == 1) {                                                                             \
        __m256 high = _mm256_castsi256_ps(_mm256_slli_epi32(idx, 28));                                  \
        OUT0 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(base), idx),                    \
                                _mm256_permutevar8x32_ps(_mm256_loadu_ps(base + 8), idx), high);         \
        OUT1 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(base + 1), idx),                \
                                _mm256_permutevar8x32_ps(_mm256_loadu_ps(base + 9), idx), high);         \
    } else {                                                                                            \
        OUT0 = _mm256_i32gather_ps(base, idx, 4);                                                       \
        OUT1 = _mm256_i32gather_ps(base + 1, idx, 4);                                                   \
    }
        MK_PICK(xb, a, b)
        __m256 v = _mm256_fmadd_ps(f, _mm256_sub_ps(b, a), a);
        if (y == NULL) {
            _mm256_storeu_ps(L + i, _mm256_fmadd_ps(v, g0, _mm256_loadu_ps(L + i)));
            if (R) _mm256_storeu_ps(R + i, _mm256_fmadd_ps(v, g1, _mm256_loadu_ps(R + i)));
        } else {
            const float *yb = y + (pos >> 32);
            MK_PICK(yb, c, d)
            __m256 w = _mm256_fmadd_ps(f, _mm256_sub_ps(d, c), c);
            _mm256_storeu_ps(L + i, _mm256_fmadd_ps(v, g0, _mm256_loadu_ps(L + i)));
            _mm256_storeu_ps(R + i, _mm256_fmadd_ps(w, g1, _mm256_loadu_ps(R + i)));
        }
#undef MK_PICK
    }
    mix_linear_from(s, L, R, blocks, n);
}
#endif

#ifdef MK_HAVE_AVX512
MK_INSTANTIATE(avx512, MK_AVX512)

// The AVX-512 resampling kernel, linear and cubic: 16 output frames per
// step, each step starting at its exact 32.32 position. Lane j of a step
// reads at k0 + idx_j + f_j.
//
// While the taps of all 16 lanes lie in 32 consecutive samples (linear:
// step <= 2; cubic, which reads one sample before and two after:
// 15 * step < 28), two contiguous 16-float loads and one two-source permute
// (vpermt2ps) per tap replace a gather. There idx_j + f_j is the step's
// 24-bit fraction (the one the portable body uses) plus j * step in float,
// split by a truncating conversion: four vector operations where the exact
// split below takes six, one sixth of the step's work (mix-N 2-3 % faster).
// The lane offsets are below 31, so the position is off by at most 2e-6 of
// a sample, and nothing drifts: every step starts exact. Where the sum
// rounds up to the next integer, f_j is 0 and the extra tap it reads (the
// permute's index wraps within the 32) is multiplied by 0.
//
// Larger steps gather, with pos + j * step split exactly into integer and
// fraction words with an explicit carry (unsigned compare into a mask
// register, masked add). So the kernels differ from the portable body by
// FMA rounding and, on the permute path, that position error. The loads of a
// step reach at most 31 samples past its first position, within
// MK_GUARD_FRAMES. The last, partial step runs masked (accumulator loads and
// stores, and gathers, so no lane reads past what the segment may).
MK_INLINE MK_AVX512 __m512 avx512_taps(const float *xb, __m512i idx, __m512 f, __mmask16 m, const int cubic,
                                       const int gather) MK_NONBLOCKING {
    const __m512i one = _mm512_set1_epi32(1);
    const __m512 zero = _mm512_setzero_ps();
    if (!cubic) {
        __m512 a, b;
        if (gather) {
            a = _mm512_mask_i32gather_ps(zero, m, idx, xb, 4);
            b = _mm512_mask_i32gather_ps(zero, m, idx, xb + 1, 4);
        } else {
            __m512 lo = _mm512_loadu_ps(xb), hi = _mm512_loadu_ps(xb + 16);
            a = _mm512_permutex2var_ps(lo, idx, hi);
            b = _mm512_permutex2var_ps(lo, _mm512_add_epi32(idx, one), hi);
        }
        return _mm512_fmadd_ps(f, _mm512_sub_ps(b, a), a);
    }
    __m512 xm1, x0, x1, x2;
    if (gather) {
        xm1 = _mm512_mask_i32gather_ps(zero, m, idx, xb - 1, 4);
        x0 = _mm512_mask_i32gather_ps(zero, m, idx, xb, 4);
        x1 = _mm512_mask_i32gather_ps(zero, m, idx, xb + 1, 4);
        x2 = _mm512_mask_i32gather_ps(zero, m, idx, xb + 2, 4);
    } else {  // taps k-1 … k+2 = entries idx … idx+3 of the 32 samples from xb - 1
        __m512 lo = _mm512_loadu_ps(xb - 1), hi = _mm512_loadu_ps(xb + 15);
        __m512i i1 = _mm512_add_epi32(idx, one);
        xm1 = _mm512_permutex2var_ps(lo, idx, hi);
        x0 = _mm512_permutex2var_ps(lo, i1, hi);
        x1 = _mm512_permutex2var_ps(lo, _mm512_add_epi32(i1, one), hi);
        x2 = _mm512_permutex2var_ps(lo, _mm512_add_epi32(i1, _mm512_add_epi32(one, one)), hi);
    }
    const __m512 half = _mm512_set1_ps(0.5f);
    __m512 c1 = _mm512_mul_ps(half, _mm512_sub_ps(x1, xm1));
    __m512 c2 = _mm512_sub_ps(
        _mm512_fmadd_ps(_mm512_set1_ps(2.0f), x1, _mm512_fmadd_ps(_mm512_set1_ps(-2.5f), x0, xm1)),
        _mm512_mul_ps(half, x2));
    __m512 c3 = _mm512_fmadd_ps(half, _mm512_sub_ps(x2, xm1), _mm512_mul_ps(_mm512_set1_ps(1.5f), _mm512_sub_ps(x0, x1)));
    return _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_fmadd_ps(c3, f, c2), f, c1), f, x0);
}

// The state of one segment's AVX-512 loop: lane offsets, gains, prefetches.
typedef struct avx512_run {
    __m512i lane_lo, lane_hi;
    __m512 lane_f, gl, gr, dl, dr, frame;
    const float *x, *y, *p0, *p1;
    uint64_t pos, step16;
    int32_t n, extra;
} avx512_run;

// The prefetch of the voice a batch ahead, into L2 (`in_l2`: a batch's
// tiles, where that voice is mixed only after the whole batch, as limit-c
// does) or L1 (a voice mixed alone, whose successor comes next).
MK_INLINE MK_AVX512 void avx512_prefetch(const float *p, const int in_l2) MK_NONBLOCKING {
    if (in_l2) {
        _mm_prefetch((const char *)p, _MM_HINT_T1);
    } else {
        _mm_prefetch((const char *)p, _MM_HINT_T0);
    }
}

// One step of 16 frames from frame i, the lanes in `m` only, added into the
// accumulators `*acc_l` and (with `right`) `*acc_r`; `in_l2` as for avx512_prefetch.
MK_INLINE MK_AVX512 void avx512_add(avx512_run *r, __m512 *acc_l, __m512 *acc_r, int32_t i, __mmask16 m,
                                    const int cubic, const int gather, const int ramp, const int stereo,
                                    const int right, const int in_l2) MK_NONBLOCKING {
    const __m512i one = _mm512_set1_epi32(1);
    if (r->p0) {
        avx512_prefetch(r->p0 + i, in_l2);
        if (i < r->extra) avx512_prefetch(r->p0 + r->n + i, in_l2);
    }
    if (r->p1) {
        avx512_prefetch(r->p1 + i, in_l2);
        if (i < r->extra) avx512_prefetch(r->p1 + r->n + i, in_l2);
    }
    const ptrdiff_t k = (ptrdiff_t)(r->pos >> 32);
    __m512i idx;
    __m512 f;
    if (gather) {  // exact: integer and fraction words with an explicit carry
        __m512i lo = _mm512_add_epi32(_mm512_set1_epi32((int32_t)(uint32_t)r->pos), r->lane_lo);
        idx = _mm512_mask_add_epi32(r->lane_hi, _mm512_cmplt_epu32_mask(lo, r->lane_lo), r->lane_hi, one);
        f = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(lo, 8)), _mm512_set1_ps(1.0f / 16777216.0f));
    } else {  // the step's 24-bit fraction plus the lane offsets in float
        const float f0 = (float)((uint32_t)r->pos >> 8) * (1.0f / 16777216.0f);
        const __m512 at = _mm512_add_ps(_mm512_set1_ps(f0), r->lane_f);
        idx = _mm512_cvttps_epi32(at);
        f = _mm512_sub_ps(at, _mm512_cvtepi32_ps(idx));
    }
    __m512 v = avx512_taps(r->x + k, idx, f, m, cubic, gather);
    __m512 w = stereo ? avx512_taps(r->y + k, idx, f, m, cubic, gather) : v;
    __m512 g0 = r->gl, g1 = r->gr;
    if (ramp) {
        g0 = _mm512_fmadd_ps(r->dl, r->frame, r->gl);
        g1 = _mm512_fmadd_ps(r->dr, r->frame, r->gr);
        r->frame = _mm512_add_ps(r->frame, _mm512_set1_ps(16));
    }
    r->pos += r->step16;
    *acc_l = _mm512_fmadd_ps(v, g0, *acc_l);
    if (right) *acc_r = _mm512_fmadd_ps(w, g1, *acc_r);
}

// One step of 16 frames from frame i, the lanes in `m` only, added into L and R.
MK_INLINE MK_AVX512 void avx512_step(avx512_run *r, float *L, float *R, int32_t i, __mmask16 m, const int cubic,
                                     const int gather, const int ramp, const int stereo) MK_NONBLOCKING {
    if (m == (__mmask16)0xFFFF) {
        __m512 al = _mm512_loadu_ps(L + i), ar = R ? _mm512_loadu_ps(R + i) : _mm512_setzero_ps();
        avx512_add(r, &al, &ar, i, m, cubic, gather, ramp, stereo, R != NULL, 0);
        _mm512_storeu_ps(L + i, al);
        if (R) _mm512_storeu_ps(R + i, ar);
    } else {
        __m512 al = _mm512_maskz_loadu_ps(m, L + i), ar = R ? _mm512_maskz_loadu_ps(m, R + i) : _mm512_setzero_ps();
        avx512_add(r, &al, &ar, i, m, cubic, gather, ramp, stereo, R != NULL, 0);
        _mm512_mask_storeu_ps(L + i, m, al);
        if (R) _mm512_mask_storeu_ps(R + i, m, ar);
    }
}

MK_INLINE MK_AVX512 avx512_run avx512_start(const mk_segment *s, int32_t n) MK_NONBLOCKING {
    uint32_t jlo[16], jhi[16];
    float jf[16];
    for (int j = 0; j < 16; j++) {
        uint64_t o = (uint64_t)j * s->step;
        jlo[j] = (uint32_t)o;
        jhi[j] = (uint32_t)(o >> 32);
        jf[j] = (float)((double)o * (1.0 / 4294967296.0));
    }
    avx512_run r = {
        .lane_lo = _mm512_loadu_si512(jlo), .lane_hi = _mm512_loadu_si512(jhi), .lane_f = _mm512_loadu_ps(jf),
        .gl = _mm512_set1_ps(s->gain[0]), .gr = _mm512_set1_ps(s->gain[1]),
        .dl = _mm512_set1_ps(s->gain_step[0]), .dr = _mm512_set1_ps(s->gain_step[1]),
        .frame = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        .x = s->source[0], .y = s->source[1], .p0 = s->prefetch[0], .p1 = s->prefetch[1],
        .pos = s->position, .step16 = s->step * 16,
        // The next voice reads about n * its step samples: one cache line
        // per step covers n, and the first eighth of the steps add n / 8.
        .n = n, .extra = (n >> 3) & ~15,
    };
    return r;
}

// Frames `from` (a multiple of 16) to n of a run started with avx512_start.
MK_INLINE MK_AVX512 void avx512_rest(avx512_run *r, float *L, float *R, int32_t from, int32_t n, const int cubic,
                                     const int gather, const int ramp, const int stereo) MK_NONBLOCKING {
    const int32_t full = n & ~15;
    int32_t i = from;
    for (; i < full; i += 16) avx512_step(r, L, R, i, (__mmask16)0xFFFF, cubic, gather, ramp, stereo);
    // The last frames: masked (accumulators and gathers), so nothing is
    // read past what the segment may.
    if (i < n) avx512_step(r, L, R, i, (__mmask16)((1u << (n - i)) - 1), cubic, gather, ramp, stereo);
}

MK_INLINE MK_AVX512 void mix_avx512(const mk_segment *s, float *L, float *R, int32_t n, const int cubic,
                                    const int gather, const int ramp, const int stereo) MK_NONBLOCKING {
    avx512_run r = avx512_start(s, n);
    avx512_rest(&r, L, R, 0, n, cubic, gather, ramp, stereo);
}

// The switches of a segment's loop, as avx512_kind packs them.
MK_INLINE MK_AVX512 int avx512_kind(const mk_segment *s, const int cubic) MK_NONBLOCKING {
    const int gather = cubic ? s->step * 15 >= (28ull << 32) : s->step > (2ull << 32);
    const int ramp = s->gain_step[0] != 0 || s->gain_step[1] != 0;
    const int stereo = s->source[1] != NULL;
    return gather << 2 | ramp << 1 | stereo;
}

// Instantiates the loop with its four switches fixed, so none is tested
// inside it.
static MK_AVX512 void mix_avx512_dispatch(const mk_segment *s, float *L, float *R, int32_t n, const int cubic)
    MK_NONBLOCKING {
    const int kind = avx512_kind(s, cubic);
#define MK_V(C_, K_) \
    if (cubic == C_ && kind == K_) {                                                                          \
        mix_avx512(s, L, R, n, C_, K_ >> 2, (K_ >> 1) & 1, K_ & 1);                                           \
        return;                                                                                               \
    }
    MK_V(0, 0) MK_V(0, 1) MK_V(0, 2) MK_V(0, 3) MK_V(0, 4) MK_V(0, 5) MK_V(0, 6) MK_V(0, 7)
    MK_V(1, 0) MK_V(1, 1) MK_V(1, 2) MK_V(1, 3) MK_V(1, 4) MK_V(1, 5) MK_V(1, 6) MK_V(1, 7)
#undef MK_V
}

// Several segments into the same planes (mk_mix_batch): for each tile of 64
// frames the four steps' sums of both planes stay in eight registers while
// every segment adds to them in order, so the planes are loaded and stored
// once per tile instead of once per segment. Each segment's state lives in
// `r` between tiles. Per sample the operations and their order are those of
// mixing the segments one after another: the result is bit for bit the same.
// The frames after the last whole tile go segment by segment.
enum { AVX512_TILE = 64 };

MK_INLINE MK_AVX512 void avx512_tile(avx512_run *r, __m512 *acc, int32_t i, const int cubic, const int gather,
                                     const int ramp, const int stereo) MK_NONBLOCKING {
    avx512_run q = *r;
    avx512_add(&q, &acc[0], &acc[4], i, (__mmask16)0xFFFF, cubic, gather, ramp, stereo, 1, 1);
    avx512_add(&q, &acc[1], &acc[5], i + 16, (__mmask16)0xFFFF, cubic, gather, ramp, stereo, 1, 1);
    avx512_add(&q, &acc[2], &acc[6], i + 32, (__mmask16)0xFFFF, cubic, gather, ramp, stereo, 1, 1);
    avx512_add(&q, &acc[3], &acc[7], i + 48, (__mmask16)0xFFFF, cubic, gather, ramp, stereo, 1, 1);
    *r = q;
}

MK_INLINE MK_AVX512 void mix_batch_avx512(const mk_segment *s, int32_t count, float *L, float *R, int32_t n,
                                          const int cubic) MK_NONBLOCKING {
    avx512_run r[MK_BATCH_MAX];
    int kind[MK_BATCH_MAX];
    for (int32_t j = 0; j < count; j++) {
        r[j] = avx512_start(&s[j], n);
        kind[j] = avx512_kind(&s[j], cubic);
    }
    const int32_t tiles = n & ~(AVX512_TILE - 1);
    for (int32_t i = 0; i < tiles; i += AVX512_TILE) {
        __m512 acc[8];
        for (int k = 0; k < 4; k++) {
            acc[k] = _mm512_loadu_ps(L + i + 16 * k);
            acc[4 + k] = _mm512_loadu_ps(R + i + 16 * k);
        }
        for (int32_t j = 0; j < count; j++) {
            switch (kind[j]) {
#define MK_K(K_) \
    case K_: avx512_tile(&r[j], acc, i, cubic, K_ >> 2, (K_ >> 1) & 1, K_ & 1); break;
                MK_K(0) MK_K(1) MK_K(2) MK_K(3) MK_K(4) MK_K(5) MK_K(6) MK_K(7)
#undef MK_K
            }
        }
        for (int k = 0; k < 4; k++) {
            _mm512_storeu_ps(L + i + 16 * k, acc[k]);
            _mm512_storeu_ps(R + i + 16 * k, acc[4 + k]);
        }
    }
    if (tiles == n) return;
    for (int32_t j = 0; j < count; j++) {
        switch (kind[j]) {
#define MK_K(K_) \
    case K_: avx512_rest(&r[j], L, R, tiles, n, cubic, K_ >> 2, (K_ >> 1) & 1, K_ & 1); break;
            MK_K(0) MK_K(1) MK_K(2) MK_K(3) MK_K(4) MK_K(5) MK_K(6) MK_K(7)
#undef MK_K
        }
    }
}

static MK_AVX512 void mix_linear_avx512(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {
    mix_avx512_dispatch(s, L, R, n, 0);
}

static MK_AVX512 void mix_cubic_avx512(const mk_segment *s, float *L, float *R, int32_t n) MK_NONBLOCKING {
    mix_avx512_dispatch(s, L, R, n, 1);
}

static MK_AVX512 void batch_linear_avx512(const mk_segment *s, int32_t count, float *L, float *R, int32_t n)
    MK_NONBLOCKING {
    mix_batch_avx512(s, count, L, R, n, 0);
}

static MK_AVX512 void batch_cubic_avx512(const mk_segment *s, int32_t count, float *L, float *R, int32_t n)
    MK_NONBLOCKING {
    mix_batch_avx512(s, count, L, R, n, 1);
}

static MK_AVX512 void batch_sinc_avx512(const mk_segment *s, int32_t count, float *L, float *R, int32_t n)
    MK_NONBLOCKING {
    for (int32_t j = 0; j < count; j++) mix_sinc_avx512(&s[j], L, R, n);
}

// A voice's move between two pairs of planes (mk_mix_crossfade): each step
// of 16 frames from frame i is resampled once into registers and added to
// the planes it leaves weighted 1 - w and to those it enters weighted w,
// w = w0 + t * ws for frame t.
MK_INLINE MK_AVX512 void avx512_crossfade_step(avx512_run *r, float *FL, float *FR, float *TL, float *TR, int32_t i,
                                               __mmask16 m, __m512 w0, __m512 ws, const int cubic, const int gather,
                                               const int ramp, const int stereo) MK_NONBLOCKING {
    const __m512 iota = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 w = _mm512_fmadd_ps(_mm512_add_ps(iota, _mm512_set1_ps((float)i)), ws, w0);
    __m512 cl = _mm512_setzero_ps(), cr = _mm512_setzero_ps();
    avx512_add(r, &cl, &cr, i, m, cubic, gather, ramp, stereo, 1, 0);
    const __m512 u = _mm512_sub_ps(_mm512_set1_ps(1.0f), w);
    if (m == (__mmask16)0xFFFF) {
        _mm512_storeu_ps(FL + i, _mm512_fmadd_ps(cl, u, _mm512_loadu_ps(FL + i)));
        _mm512_storeu_ps(FR + i, _mm512_fmadd_ps(cr, u, _mm512_loadu_ps(FR + i)));
        _mm512_storeu_ps(TL + i, _mm512_fmadd_ps(cl, w, _mm512_loadu_ps(TL + i)));
        _mm512_storeu_ps(TR + i, _mm512_fmadd_ps(cr, w, _mm512_loadu_ps(TR + i)));
    } else {
        _mm512_mask_storeu_ps(FL + i, m, _mm512_fmadd_ps(cl, u, _mm512_maskz_loadu_ps(m, FL + i)));
        _mm512_mask_storeu_ps(FR + i, m, _mm512_fmadd_ps(cr, u, _mm512_maskz_loadu_ps(m, FR + i)));
        _mm512_mask_storeu_ps(TL + i, m, _mm512_fmadd_ps(cl, w, _mm512_maskz_loadu_ps(m, TL + i)));
        _mm512_mask_storeu_ps(TR + i, m, _mm512_fmadd_ps(cr, w, _mm512_maskz_loadu_ps(m, TR + i)));
    }
}

MK_INLINE MK_AVX512 void crossfade_avx512(const mk_segment *s, float *FL, float *FR, float *TL, float *TR, int32_t n,
                                          float w0, float ws, const int cubic, const int gather, const int ramp,
                                          const int stereo) MK_NONBLOCKING {
    avx512_run r = avx512_start(s, n);
    const __m512 vw0 = _mm512_set1_ps(w0), vws = _mm512_set1_ps(ws);
    const int32_t full = n & ~15;
    int32_t i = 0;
    for (; i < full; i += 16)
        avx512_crossfade_step(&r, FL, FR, TL, TR, i, (__mmask16)0xFFFF, vw0, vws, cubic, gather, ramp, stereo);
    if (i < n)
        avx512_crossfade_step(&r, FL, FR, TL, TR, i, (__mmask16)((1u << (n - i)) - 1), vw0, vws, cubic, gather, ramp,
                              stereo);
}

static MK_AVX512 void crossfade_avx512_dispatch(const mk_segment *s, float *FL, float *FR, float *TL, float *TR,
                                                int32_t n, float w0, float ws, const int cubic) MK_NONBLOCKING {
    const int kind = avx512_kind(s, cubic);
#define MK_V(C_, K_) \
    if (cubic == C_ && kind == K_) {                                                                          \
        crossfade_avx512(s, FL, FR, TL, TR, n, w0, ws, C_, K_ >> 2, (K_ >> 1) & 1, K_ & 1);                  \
        return;                                                                                               \
    }
    MK_V(0, 0) MK_V(0, 1) MK_V(0, 2) MK_V(0, 3) MK_V(0, 4) MK_V(0, 5) MK_V(0, 6) MK_V(0, 7)
    MK_V(1, 0) MK_V(1, 1) MK_V(1, 2) MK_V(1, 3) MK_V(1, 4) MK_V(1, 5) MK_V(1, 6) MK_V(1, 7)
#undef MK_V
}

static MK_AVX512 void crossfade_linear_avx512(const mk_segment *s, float *FL, float *FR, float *TL, float *TR,
                                              int32_t n, float w0, float ws) MK_NONBLOCKING {
    crossfade_avx512_dispatch(s, FL, FR, TL, TR, n, w0, ws, 0);
}

static MK_AVX512 void crossfade_cubic_avx512(const mk_segment *s, float *FL, float *FR, float *TL, float *TR,
                                             int32_t n, float w0, float ws) MK_NONBLOCKING {
    crossfade_avx512_dispatch(s, FL, FR, TL, TR, n, w0, ws, 1);
}
#endif

// MARK: - Low-pass filter

// Two cascaded one-pole low-pass stages per plane (a 2-pole filter with a
// real double pole, 12 dB per octave, no overshoot), in place:
//     s1 = a·x + p·s1,   s2 = a·s1 + p·s2,   y = s2,   a = 1 − p.
// The coefficient p is constant over each block of MK_LOWPASS_BLOCK frames
// (p0 + dp·b for the block starting at frame b), so that a ramp of the
// cutoff moves in small steps and every kernel set computes the same filter.
// The recursion is serial in time; the vector versions take a whole block at
// once as a prefix scan: w = a·x, then w[j] += p^k·w[j−k] for k = 1, 2, 4, 8
// (lanes shifted up with zeros), then y[j] = w[j] + p^(j+1)·y_prev, so the
// only dependency from block to block is one FMA and one broadcast.
enum { MK_LOWPASS_BLOCK = 16 };

MK_INLINE void lowpass_tail(float *x, int32_t from, int32_t n, float *s, float p) MK_NONBLOCKING {
    const float a = 1.0f - p;
    float s1 = s[0], s2 = s[1];
    for (int32_t i = from; i < n; i++) {
        s1 = a * x[i] + p * s1;
        s2 = a * s1 + p * s2;
        x[i] = s2;
    }
    s[0] = s1;
    s[1] = s2;
}

MK_INLINE void lowpass_body(float *L, float *R, int32_t n, float *state, float p0, float dp) MK_NONBLOCKING {
    for (int32_t b = 0; b < n; b += MK_LOWPASS_BLOCK) {
        const float p = p0 + dp * (float)b;
        const int32_t e = b + MK_LOWPASS_BLOCK < n ? b + MK_LOWPASS_BLOCK : n;
        lowpass_tail(L, b, e, state, p);
        if (R) lowpass_tail(R, b, e, state + 2, p);
    }
}

// The vector versions' loop, written once: blocks of 16 frames (one or two
// vectors of WIDTH lanes, one coefficient), both planes, two stages each,
// carries kept broadcast in vectors; the last partial block runs scalar.
#define MK_LOWPASS_DRIVER(VEC, SET1, FIRST, COEF, MAKE, STAGE, LOAD, STORE, WIDTH)                          \
    VEC c1 = SET1(state[0]), c2 = SET1(state[1]), d1 = SET1(state[2]), d2 = SET1(state[3]);                \
    const int32_t full = n & ~(MK_LOWPASS_BLOCK - 1);                                                      \
    COEF c = MAKE(p0);                                                                                      \
    for (int32_t b = 0; b < full; b += MK_LOWPASS_BLOCK) {                                                 \
        if (dp != 0) c = MAKE(p0 + dp * (float)b);                                                          \
        for (int32_t h = b; h < b + MK_LOWPASS_BLOCK; h += WIDTH) {                                        \
            STORE(L + h, STAGE(STAGE(LOAD(L + h), &c, &c1), &c, &c2));                                      \
            if (R) STORE(R + h, STAGE(STAGE(LOAD(R + h), &c, &d1), &c, &d2));                               \
        }                                                                                                   \
    }                                                                                                       \
    state[0] = FIRST(c1);                                                                                   \
    state[1] = FIRST(c2);                                                                                   \
    state[2] = FIRST(d1);                                                                                   \
    state[3] = FIRST(d2);                                                                                   \
    if (full < n) {                                                                                         \
        const float p = p0 + dp * (float)full;                                                              \
        lowpass_tail(L, full, n, state, p);                                                                 \
        if (R) lowpass_tail(R, full, n, state + 2, p);                                                      \
    }

static void lowpass_portable(float *L, float *R, int32_t n, float *state, float p0, float dp) MK_NONBLOCKING {
    lowpass_body(L, R, n, state, p0, dp);
}

#ifdef MK_HAVE_AVX2
// Eight lanes: a block of 16 is two vectors with the same coefficient.
typedef struct {
    __m256 a, p1, p2, p4, pw;  // p1/p2/p4 are zero in the lanes a shift fills
} lp_coef8;

MK_INLINE MK_AVX2 lp_coef8 lp_coef8_make(float p) MK_NONBLOCKING {
    const float q2 = p * p, q4 = q2 * q2;
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    __m256 pw = _mm256_set1_ps(p);  // p^(j+1), built from the bits of j
    pw = _mm256_mul_ps(pw, _mm256_blend_ps(one, _mm256_set1_ps(p), 0xAA));
    pw = _mm256_mul_ps(pw, _mm256_blend_ps(one, _mm256_set1_ps(q2), 0xCC));
    pw = _mm256_mul_ps(pw, _mm256_blend_ps(one, _mm256_set1_ps(q4), 0xF0));
    lp_coef8 c = {
        .a = _mm256_set1_ps(1.0f - p),
        .p1 = _mm256_blend_ps(zero, _mm256_set1_ps(p), 0xFE),
        .p2 = _mm256_blend_ps(zero, _mm256_set1_ps(q2), 0xFC),
        .p4 = _mm256_blend_ps(zero, _mm256_set1_ps(q4), 0xF0),
        .pw = pw,
    };
    return c;
}

// One stage over 8 lanes; `carry` holds the previous output in every lane.
MK_INLINE MK_AVX2 __m256 lp_stage8(__m256 x, const lp_coef8 *c, __m256 *carry) MK_NONBLOCKING {
    const __m256i s1 = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
    const __m256i s2 = _mm256_setr_epi32(0, 0, 0, 1, 2, 3, 4, 5);
    const __m256i s4 = _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 2, 3);
    __m256 w = _mm256_mul_ps(c->a, x);
    w = _mm256_fmadd_ps(c->p1, _mm256_permutevar8x32_ps(w, s1), w);
    w = _mm256_fmadd_ps(c->p2, _mm256_permutevar8x32_ps(w, s2), w);
    w = _mm256_fmadd_ps(c->p4, _mm256_permutevar8x32_ps(w, s4), w);
    w = _mm256_fmadd_ps(c->pw, *carry, w);
    *carry = _mm256_permutevar8x32_ps(w, _mm256_set1_epi32(7));
    return w;
}

static MK_AVX2 void lowpass_avx2(float *L, float *R, int32_t n, float *state, float p0, float dp) MK_NONBLOCKING {
    MK_LOWPASS_DRIVER(__m256, _mm256_set1_ps, _mm256_cvtss_f32, lp_coef8, lp_coef8_make, lp_stage8, _mm256_loadu_ps,
                      _mm256_storeu_ps, 8)
}
#endif

#ifdef MK_HAVE_AVX512
typedef struct {
    __m512 a, p1, p2, p4, p8, pw;
} lp_coef16;

MK_INLINE MK_AVX512 lp_coef16 lp_coef16_make(float p) MK_NONBLOCKING {
    const float q2 = p * p, q4 = q2 * q2, q8 = q4 * q4;
    __m512 pw = _mm512_set1_ps(p);  // p^(j+1), built from the bits of j
    pw = _mm512_mask_mul_ps(pw, (__mmask16)0xAAAA, pw, _mm512_set1_ps(p));
    pw = _mm512_mask_mul_ps(pw, (__mmask16)0xCCCC, pw, _mm512_set1_ps(q2));
    pw = _mm512_mask_mul_ps(pw, (__mmask16)0xF0F0, pw, _mm512_set1_ps(q4));
    pw = _mm512_mask_mul_ps(pw, (__mmask16)0xFF00, pw, _mm512_set1_ps(q8));
    lp_coef16 c = {
        .a = _mm512_set1_ps(1.0f - p), .p1 = _mm512_set1_ps(p), .p2 = _mm512_set1_ps(q2),
        .p4 = _mm512_set1_ps(q4), .p8 = _mm512_set1_ps(q8), .pw = pw,
    };
    return c;
}

// Lanes shifted up by K, zeros shifted in (valignd with a zero vector).
#define MK_SHIFT_UP(V, K) \
    _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(V), _mm512_setzero_si512(), 16 - (K)))

MK_INLINE MK_AVX512 __m512 lp_stage16(__m512 x, const lp_coef16 *c, __m512 *carry) MK_NONBLOCKING {
    __m512 w = _mm512_mul_ps(c->a, x);
    w = _mm512_fmadd_ps(c->p1, MK_SHIFT_UP(w, 1), w);
    w = _mm512_fmadd_ps(c->p2, MK_SHIFT_UP(w, 2), w);
    w = _mm512_fmadd_ps(c->p4, MK_SHIFT_UP(w, 4), w);
    w = _mm512_fmadd_ps(c->p8, MK_SHIFT_UP(w, 8), w);
    w = _mm512_fmadd_ps(c->pw, *carry, w);
    *carry = _mm512_permutexvar_ps(_mm512_set1_epi32(15), w);
    return w;
}
#undef MK_SHIFT_UP

static MK_AVX512 void lowpass_avx512(float *L, float *R, int32_t n, float *state, float p0, float dp)
    MK_NONBLOCKING {
    MK_LOWPASS_DRIVER(__m512, _mm512_set1_ps, _mm512_cvtss_f32, lp_coef16, lp_coef16_make, lp_stage16,
                      _mm512_loadu_ps, _mm512_storeu_ps, 16)
}
#endif

// MARK: - Batched low-pass: one voice per lane

// The same filter as above, but the recursion runs across voices: lane i of a
// vector carries voice i's two stage outputs, and one frame of 16 (AVX-512)
// or 8 (AVX2) voices costs two multiplies and two FMAs, independent of the
// others, so the latency of the chain is shared by all the lanes. The rows
// are turned into frame vectors by an in-register transpose of W×W tiles
// (W frames of W voices), filtered, transposed back, and either stored
// into their rows or, for fused lanes, multiplied by their pan gains and
// added straight into the bus (the pan-add pass never reads them again).
//
// Each lane keeps the scalar filter's coefficient schedule: before `start`
// the lane is frozen (p = 1, a = 0 holds the state exactly); from `start` the
// coefficient steps every 16 frames (p0 + dp·b, b the block's first frame
// relative to `start`) until `ramp_end`, then `hold`. A tile where no lane
// changes its coefficient inside it (the usual case: every voice starts at
// frame 0 and ramps over whole blocks) computes the coefficients once;
// otherwise they are computed per frame.

// The coefficient of lane `l` at frame `t`, as the scalar filter has it.
MK_INLINE float lp_lane_coef(const mk_lowpass_lane *l, int32_t t) MK_NONBLOCKING {
    return t < l->ramp_end ? l->coefficient + l->coefficient_step * (float)((t - l->start) & ~(MK_LOWPASS_BLOCK - 1))
                           : l->hold;
}

// Frames [from, to) of one lane, one at a time (the portable set, and the
// vector sets' last partial tile).
MK_INLINE void lp_lane_range(const mk_lowpass_lane *l, int32_t from, int32_t to, float *BL, float *BR)
    MK_NONBLOCKING {
    float s1 = l->state[0], s2 = l->state[1];
    float *x = l->row;
    if (from < l->start) from = l->start;
    for (int32_t t = from; t < to; t++) {
        const float p = lp_lane_coef(l, t), a = 1.0f - p;
        s1 = a * x[t] + p * s1;
        s2 = a * s1 + p * s2;
        if (l->fuse) {
            BL[t] += (l->gain[0] + l->gain_step[0] * (float)t) * s2;
            BR[t] += (l->gain[1] + l->gain_step[1] * (float)t) * s2;
        } else {
            x[t] = s2;
        }
    }
    l->state[0] = s1;
    l->state[1] = s2;
}

static void lowpass_batch_portable(const mk_lowpass_lane *lanes, int32_t count, int32_t frames, float *BL,
                                   float *BR) MK_NONBLOCKING {
    for (int32_t i = 0; i < count; i++) lp_lane_range(&lanes[i], 0, frames, BL, BR);
}

// The per-lane parameters of one group of W lanes, unpacked into arrays
// (lanes past `count` are frozen forever and read lane 0's row).
#define MK_LP_UNPACK(W)                                                                                     \
    float *rows[W];                                                                                         \
    int32_t st[W], re[W];                                                                                   \
    float p0[W], dp[W], ho[W], s1a[W], s2a[W];                                                              \
    float g0[2][W], gs[2][W];                                                                               \
    unsigned fused = 0, stored = 0, misaligned = 0, ramps = 0;                                              \
    for (int32_t i = 0; i < W; i++) {                                                                       \
        const int f = i < count && ln[i].fuse;                                                              \
        g0[0][i] = f ? ln[i].gain[0] : 0, g0[1][i] = f ? ln[i].gain[1] : 0;                                 \
        gs[0][i] = f ? ln[i].gain_step[0] : 0, gs[1][i] = f ? ln[i].gain_step[1] : 0;                       \
        ramps |= gs[0][i] != 0 || gs[1][i] != 0;                                                            \
        const mk_lowpass_lane *l = &ln[i < count ? i : 0];                                                  \
        rows[i] = l->row;                                                                                   \
        if (i < count) {                                                                                    \
            st[i] = l->start, re[i] = l->ramp_end, p0[i] = l->coefficient, dp[i] = l->coefficient_step;     \
            ho[i] = l->hold, s1a[i] = l->state[0], s2a[i] = l->state[1];                                    \
            if (l->fuse) fused |= 1u << i; else stored |= 1u << i;                                          \
            if ((l->start & (W - 1)) != 0 && l->coefficient_step != 0) misaligned |= 1u << i;              \
        } else {                                                                                            \
            st[i] = frames, re[i] = frames, p0[i] = 1, dp[i] = 0, ho[i] = 1, s1a[i] = 0, s2a[i] = 0;        \
        }                                                                                                   \
    }

#ifdef MK_HAVE_AVX2
MK_INLINE MK_AVX2 void lp_transpose8(__m256 r[8]) MK_NONBLOCKING {
    __m256 t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int h = 0; h < 2; h++) {
        u[4 * h + 0] = _mm256_shuffle_ps(t[4 * h + 0], t[4 * h + 2], 0x44);
        u[4 * h + 1] = _mm256_shuffle_ps(t[4 * h + 0], t[4 * h + 2], 0xEE);
        u[4 * h + 2] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0x44);
        u[4 * h + 3] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0xEE);
    }
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_permute2f128_ps(u[k], u[4 + k], 0x20);
        r[4 + k] = _mm256_permute2f128_ps(u[k], u[4 + k], 0x31);
    }
}

// Coefficient vector at frame vector `t` (see lp_lane_coef).
MK_INLINE MK_AVX2 __m256 lp_coef_at8(__m256i t, __m256i st, __m256i re, __m256 p0, __m256 dp, __m256 ho)
    MK_NONBLOCKING {
    const __m256i blk = _mm256_and_si256(_mm256_sub_epi32(t, st), _mm256_set1_epi32(~(MK_LOWPASS_BLOCK - 1)));
    const __m256 ramp = _mm256_add_ps(p0, _mm256_mul_ps(dp, _mm256_cvtepi32_ps(blk)));
    const __m256 before = _mm256_castsi256_ps(_mm256_cmpgt_epi32(st, t));
    const __m256 ramping = _mm256_castsi256_ps(_mm256_cmpgt_epi32(re, t));
    return _mm256_blendv_ps(_mm256_blendv_ps(ho, ramp, ramping), _mm256_set1_ps(1.0f), before);
}

static MK_AVX2 void lp_batch8_avx2(const mk_lowpass_lane *ln, int32_t count, int32_t frames, float *BL, float *BR)
    MK_NONBLOCKING {
    MK_LP_UNPACK(8)
    const __m256i vst = _mm256_loadu_si256((const __m256i *)st), vre = _mm256_loadu_si256((const __m256i *)re);
    const __m256 vp0 = _mm256_loadu_ps(p0), vdp = _mm256_loadu_ps(dp), vho = _mm256_loadu_ps(ho);
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    int32_t mis[8];
    for (int i = 0; i < 8; i++) mis[i] = (misaligned >> i) & 1 ? -1 : 0;
    const __m256i vmis = _mm256_loadu_si256((const __m256i *)mis);
    __m256 s1 = _mm256_loadu_ps(s1a), s2 = _mm256_loadu_ps(s2a);
    const int32_t full = frames & ~7;
    for (int32_t T = 0; T < full; T += 8) {
        __m256 x[8];
        for (int i = 0; i < 8; i++) x[i] = _mm256_loadu_ps(rows[i] + T);
        lp_transpose8(x);
        const __m256i vT = _mm256_set1_epi32(T), vE = _mm256_set1_epi32(T + 8);
        // Lanes whose coefficient changes strictly inside this tile.
        const __m256i inStart = _mm256_and_si256(_mm256_cmpgt_epi32(vst, vT), _mm256_cmpgt_epi32(vE, vst));
        const __m256i inEnd = _mm256_and_si256(_mm256_cmpgt_epi32(vre, vT), _mm256_cmpgt_epi32(vE, vre));
        const __m256i mis = _mm256_and_si256(vmis, _mm256_cmpgt_epi32(vre, vT));
        if (_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(inStart, inEnd), mis), _mm256_set1_epi32(-1))) {
            const __m256 P = lp_coef_at8(vT, vst, vre, vp0, vdp, vho), A = _mm256_sub_ps(one, P);
            for (int j = 0; j < 8; j++) {
                s1 = _mm256_fmadd_ps(P, s1, _mm256_mul_ps(A, x[j]));
                s2 = _mm256_fmadd_ps(P, s2, _mm256_mul_ps(A, s1));
                x[j] = s2;
            }
        } else {
            for (int j = 0; j < 8; j++) {
                const __m256 P = lp_coef_at8(_mm256_add_epi32(vT, _mm256_set1_epi32(j)), vst, vre, vp0, vdp, vho);
                const __m256 A = _mm256_sub_ps(one, P);
                s1 = _mm256_fmadd_ps(P, s1, _mm256_mul_ps(A, x[j]));
                s2 = _mm256_fmadd_ps(P, s2, _mm256_mul_ps(A, s1));
                x[j] = s2;
            }
        }
        lp_transpose8(x);
        for (int i = 0; i < 8; i++) {
            if (!((stored >> i) & 1)) continue;
            if (st[i] <= T) {
                _mm256_storeu_ps(rows[i] + T, x[i]);
            } else if (st[i] < T + 8) {  // frames before the start stay as they were
                const __m256i keep = _mm256_cmpgt_epi32(_mm256_set1_epi32(st[i] - T), iota);
                _mm256_storeu_ps(rows[i] + T, _mm256_blendv_ps(x[i], _mm256_loadu_ps(rows[i] + T), _mm256_castsi256_ps(keep)));
            }
        }
        if (fused) {
            // As in the AVX-512 kernel: all lanes unrolled (gain 0 where a
            // lane does not fuse), partial sums, no per-frame gain when no
            // lane ramps.
            const __m256 tv = _mm256_cvtepi32_ps(_mm256_add_epi32(vT, iota));
            __m256 accL[2] = {_mm256_loadu_ps(BL + T), _mm256_setzero_ps()};
            __m256 accR[2] = {_mm256_loadu_ps(BR + T), _mm256_setzero_ps()};
#pragma clang loop unroll(full)
            for (int i = 0; i < 8; i++) {
                __m256 gl = _mm256_set1_ps(g0[0][i]), gr = _mm256_set1_ps(g0[1][i]);
                if (ramps) {
                    gl = _mm256_fmadd_ps(tv, _mm256_set1_ps(gs[0][i]), gl);
                    gr = _mm256_fmadd_ps(tv, _mm256_set1_ps(gs[1][i]), gr);
                }
                accL[i & 1] = _mm256_fmadd_ps(gl, x[i], accL[i & 1]);
                accR[i & 1] = _mm256_fmadd_ps(gr, x[i], accR[i & 1]);
            }
            _mm256_storeu_ps(BL + T, _mm256_add_ps(accL[0], accL[1]));
            _mm256_storeu_ps(BR + T, _mm256_add_ps(accR[0], accR[1]));
        }
    }
    _mm256_storeu_ps(s1a, s1);
    _mm256_storeu_ps(s2a, s2);
    for (int32_t i = 0; i < count; i++) {
        ln[i].state[0] = s1a[i];
        ln[i].state[1] = s2a[i];
        if (full < frames) lp_lane_range(&ln[i], full, frames, BL, BR);
    }
}

static MK_AVX2 void lowpass_batch_avx2(const mk_lowpass_lane *lanes, int32_t count, int32_t frames, float *BL,
                                       float *BR) MK_NONBLOCKING {
    for (int32_t g = 0; g < count; g += 8) lp_batch8_avx2(lanes + g, count - g < 8 ? count - g : 8, frames, BL, BR);
}
#endif

#ifdef MK_HAVE_AVX512
// In-register transpose of 16 rows of 16 floats (an involution).
MK_INLINE MK_AVX512 void lp_transpose16(__m512 r[16]) MK_NONBLOCKING {
    __m512 t[16];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++) {
        const __m512d a = _mm512_castps_pd(t[4 * i]), b = _mm512_castps_pd(t[4 * i + 1]);
        const __m512d c = _mm512_castps_pd(t[4 * i + 2]), d = _mm512_castps_pd(t[4 * i + 3]);
        r[4 * i + 0] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
        r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
        r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
        r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
    }
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 4; k++) {
            t[8 * i + k] = _mm512_shuffle_f32x4(r[8 * i + k], r[8 * i + 4 + k], 0x88);
            t[8 * i + 4 + k] = _mm512_shuffle_f32x4(r[8 * i + k], r[8 * i + 4 + k], 0xDD);
        }
    }
    for (int k = 0; k < 8; k++) {
        r[k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0x88);
        r[8 + k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0xDD);
    }
}

MK_INLINE MK_AVX512 __m512 lp_coef_at16(__m512i t, __m512i st, __m512i re, __m512 p0, __m512 dp, __m512 ho)
    MK_NONBLOCKING {
    const __m512i blk = _mm512_and_si512(_mm512_sub_epi32(t, st), _mm512_set1_epi32(~(MK_LOWPASS_BLOCK - 1)));
    const __m512 ramp = _mm512_add_ps(p0, _mm512_mul_ps(dp, _mm512_cvtepi32_ps(blk)));
    const __m512 held = _mm512_mask_blend_ps(_mm512_cmpgt_epi32_mask(re, t), ho, ramp);
    return _mm512_mask_blend_ps(_mm512_cmpgt_epi32_mask(st, t), held, _mm512_set1_ps(1.0f));
}

static MK_AVX512 void lp_batch16_avx512(const mk_lowpass_lane *ln, int32_t count, int32_t frames, float *BL,
                                        float *BR) MK_NONBLOCKING {
    MK_LP_UNPACK(16)
    const __m512i vst = _mm512_loadu_si512(st), vre = _mm512_loadu_si512(re);
    const __m512 vp0 = _mm512_loadu_ps(p0), vdp = _mm512_loadu_ps(dp), vho = _mm512_loadu_ps(ho);
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512 s1 = _mm512_loadu_ps(s1a), s2 = _mm512_loadu_ps(s2a);
    const int32_t full = frames & ~15;
    for (int32_t T = 0; T < full; T += 16) {
        __m512 x[16];
        for (int i = 0; i < 16; i++) x[i] = _mm512_loadu_ps(rows[i] + T);
        lp_transpose16(x);
        const __m512i vT = _mm512_set1_epi32(T), vE = _mm512_set1_epi32(T + 16);
        // Lanes whose coefficient changes strictly inside this tile.
        const __mmask16 inside = (_mm512_cmpgt_epi32_mask(vst, vT) & _mm512_cmpgt_epi32_mask(vE, vst)) |
                                 (_mm512_cmpgt_epi32_mask(vre, vT) & _mm512_cmpgt_epi32_mask(vE, vre)) |
                                 ((__mmask16)misaligned & _mm512_cmpgt_epi32_mask(vre, vT));
        if (!inside) {
            const __m512 P = lp_coef_at16(vT, vst, vre, vp0, vdp, vho), A = _mm512_sub_ps(one, P);
            for (int j = 0; j < 16; j++) {
                s1 = _mm512_fmadd_ps(P, s1, _mm512_mul_ps(A, x[j]));
                s2 = _mm512_fmadd_ps(P, s2, _mm512_mul_ps(A, s1));
                x[j] = s2;
            }
        } else {
            for (int j = 0; j < 16; j++) {
                const __m512 P = lp_coef_at16(_mm512_add_epi32(vT, _mm512_set1_epi32(j)), vst, vre, vp0, vdp, vho);
                const __m512 A = _mm512_sub_ps(one, P);
                s1 = _mm512_fmadd_ps(P, s1, _mm512_mul_ps(A, x[j]));
                s2 = _mm512_fmadd_ps(P, s2, _mm512_mul_ps(A, s1));
                x[j] = s2;
            }
        }
        lp_transpose16(x);
        for (unsigned bits = stored; bits; bits &= bits - 1) {
            const int i = __builtin_ctz(bits);
            if (st[i] <= T) {
                _mm512_storeu_ps(rows[i] + T, x[i]);
            } else if (st[i] < T + 16) {  // frames before the start stay as they were
                _mm512_mask_storeu_ps(rows[i] + T, (__mmask16)(0xFFFFu << (st[i] - T)), x[i]);
            }
        }
        if (fused) {
            // Every lane, unrolled (a lane that does not fuse has gain 0),
            // into four partial sums per side so the adds do not queue.
            const __m512 tv = _mm512_cvtepi32_ps(_mm512_add_epi32(vT, iota));
            __m512 accL[4] = {_mm512_loadu_ps(BL + T), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
            __m512 accR[4] = {_mm512_loadu_ps(BR + T), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
            if (ramps) {
#pragma clang loop unroll(full)
                for (int i = 0; i < 16; i++) {
                    const __m512 gl = _mm512_fmadd_ps(tv, _mm512_set1_ps(gs[0][i]), _mm512_set1_ps(g0[0][i]));
                    const __m512 gr = _mm512_fmadd_ps(tv, _mm512_set1_ps(gs[1][i]), _mm512_set1_ps(g0[1][i]));
                    accL[i & 3] = _mm512_fmadd_ps(gl, x[i], accL[i & 3]);
                    accR[i & 3] = _mm512_fmadd_ps(gr, x[i], accR[i & 3]);
                }
            } else {  // constant gains: broadcast operands, no per-frame gain
#pragma clang loop unroll(full)
                for (int i = 0; i < 16; i++) {
                    accL[i & 3] = _mm512_fmadd_ps(_mm512_set1_ps(g0[0][i]), x[i], accL[i & 3]);
                    accR[i & 3] = _mm512_fmadd_ps(_mm512_set1_ps(g0[1][i]), x[i], accR[i & 3]);
                }
            }
            _mm512_storeu_ps(BL + T, _mm512_add_ps(_mm512_add_ps(accL[0], accL[1]), _mm512_add_ps(accL[2], accL[3])));
            _mm512_storeu_ps(BR + T, _mm512_add_ps(_mm512_add_ps(accR[0], accR[1]), _mm512_add_ps(accR[2], accR[3])));
        }
    }
    _mm512_storeu_ps(s1a, s1);
    _mm512_storeu_ps(s2a, s2);
    for (int32_t i = 0; i < count; i++) {
        ln[i].state[0] = s1a[i];
        ln[i].state[1] = s2a[i];
        if (full < frames) lp_lane_range(&ln[i], full, frames, BL, BR);
    }
}

static MK_AVX512 void lowpass_batch_avx512(const mk_lowpass_lane *lanes, int32_t count, int32_t frames, float *BL,
                                           float *BR) MK_NONBLOCKING {
    for (int32_t g = 0; g < count; g += 16)
        lp_batch16_avx512(lanes + g, count - g < 16 ? count - g : 16, frames, BL, BR);
}
#endif
#undef MK_LP_UNPACK

// MARK: - Tables and dispatch

// The portable and AVX2+FMA sets mix a batch segment by segment.
#define MK_BATCH_LOOP(INTERP, SUFFIX, ATTR)                                                                  \
    static ATTR void batch_##INTERP##_##SUFFIX(const mk_segment *s, int32_t count, float *L, float *R,       \
                                               int32_t n) MK_NONBLOCKING {                                  \
        for (int32_t j = 0; j < count; j++) mix_##INTERP##_##SUFFIX(&s[j], L, R, n);                        \
    }
MK_BATCH_LOOP(linear, portable, )
MK_BATCH_LOOP(cubic, portable, )
MK_BATCH_LOOP(sinc, portable, )
#ifdef MK_HAVE_AVX2
MK_BATCH_LOOP(linear, avx2, MK_AVX2)
MK_BATCH_LOOP(cubic, avx2, MK_AVX2)
MK_BATCH_LOOP(sinc, avx2, MK_AVX2)
#endif
#undef MK_BATCH_LOOP

typedef void (*mk_batch_fn)(const mk_segment *, int32_t, float *, float *, int32_t) MK_NONBLOCKING;
typedef void (*mk_crossfade_fn)(const mk_segment *, float *, float *, float *, float *, int32_t, float,
                                float) MK_NONBLOCKING;

struct mk_kernel_table {
    const char *name;
    mk_mix_fn mix[3];
    mk_batch_fn mix_batch[3];
    void (*clear)(float *, float *, int32_t) MK_NONBLOCKING;
    void (*accumulate)(const float *, const float *, float *, float *, float, float, int32_t) MK_NONBLOCKING;
    void (*scale)(float *, float *, float, float, int32_t) MK_NONBLOCKING;
    void (*measure)(const float *, const float *, int32_t, float *, double *) MK_NONBLOCKING;
    void (*clip)(float *, float *, int32_t) MK_NONBLOCKING;
    void (*write_f32)(const float *, const float *, float *, int32_t, int32_t) MK_NONBLOCKING;
    void (*write_s16)(const float *, const float *, int16_t *, int32_t, int32_t) MK_NONBLOCKING;
    void (*lowpass)(float *, float *, int32_t, float *, float, float) MK_NONBLOCKING;
    void (*lowpass_batch)(const mk_lowpass_lane *, int32_t, int32_t, float *, float *) MK_NONBLOCKING;
    /// A dedicated crossfade per interpolation, or NULL: mk_mix_crossfade
    /// then mixes through a buffer with `mix`.
    mk_crossfade_fn crossfade[3];
};

#define MK_TABLE(SUFFIX, NAME)                                                                     \
    {NAME,           {mix_linear_##SUFFIX, mix_cubic_##SUFFIX, mix_sinc_##SUFFIX},               \
     {batch_linear_##SUFFIX, batch_cubic_##SUFFIX, batch_sinc_##SUFFIX},                           \
     clear_##SUFFIX, accumulate_##SUFFIX,                                                          \
     scale_##SUFFIX, measure_##SUFFIX,                                                             \
     clip_##SUFFIX,  write_f32_##SUFFIX,                                                           \
     write_s16_##SUFFIX, lowpass_##SUFFIX, lowpass_batch_##SUFFIX, CROSSFADE}

#define CROSSFADE {NULL, NULL, NULL}
static const mk_kernel_table portable_table = MK_TABLE(portable, "portable");
#ifdef MK_HAVE_AVX2
static const mk_kernel_table avx2_table = MK_TABLE(avx2, "avx2+fma");
#endif
#undef CROSSFADE
#ifdef MK_HAVE_AVX512
#define CROSSFADE {crossfade_linear_avx512, crossfade_cubic_avx512, NULL}
static const mk_kernel_table avx512_table = MK_TABLE(avx512, "avx512");
#undef CROSSFADE
#endif

int mk_kernels_supported(mk_kernel_choice choice) {
    switch (choice) {
    case MK_KERNELS_AUTOMATIC:
    case MK_KERNELS_PORTABLE:
        return 1;
    case MK_KERNELS_AVX2:
#ifdef MK_HAVE_AVX2
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
        return 0;
#endif
    case MK_KERNELS_AVX512:
#ifdef MK_HAVE_AVX512
        // The runtime's CPU model sets these only when the OS saves the
        // AVX-512 state (XCR0), so a kernel that hides it is not chosen.
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
        return 0;
#endif
    }
    return 0;
}

const mk_kernel_table *mk_select_kernels(mk_kernel_choice choice) {
    if (!mk_kernels_supported(choice)) return NULL;
    pthread_once(&sinc_once, build_sinc_table);
    switch (choice) {
    case MK_KERNELS_PORTABLE:
        return &portable_table;
#ifdef MK_HAVE_AVX512
    case MK_KERNELS_AVX512:
        return &avx512_table;
#endif
#ifdef MK_HAVE_AVX2
    case MK_KERNELS_AVX2:
        return &avx2_table;
#endif
    default:
        break;
    }
#ifdef MK_HAVE_AVX512
    if (mk_kernels_supported(MK_KERNELS_AVX512)) return &avx512_table;
#endif
#ifdef MK_HAVE_AVX2
    if (mk_kernels_supported(MK_KERNELS_AVX2)) return &avx2_table;
#endif
    return &portable_table;
}

const char *mk_kernel_name(const mk_kernel_table *table) { return table->name; }

void mk_mix(const mk_kernel_table *t, mk_interpolation interpolation, const mk_segment *segment, float *out_left,
            float *out_right, int32_t frames) MK_NONBLOCKING {
    t->mix[(unsigned)interpolation <= MK_SINC ? interpolation : MK_LINEAR](segment, out_left, out_right, frames);
}

// The crossfade of a set without a dedicated one: the segment mixed in
// chunks into a zeroed buffer on the stack, each chunk then added to both
// pairs of planes with its weights.
enum { CROSSFADE_CHUNK = 128 };

static void crossfade_buffered(mk_mix_fn mix, const mk_segment *segment, float *FL, float *FR, float *TL, float *TR,
                               int32_t n, float w0, float ws) MK_NONBLOCKING {
    float bl[CROSSFADE_CHUNK], br[CROSSFADE_CHUNK];
    mk_segment s = *segment;
    for (int32_t done = 0; done < n;) {
        const int32_t c = n - done < CROSSFADE_CHUNK ? n - done : CROSSFADE_CHUNK;
        for (int32_t i = 0; i < c; i++) bl[i] = br[i] = 0;
        // The chunk's gains from the segment's, as one call would reach them.
        s.gain[0] = segment->gain[0] + segment->gain_step[0] * (float)done;
        s.gain[1] = segment->gain[1] + segment->gain_step[1] * (float)done;
        mix(&s, bl, br, c);
        for (int32_t i = 0; i < c; i++) {
            const float w = w0 + ws * (float)(done + i), u = 1.0f - w;
            FL[done + i] += bl[i] * u;
            FR[done + i] += br[i] * u;
            TL[done + i] += bl[i] * w;
            TR[done + i] += br[i] * w;
        }
        // On to the next chunk: the integer part of the position moves the
        // source pointers, the fraction stays below 1.
        const uint64_t at = s.position + (uint64_t)c * s.step;
        const uint64_t whole = at >> 32;
        s.source[0] += whole;
        if (s.source[1]) s.source[1] += whole;
        s.position = at & 0xFFFFFFFFu;
        s.prefetch[0] = s.prefetch[1] = NULL;
        done += c;
    }
}

void mk_mix_crossfade(const mk_kernel_table *t, mk_interpolation interpolation, const mk_segment *segment,
                      float *from_left, float *from_right, float *to_left, float *to_right, int32_t frames,
                      float weight, float weight_step) MK_NONBLOCKING {
    const unsigned k = (unsigned)interpolation <= MK_SINC ? interpolation : MK_LINEAR;
    if (t->crossfade[k]) {
        t->crossfade[k](segment, from_left, from_right, to_left, to_right, frames, weight, weight_step);
    } else {
        crossfade_buffered(t->mix[k], segment, from_left, from_right, to_left, to_right, frames, weight, weight_step);
    }
}

void mk_mix_batch(const mk_kernel_table *t, mk_interpolation interpolation, const mk_segment *segments,
                  int32_t count, float *out_left, float *out_right, int32_t frames) MK_NONBLOCKING {
    if (count <= 0) return;
    if (count > MK_BATCH_MAX) count = MK_BATCH_MAX;
    t->mix_batch[(unsigned)interpolation <= MK_SINC ? interpolation : MK_LINEAR](segments, count, out_left, out_right,
                                                                                frames);
}

void mk_clear(const mk_kernel_table *t, float *left, float *right, int32_t frames) MK_NONBLOCKING {
    t->clear(left, right, frames);
}

void mk_accumulate_ramped(const mk_kernel_table *t, const float *src_left, const float *src_right, float *dst_left,
                          float *dst_right, float gain, float gain_step, int32_t frames) MK_NONBLOCKING {
    t->accumulate(src_left, src_right, dst_left, dst_right, gain, gain_step, frames);
}

void mk_scale_ramped(const mk_kernel_table *t, float *left, float *right, float gain, float gain_step,
                     int32_t frames) MK_NONBLOCKING {
    t->scale(left, right, gain, gain_step, frames);
}

void mk_measure(const mk_kernel_table *t, const float *left, const float *right, int32_t frames, float *peak,
                double *sum_squares) MK_NONBLOCKING {
    t->measure(left, right, frames, peak, sum_squares);
}

void mk_soft_clip(const mk_kernel_table *t, float *left, float *right, int32_t frames) MK_NONBLOCKING {
    t->clip(left, right, frames);
}

void mk_write_float32(const mk_kernel_table *t, const float *left, const float *right, float *dst, int32_t frames,
                      int32_t channels) MK_NONBLOCKING {
    t->write_f32(left, right, dst, frames, channels);
}

void mk_write_int16(const mk_kernel_table *t, const float *left, const float *right, int16_t *dst, int32_t frames,
                    int32_t channels) MK_NONBLOCKING {
    t->write_s16(left, right, dst, frames, channels);
}

void mk_write_planes_float32(const float *base, int32_t stride, int32_t planes, float *dst, int32_t frames,
                             int32_t channels) MK_NONBLOCKING {
    for (int32_t i = 0; i < frames; i++) {
        float *f = dst + (ptrdiff_t)i * channels;
        int32_t c = 0;
        for (; c < planes && c < channels; c++) f[c] = base[(ptrdiff_t)c * stride + i];
        for (; c < channels; c++) f[c] = 0;
    }
}

void mk_write_planes_int16(const float *base, int32_t stride, int32_t planes, int16_t *dst, int32_t frames,
                           int32_t channels) MK_NONBLOCKING {
    for (int32_t i = 0; i < frames; i++) {
        int16_t *f = dst + (ptrdiff_t)i * channels;
        int32_t c = 0;
        for (; c < planes && c < channels; c++) f[c] = to_s16(base[(ptrdiff_t)c * stride + i]);
        for (; c < channels; c++) f[c] = 0;
    }
}

void mk_lowpass(const mk_kernel_table *t, float *left, float *right, int32_t frames, float *state, float coefficient,
                float coefficient_step) MK_NONBLOCKING {
    t->lowpass(left, right, frames, state, coefficient, coefficient_step);
}

void mk_lowpass_batch(const mk_kernel_table *t, const mk_lowpass_lane *lanes, int32_t count, int32_t frames,
                      float *bus_left, float *bus_right) MK_NONBLOCKING {
    t->lowpass_batch(lanes, count, frames, bus_left, bus_right);
}

void mk_zero_bytes(void *dst, int64_t bytes) MK_NONBLOCKING {
    unsigned char *d = dst;
    for (int64_t i = 0; i < bytes; i++) d[i] = 0;
}
