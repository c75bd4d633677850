// The bus effects' inner loops that plain Swift (built for baseline x86-64)
// cannot make fast: the reverb's feedback network, 16 lines wide, the
// EQ's cascade of bands with fused multiply-adds, and the compressor's
// curve and gain, 16 frames at a time. Like the
// mix kernels, each exists in one portable C version and, on x86-64, in an
// AVX2+FMA and an AVX-512 version selected per call by `level`
// (`fx_best_level`), and each is `nonblocking` (checked by clang).
#ifndef SOUNDENGINE_FX_KERNELS_H
#define SOUNDENGINE_FX_KERNELS_H

#include <stdint.h>

#include "mix_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The best instruction-set level this CPU runs: 2 AVX-512, 1 AVX2+FMA, 0 portable.
int32_t fx_best_level(void);

/// Floats in `fx_reverb_network`'s parameter block.
#define FX_REVERB_PARAMETER_FLOATS (7 * 16)

/// Runs the reverb's 16-line feedback network over `frames` frames.
///
/// `lines` (64-byte aligned) is the lines' ring, frame-major: `ring_mask` + 1
/// rows (a power of two) of 16 floats, line i's sample of frame t at
/// `lines[(t & ring_mask) · 16 + i]`. Frame `first` + j reads line i at
/// frame `first` + j − `lengths[i]` (each length < the ring) and then writes
/// its whole row. While `fade[1]` > 0 the lines crossfade to the lengths
/// `next` (a room-size change): each frame first adds 1 to `fade[0]` and
/// reads each line through both heads, weighting the new one by
/// u²·(3 − 2u), u = min(1, fade[0] / fade[1]); at the frame where `fade[0]`
/// reaches `fade[1]` the crossfade ends: `next` is copied into `lengths`
/// and `fade` set to 0, 0. `mixed` (64-byte aligned) receives each frame's mix of
/// the filtered line outputs (the 16 × 16 Hadamard matrix / 4). `in_left`
/// and `in_right` are the diffused inputs, one per frame.
///
/// `parameters` (64-byte aligned), 16 floats each: 0 the absorption filters'
/// states (updated), 1 their input gains (updated: each frame first adds 3),
/// 2 their poles (updated: each frame first adds 4), 3 and 4 those per-frame
/// steps, 5 and 6 the left and right inputs' gains into the lines.
///
/// Per frame: f = flush(gain · line + pole · state); state = f; v = H·f / 4;
/// the row written is flush(v + left·inject_left + right·inject_right), with
/// flush zeroing |x| < 1e-15. Returns the last frame at which some lane of f
/// had f² ≥ `loud_square` / 16 (so any frame whose f carries energy
/// ≥ `loud_square` counts), or -1.
int32_t fx_reverb_network(int32_t level, float *lines, int32_t ring_mask, int64_t first, int32_t *lengths,
                          const int32_t *next, int32_t *fade, float *mixed, const float *in_left,
                          const float *in_right, float *parameters, int32_t frames,
                          float loud_square) MK_NONBLOCKING;

/// Floats per band in `fx_svf_cascade`'s coefficients, and in its states.
#define FX_SVF_COEFFICIENTS 6
#define FX_SVF_STATES 4

/// Filters `frames` frames of `left` and, unless NULL, `right` in place
/// through `bands` (1…6) state-variable filter bands in order, each with
/// fixed coefficients (Simper's trapezoidal SVF): per band, in
/// `coefficients`, a1, a2, a3 (a1 = 1/(1 + g(g + k)), a2 = g·a1,
/// a3 = g·a2) and the output mix m0, m1, m2; in `states` the band's
/// ic1 (left, right) and ic2 (left, right), updated. Per band and frame:
/// v3 = x − ic2, v1 = a1·ic1 + a2·v3, v2 = ic2 + a2·ic1 + a3·v3,
/// y = m0·x + m1·v1 + m2·v2, ic1 = 2·v1 − ic1, ic2 = 2·v2 − ic2, computed
/// as y = cx·x + c1·ic1 + c2·ic2 and the states likewise, each one
/// multiply-add from x (the same filter within float rounding). Every band
/// and both channels run side by side in the lanes of one 16-lane vector,
/// band b on frame j − b in step j (a wavefront), so no band waits on
/// another within a step.
void fx_svf_cascade(int32_t level, float *left, float *right, int32_t frames, const float *coefficients,
                    float *states, int32_t bands) MK_NONBLOCKING;

/// The compressor's static curve with the peak detector, for `frames`
/// frames: `curve[j]` = the gain reduction in dB (≥ 0: 0 below the knee,
/// quadratic in it, `slope` · (level − `threshold`) above it; knee width
/// `knee` dB) for the level 20·log10 of the largest |x| over `channels`
/// channels (channel c's frame j at `source[c · stride + j]`).
/// Logarithm as the Swift `fastLog2`.
void fx_compressor_peak_curve(int32_t level, const float *source, int64_t stride, int32_t channels,
                              int32_t frames, float *curve, float threshold, float slope, float knee) MK_NONBLOCKING;

/// The compressor detector's smoothing over `frames` frames of `curve` (the
/// static curve's gain reduction, dB) in place: per frame, the release
/// stage y1 = max(x, `release` · y1 + (1 − `release`) · x), then the attack
/// stage yL = `attack` · yL + (1 − `attack`) · y1, and `curve[j]` = yL.
/// `stages` holds y1 and yL, updated; each is set to 0 at the end if below
/// 1e-12 (so no stage decays into subnormals across calls).
void fx_compressor_smooth(int32_t level, float *curve, int32_t frames, float release, float attack,
                          float *stages) MK_NONBLOCKING;

/// The compressor's gain over `frames` frames: each channel's frame j (at
/// `base[c · stride + j]`) times 10^((makeup − `curve[j]`)/20), with makeup
/// = `makeup_from` + `makeup_step` · (`first` + j + 1). Power as the Swift
/// `fastExp2`.
void fx_compressor_gain(int32_t level, float *base, int64_t stride, int32_t channels, int32_t frames,
                        const float *curve, float makeup_from, float makeup_step, int32_t first) MK_NONBLOCKING;

/// The reverb's input sums, 16 frames at a time: for each of `frames`
/// frames, `in_left`/`in_right` = Σ over `channels` channels (channel c's
/// frame j at `base[c · stride + j]`) of `weights[c]` (left) and
/// `weights[8 + c]` (right) times the sample, then widened by the stereo
/// spread s = `spread_from` + `spread_step` · (`done` + j + 1): mid ± s · side.
/// Returns the last frame whose sums (before the spread) reach `silence` in
/// either channel, or -1.
int32_t fx_reverb_inputs(int32_t level, const float *base, int64_t stride, int32_t channels, const float *weights,
                         int32_t frames, float spread_from, float spread_step, int32_t done, float *in_left,
                         float *in_right, float silence) MK_NONBLOCKING;

/// The reverb's eight all-pass diffusers over `frames` frames, in place:
/// diffusers 0–3 on `in_left`, 4–7 on `in_right`, in order. Diffuser k's ring
/// is `size` (a power of two) floats at `rings + k · size`, its delay
/// `delays[k]` ≥ `frames`, its gain `gains[k]`; frame j is frame `first` + j
/// of the rings. Per frame: u = flush(x − g·d), ring ← u, x = d + g·u, with d
/// the ring's sample `delay` frames before and flush zeroing |u| < 1e-15.
void fx_reverb_diffusers(int32_t level, float *in_left, float *in_right, float *rings, int32_t size,
                         const int32_t *delays, const float *gains, int64_t first, int32_t frames) MK_NONBLOCKING;

/// The reverb's outputs over `frames` frames: each channel c's frame j (at
/// `base[c · stride + j]`) becomes dry · x + wet · `mixed[j · 16 + rows[c]]`
/// (without the wet term where `rows[c]` < 0), with dry = `dry_from` +
/// `dry_step` · (`done` + j + 1) and wet likewise.
void fx_reverb_outputs(int32_t level, float *base, int64_t stride, int32_t channels, const int32_t *rows,
                       const float *mixed, int32_t frames, int32_t done, float dry_from, float dry_step,
                       float wet_from, float wet_step) MK_NONBLOCKING;

#ifdef __cplusplus
}
#endif

#endif
