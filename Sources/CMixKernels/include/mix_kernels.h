// The mixer's inner loops: resampling mix kernels, bus gain ramps, metering and
// output conversion. Kernels only; everything else of the mixer is Swift
// (docs/mixer.md, "Kernels and CPU dispatch").
//
// Each kernel exists in one portable C version and, on x86-64, in an
// AVX2+FMA and an AVX-512 version, each compiled with a function-level
// `target` attribute (no global -m flag). A table
// of function pointers is chosen once, when a mixer is created
// (`mk_select_kernels`), from what the CPU reports (`__builtin_cpu_supports`),
// so the same binary runs on any x86-64 and compiles on other architectures.
//
// Every kernel and every function pointer type is `nonblocking`: clang's
// -Wfunction-effects (made an error by a pragma in mix_kernels.c) proves none of them can
// allocate, lock or call anything that might. The Swift render path calls
// them through the `mk_*` entry points below, which take the table as their
// first argument.
#ifndef SOUNDENGINE_MIX_KERNELS_H
#define SOUNDENGINE_MIX_KERNELS_H

#include <stdint.h>

#if defined(__has_attribute)
#if __has_attribute(nonblocking)
#define MK_NONBLOCKING __attribute__((nonblocking))
#endif
#endif
#ifndef MK_NONBLOCKING
#define MK_NONBLOCKING
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Readable floats every source plane must have before its first and after its
/// last frame. The kernels read up to this many samples past a segment's last
/// interpolation position (vector loads, 16-tap sinc) and 8 before it.
#define MK_GUARD_FRAMES 32

/// Interpolation between source samples.
typedef enum mk_interpolation {
    /// Two-point linear interpolation.
    MK_LINEAR = 0,
    /// Four-point cubic (Catmull-Rom) interpolation.
    MK_CUBIC = 1,
    /// 16-tap Kaiser-windowed sinc, 256 interpolated phases.
    MK_SINC = 2,
} mk_interpolation;

/// One run of output frames of one voice, with nothing changing but the
/// position and two linear gain ramps.
typedef struct mk_segment {
    /// Source planes. `source[1] == NULL`: mono, mixed into both outputs with
    /// `gain[0]` and `gain[1]`; otherwise plane 0 goes to the left output with
    /// `gain[0]` and plane 1 to the right with `gain[1]`. Each pointer is the
    /// sample at integer position 0 of this segment; at least
    /// `MK_GUARD_FRAMES` samples before it and after the last position
    /// reached must be readable.
    const float *source[2];
    /// Read position of the first output frame, 32.32 fixed point, relative
    /// to `source` (normally just a fraction below 1.0).
    uint64_t position;
    /// Source frames advanced per output frame, 32.32 fixed point (> 0).
    uint64_t step;
    /// Left and right gains at the first output frame.
    float gain[2];
    /// Added to each gain after every output frame (a linear ramp).
    float gain_step[2];
    /// Samples another voice will read next (or NULL): the kernel spreads
    /// cache prefetches for about `frames` samples from each over its loop,
    /// so memory requests overlap with this segment's arithmetic.
    const float *prefetch[2];
} mk_segment;

/// A mix kernel: adds `frames` resampled frames of `segment` into the
/// left/right accumulators. For a mono segment `out_right` may be NULL:
/// only `out_left` is written, with `gain[0]` (the batched low-pass's rows).
typedef void (*mk_mix_fn)(const mk_segment *segment, float *out_left, float *out_right, int32_t frames) MK_NONBLOCKING;

/// One CPU's set of kernels. Opaque to Swift; pass it back to the entry points.
typedef struct mk_kernel_table mk_kernel_table;

/// Which kernels to use.
typedef enum mk_kernel_choice {
    /// The fastest set this CPU supports.
    MK_KERNELS_AUTOMATIC = 0,
    /// The portable C set, whatever the CPU.
    MK_KERNELS_PORTABLE = 1,
    /// The AVX2+FMA set (x86-64 with AVX2 and FMA).
    MK_KERNELS_AVX2 = 2,
    /// The AVX-512 set (x86-64 with AVX-512 F, VL, BW and DQ, and AVX2+FMA).
    MK_KERNELS_AVX512 = 3,
} mk_kernel_choice;

/// 1 if this CPU (and this build) can run `choice`, else 0. Thread-safe.
int mk_kernels_supported(mk_kernel_choice choice);

/// Returns the kernel table for `choice`, NULL if `mk_kernels_supported` says
/// it cannot run here, and builds the shared sinc table on first use.
/// Automatic picks AVX-512, else AVX2+FMA, else portable. Thread-safe; call
/// on a control thread.
const mk_kernel_table *mk_select_kernels(mk_kernel_choice choice);

/// Name of a table's instruction set: "avx512", "avx2+fma" or "portable".
const char *mk_kernel_name(const mk_kernel_table *table);

/// Adds one resampled segment into `out_left`/`out_right` (accumulates).
void mk_mix(const mk_kernel_table *table, mk_interpolation interpolation, const mk_segment *segment,
            float *out_left, float *out_right, int32_t frames) MK_NONBLOCKING;

/// A voice's move from one pair of planes to another, crossfaded: adds
/// `frames` resampled frames of `segment` (both outputs, as `mk_mix` with
/// two planes) into `to_left`/`to_right` weighted `w(t) = weight + t ·
/// weight_step` and into `from_left`/`from_right` weighted `1 - w(t)`,
/// frame `t` from 0. The segment is resampled once: the AVX-512 set keeps
/// each step in registers for all four planes; the others mix it in chunks
/// into a buffer on the stack first. The four planes must not overlap.
void mk_mix_crossfade(const mk_kernel_table *table, mk_interpolation interpolation, const mk_segment *segment,
                      float *from_left, float *from_right, float *to_left, float *to_right, int32_t frames,
                      float weight, float weight_step) MK_NONBLOCKING;

/// Most segments one `mk_mix_batch` call takes.
#define MK_BATCH_MAX 8
/// Adds `count` (1…`MK_BATCH_MAX`; more are ignored) segments, each
/// `frames` long, into the same `out_left`/`out_right` (both non-NULL). The
/// result is exactly that of `mk_mix` for each segment in order: per sample
/// the same operations in the same order. The AVX-512 set keeps the sums of
/// 64 frames in registers while every segment adds to them, so the planes
/// are loaded and stored once per 64 frames, not once per segment; the
/// other sets mix the segments one after another.
void mk_mix_batch(const mk_kernel_table *table, mk_interpolation interpolation, const mk_segment *segments,
                  int32_t count, float *out_left, float *out_right, int32_t frames) MK_NONBLOCKING;
/// Sets `frames` samples of each plane to zero.
void mk_clear(const mk_kernel_table *table, float *left, float *right, int32_t frames) MK_NONBLOCKING;

/// `dst += src * g(t)` for both planes, `g(t) = gain + t * gain_step`.
void mk_accumulate_ramped(const mk_kernel_table *table, const float *src_left, const float *src_right,
                          float *dst_left, float *dst_right, float gain, float gain_step,
                          int32_t frames) MK_NONBLOCKING;

/// `x *= g(t)` in place for both planes, `g(t) = gain + t * gain_step`.
void mk_scale_ramped(const mk_kernel_table *table, float *left, float *right, float gain, float gain_step,
                     int32_t frames) MK_NONBLOCKING;

/// Largest absolute sample of both planes, and the sum of squares of all
/// `2 * frames` samples, accumulated into `*peak` (max) and `*sum_squares` (+=).
/// The sum runs in 16 float lanes in a fixed order, so every kernel set gives
/// the same figure, bit for bit.
void mk_measure(const mk_kernel_table *table, const float *left, const float *right, int32_t frames,
                float *peak, double *sum_squares) MK_NONBLOCKING;

/// Soft clip in place: identity below |x| = 0.75, then a rational knee
/// `0.75 + 0.25 · u / (1 + u)` with `u = (|x| - 0.75) / 0.25` (slope 1 at the
/// knee, no transcendental call) that approaches ±1 and never exceeds it.
void mk_soft_clip(const mk_kernel_table *table, float *left, float *right, int32_t frames) MK_NONBLOCKING;

/// Writes `frames` interleaved frames of `channels` float32 samples to `dst`:
/// 1 channel = (L + R) / 2; 2 = L, R; more = L, R, then zeros.
void mk_write_float32(const mk_kernel_table *table, const float *left, const float *right, float *dst,
                      int32_t frames, int32_t channels) MK_NONBLOCKING;

/// Like `mk_write_float32` but int16: clamped to [-1, 1], scaled by 32767,
/// rounded to nearest.
void mk_write_int16(const mk_kernel_table *table, const float *left, const float *right, int16_t *dst,
                    int32_t frames, int32_t channels) MK_NONBLOCKING;

/// Writes `frames` interleaved frames of `channels` float32 samples to `dst`
/// from `planes` planes (plane k at `base + k * stride`): channel k < `planes`
/// is plane k, the channels after them are zeros. For a surround mix, whose
/// planes are the output's channels in order (docs/mixer.md, "Surround").
void mk_write_planes_float32(const float *base, int32_t stride, int32_t planes, float *dst, int32_t frames,
                             int32_t channels) MK_NONBLOCKING;

/// Like `mk_write_planes_float32` but int16, converted as `mk_write_int16` does.
void mk_write_planes_int16(const float *base, int32_t stride, int32_t planes, int16_t *dst, int32_t frames,
                           int32_t channels) MK_NONBLOCKING;

/// Low-pass filters both planes in place: two cascaded one-pole stages per
/// plane (`s1 = a·x + p·s1`, `s2 = a·s1 + p·s2`, output `s2`, `a = 1 − p`;
/// a 2-pole low-pass with a real double pole, −12 dB per octave). `state`
/// holds the four stage outputs carried between calls (left s1, s2, right
/// s1, s2). The coefficient is constant over each block of 16 frames:
/// `coefficient + coefficient_step · b` for the block starting at frame `b`
/// (a ramp moves in steps of 16 frames, the same in every kernel set).
/// `p = 0` passes the signal through unchanged. `right` may be NULL: one
/// plane (a mono source filtered before its pan), with state s1, s2.
void mk_lowpass(const mk_kernel_table *table, float *left, float *right, int32_t frames, float *state,
                float coefficient, float coefficient_step) MK_NONBLOCKING;

/// One voice of a batched low-pass (`mk_lowpass_batch`): a mono row of
/// `frames` samples filtered like `mk_lowpass(row + start, NULL, ramp_end -
/// start, state, coefficient, coefficient_step)` followed by `mk_lowpass(row +
/// ramp_end, NULL, frames - ramp_end, state, hold, 0)`. Frames before `start`
/// are neither read into the filter nor written; the state is held there.
typedef struct mk_lowpass_lane {
    /// The pre-filter signal, `frames` samples (readable from frame 0).
    float *row;
    /// The two stage outputs carried between calls (s1, s2).
    float *state;
    /// First frame filtered (0 ≤ start ≤ frames).
    int32_t start;
    /// The coefficient ramps (16-frame steps from `start`) up to this frame,
    /// then is `hold` (start ≤ ramp_end ≤ frames).
    int32_t ramp_end;
    float coefficient;
    float coefficient_step;
    float hold;
    /// 1: instead of writing the filtered row back, add it to the bus planes
    /// with `gain[c] + gain_step[c] · t` at frame t (requires `start == 0`);
    /// 0: write the filtered samples back into `row` (frames start..<frames).
    int32_t fuse;
    float gain[2];
    float gain_step[2];
} mk_lowpass_lane;

/// Filters `count` voices at once (any count; 16 lanes at a time with
/// AVX-512, 8 with AVX2, one by one in the portable set): the serial
/// recursion runs across voices instead of along time. Fused lanes are
/// added into `bus_left`/`bus_right` (`frames` samples each; may be NULL
/// when no lane fuses). Same filter as `mk_lowpass`, within float rounding.
void mk_lowpass_batch(const mk_kernel_table *table, const mk_lowpass_lane *lanes, int32_t count, int32_t frames,
                      float *bus_left, float *bus_right) MK_NONBLOCKING;

/// Sets `bytes` bytes at `dst` to zero.
void mk_zero_bytes(void *dst, int64_t bytes) MK_NONBLOCKING;


#ifdef __cplusplus
}
#endif

#include "mk_fpu.h"
#include "mk_wait.h"
#include "mk_clock.h"

#endif
