/*
 * Max pooling over the (h, w) planes of a contiguous (planes, h, w) f32 input, each window's largest
 * element and its flat position in the plane (PyTorch's max_pool2d with return_indices), and its
 * gradient: the incoming gradient added at those positions. The composite takes patches, an argmax,
 * a comparison, a where and a sum forward and as many kernels again backward.
 *
 * max_pool (forward): window (oy, ox) covers rows oy * sh - ph + ky * dh and columns ox * sw - pw + kx * dw
 *   (ky < kh, kx < kw) inside the plane; padding never wins. The first in-bounds position starts as
 *   the pick at -inf; a later element replaces it when larger or NaN (PyTorch's `val > max || isnan(val)`);
 *   a window whose dilated positions all miss the plane gives -inf at position -1, which the backward skips.
 * max_pool (backward): each plane of dx zeroed, then dx[indices[o]] += dy[o] in output order (a plane
 *   per thread: no two threads add to one element, and the sums' order is fixed).
 *   Descriptor: 0 direction (0 forward, 1 backward)   1 planes (n * c)   2 h   3 w   4 out_h   5 out_w
 *   6 in (forward) or dx (backward), contiguous (planes, h, w)
 *   7 out (forward) or dy (backward), contiguous (planes, out_h, out_w)
 *   8 indices (i64, contiguous (planes, out_h, out_w))
 *   9 kh   10 kw   11 sh   12 sw   13 ph   14 pw   15 dh   16 dw
 */
#include <math.h>
#include <string.h>

#include "pmx_tensor.h"

#define PMX_GRAIN_MAX_POOL (1 << 16) /* window elements compared, or gradients added */

/* Whether a plane holds a NaN (a reduction gcc vectorizes). */
static int plane_has_nan(const float *restrict x, int64_t n) {
    int nan = 0;
    for (int64_t i = 0; i < n; i++) nan |= x[i] != x[i];
    return nan;
}

/*
 * The CNNs' pool: 2x2 windows, no padding or dilation, over a plane without NaN, where `v > max`
 * alone picks as PyTorch does; written for gcc to vectorize across a row of windows (a NaN test in
 * the compare keeps it scalar, four times slower).
 */
static void forward_plane_2x2(const float *restrict x, float *restrict o, int64_t *restrict at, int64_t w, int64_t oh, int64_t ow,
                              int64_t sh, int64_t sw) {
    for (int64_t oy = 0; oy < oh; oy++) {
        const float *restrict r0 = x + oy * sh * w, *restrict r1 = r0 + w;
        float *restrict oo = o + oy * ow;
        int64_t *restrict ao = at + oy * ow;
        int64_t row = oy * sh * w;
        for (int64_t ox = 0; ox < ow; ox++) {
            float v0 = r0[ox * sw], v1 = r0[ox * sw + 1], v2 = r1[ox * sw], v3 = r1[ox * sw + 1];
            float m = v0;
            int64_t k = 0;
            m = v1 > m ? v1 : m;
            k = v1 > v0 ? 1 : k;
            int t = v2 > m;
            m = t ? v2 : m;
            k = t ? w : k;
            t = v3 > m;
            m = t ? v3 : m;
            k = t ? w + 1 : k;
            oo[ox] = m;
            ao[ox] = row + ox * sw + k;
        }
    }
}

static void forward_planes(const int64_t *d, int64_t start, int64_t end) {
    int64_t h = d[2], w = d[3], oh = d[4], ow = d[5];
    int64_t kh = d[9], kw = d[10], sh = d[11], sw = d[12], ph = d[13], pw = d[14], dh = d[15], dw = d[16];
    const float *in = PMX_PTR(d, 6, const float);
    float *out = PMX_PTR(d, 7, float);
    int64_t *indices = PMX_PTR(d, 8, int64_t);
    int two_by_two = kh == 2 && kw == 2 && ph == 0 && pw == 0 && dh == 1 && dw == 1;
    for (int64_t p = start; p < end; p++) {
        const float *x = in + p * h * w;
        float *o = out + p * oh * ow;
        int64_t *at = indices + p * oh * ow;
        if (two_by_two && !plane_has_nan(x, h * w)) {
            forward_plane_2x2(x, o, at, w, oh, ow, sh, sw);
            continue;
        }
        for (int64_t oy = 0; oy < oh; oy++) {
            int64_t y0 = oy * sh - ph;
            int64_t ky0 = 0, ky1 = kh; /* the window's rows inside the plane: [ky0, ky1) */
            while (ky0 < kh && y0 + ky0 * dh < 0) ky0++;
            while (ky1 > ky0 && y0 + (ky1 - 1) * dh >= h) ky1--;
            for (int64_t ox = 0; ox < ow; ox++) {
                int64_t x0 = ox * sw - pw;
                int64_t kx0 = 0, kx1 = kw;
                while (kx0 < kw && x0 + kx0 * dw < 0) kx0++;
                while (kx1 > kx0 && x0 + (kx1 - 1) * dw >= w) kx1--;
                float max = -INFINITY;
                int64_t pick = ky0 < ky1 && kx0 < kx1 ? (y0 + ky0 * dh) * w + x0 + kx0 * dw : -1;
                for (int64_t ky = ky0; ky < ky1; ky++) {
                    int64_t row = (y0 + ky * dh) * w;
                    for (int64_t kx = kx0; kx < kx1; kx++) {
                        int64_t pos = row + x0 + kx * dw;
                        float v = x[pos];
                        if (v > max || isnan(v)) {
                            max = v;
                            pick = pos;
                        }
                    }
                }
                o[oy * ow + ox] = max;
                at[oy * ow + ox] = pick;
            }
        }
    }
}

static void backward_planes(const int64_t *d, int64_t start, int64_t end) {
    int64_t hw = d[2] * d[3], outs = d[4] * d[5];
    float *dx = PMX_PTR(d, 6, float);
    const float *dy = PMX_PTR(d, 7, const float);
    const int64_t *indices = PMX_PTR(d, 8, const int64_t);
    for (int64_t p = start; p < end; p++) {
        float *g = dx + p * hw;
        const float *gy = dy + p * outs;
        const int64_t *at = indices + p * outs;
        memset(g, 0, (size_t) hw * sizeof(float));
        for (int64_t o = 0; o < outs; o++) {
            if (at[o] >= 0) g[at[o]] += gy[o];
        }
    }
}

PMX_KERNEL(max_pool) {
    int64_t planes = d[1];
    if (planes <= 0) return 0;
    int64_t work = d[0] == 0 ? planes * d[4] * d[5] * d[9] * d[10] : planes * (d[2] * d[3] + d[4] * d[5]);
    int nth = pmx_threads_for(work, PMX_GRAIN_MAX_POOL);
    if (nth > planes) nth = (int) planes;
    pmx_parallel(d, planes, nth, d[0] == 0 ? forward_planes : backward_planes);
    return 0;
}
