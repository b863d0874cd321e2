/*
 * Reductions along one axis (tinygrad's "reduce" op kind) over strided operands. The output is the
 * input's shape without the axis; both sides are walked like elementwise operands, and each output
 * element reduces `len` input elements `axis stride` apart. MAX/MIN propagate NaN; ARGMAX gives
 * the first index of the maximum (of the first NaN when there is one) as int64.
 *
 * Descriptor: 0 op   1 ndim (of the output walk, at least 1)   2 outputs   3 len   4 out   5 in
 *   6 axis stride (elements)   7..9 unused
 *   then shape[nd], out strides[nd], in strides[nd] (from word 10)
 *
 * Threads take disjoint shares of the outputs. When the axis is not the innermost and the last
 * dimension is contiguous on both sides, a sum adds whole rows (contiguous, vectorized).
 */
#include "pmx_tensor.h"
#include "walk.h"
#include <math.h>

enum { R_SUM = 0, R_MAX = 1, R_MIN = 2, R_ARGMAX = 3 };

__attribute__((target_clones("avx2", "default")))
static float row_sum(const float *restrict x, int64_t len) {
    float acc[8] = {0};
    int64_t i = 0;
    for (; i + 8 <= len; i += 8)
        for (int k = 0; k < 8; k++) acc[k] += x[i + k];
    float s = 0;
    for (; i < len; i++) s += x[i];
    return s + ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

__attribute__((target_clones("avx2", "default")))
static void add_rows(float *restrict dst, const float *restrict src, int64_t stride, int64_t rows, int64_t len) {
    for (int64_t j = 0; j < len; j++) dst[j] = 0;
    for (int64_t k = 0; k < rows; k++) {
        const float *r = src + k * stride;
        for (int64_t j = 0; j < len; j++) dst[j] += r[j];
    }
}

static void reduce_one(int op, const float *x, int64_t len, int64_t stride, void *out, int64_t at) {
    if (op == R_SUM) {
        float s;
        if (stride == 1) s = row_sum(x, len);
        else {
            s = 0;
            for (int64_t k = 0; k < len; k++) s += x[k * stride];
        }
        ((float *) out)[at] = s;
        return;
    }
    int want_max = op != R_MIN;
    int64_t best = 0;
    float bv = x[0];
    for (int64_t k = 1; k < len && bv == bv; k++) {
        float v = x[k * stride];
        if (v != v || (want_max ? v > bv : v < bv)) {
            bv = v;
            best = k;
        }
    }
    if (op == R_ARGMAX) ((int64_t *) out)[at] = best;
    else ((float *) out)[at] = bv;
}

static void reduce_span(const int64_t *d, int64_t first, int64_t n, const int64_t *off) {
    int op = (int) d[0];
    int nd = (int) d[1];
    int64_t len = d[3], axis = d[6];
    int64_t so = d[10 + 2 * nd - 1], si = d[10 + 3 * nd - 1];
    const float *in = PMX_PTR(d, 5, const float) + off[1];
    void *out = PMX_PTR(d, 4, void);
    if (op == R_SUM && so == 1 && si == 1 && axis != 1) {
        add_rows((float *) out + off[0], in, axis, len, n);
        return;
    }
    for (int64_t j = 0; j < n; j++) reduce_one(op, in + j * si, len, axis, out, off[0] + j * so);
}

static void reduce_range(const int64_t *d, int64_t start, int64_t end) {
    int nd = (int) d[1];
    pmx_walk(d, d + 10, nd, d + 10 + nd, 2, start, end, reduce_span);
}

PMX_KERNEL(reduce) {
    int64_t outputs = d[2], len = d[3];
    int nd = (int) d[1];
    if (outputs <= 0) return 0;
    if (len <= 0 || nd < 1 || nd > PMX_MAX_DIMS) return -1;
    int nth = pmx_threads_for(outputs * len, PMX_GRAIN_STREAM);
    pmx_parallel(d, outputs, nth > outputs ? (int) outputs : nth, reduce_range);
    return 0;
}
