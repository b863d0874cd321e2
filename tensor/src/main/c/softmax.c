/*
 * Softmax over the rows of an (n, c) f32 matrix, and its gradient, each row in one pass over
 * memory (the composite takes five kernels forward and four backward, each a pass of its own).
 *
 * softmax: out[i, j] = exp(x[i, j] - max_j x[i]) / sum_j exp(x[i, j] - max_j x[i]); a NaN in a row
 * makes the whole row NaN, as does a row of -inf only (max - max is NaN), as in the composite.
 * softmax_grad (the backward): out[i, j] = y[i, j] * (dy[i, j] - sum_k dy[i, k] * y[i, k]).
 *   Descriptor: 0 direction (0 softmax, 1 gradient)   1 n   2 c
 *   3 out   4 out row stride   5 out column stride (elements)
 *   6 x (softmax) or y (gradient)   7 its row stride   8 its column stride
 *   9 dy (gradient; 0 for softmax)   10 its row stride   11 its column stride
 *   12 causal rows L (softmax; 0 for none): row i reads its first i % L + 1 elements only and
 *      writes 0 past them, as causal attention's mask of -inf before the softmax
 * Rows whose column strides are all 1 take loops gcc vectorizes (OpenMP simd reductions for each
 * maximum and sum, vmath.h's exp); any other layout the plain strided loop.
 */
#include "pmx_tensor.h"
#include "vmath.h"

#define PMX_GRAIN_SOFTMAX_GRAD (1 << 16) /* elements of a softmax gradient (two reads, a multiply-add) */

/* The largest element of a contiguous row, NaN when it holds one. */
static inline float row_max(const float *x, int64_t c) {
    float max = x[0];
    int32_t nan = 0;
#pragma omp simd reduction(max : max) reduction(| : nan)
    for (int64_t j = 0; j < c; j++) {
        max = x[j] > max ? x[j] : max;
        nan |= x[j] != x[j];
    }
    return nan ? __builtin_nanf("") : max;
}

/* o = exp(x - max) over a contiguous row, returning the sum. */
static inline float row_exp_sum(float *o, const float *x, int64_t c, float max) {
    for (int64_t j = 0; j < c; j++) o[j] = pmx_expf(x[j] - max);
    float sum = 0;
#pragma omp simd reduction(+ : sum)
    for (int64_t j = 0; j < c; j++) sum += o[j];
    return sum;
}

__attribute__((target_clones("avx2", "default")))
static void softmax_rows(const int64_t *d, int64_t start, int64_t end) {
    int64_t c = d[2], ors = d[4], ocs = d[5], xrs = d[7], xcs = d[8], causal = d[12];
    float *out = PMX_PTR(d, 3, float);
    const float *x = PMX_PTR(d, 6, const float);
    for (int64_t i = start; i < end; i++) {
        const float *xi = x + i * xrs;
        float *oi = out + i * ors;
        int64_t seen = causal > 0 && i % causal + 1 < c ? i % causal + 1 : c;
        if (xcs == 1 && ocs == 1) {
            float max = row_max(xi, seen);
            float inv = 1.0f / row_exp_sum(oi, xi, seen, max);
            for (int64_t j = 0; j < seen; j++) oi[j] *= inv;
            for (int64_t j = seen; j < c; j++) oi[j] = 0.0f;
        } else {
            float max = xi[0];
            for (int64_t j = 1; j < seen; j++) {
                float e = xi[j * xcs];
                if (e > max || e != e) max = e;
            }
            float sum = 0;
            for (int64_t j = 0; j < seen; j++) {
                float e = pmx_expf(xi[j * xcs] - max);
                oi[j * ocs] = e;
                sum += e;
            }
            float inv = 1.0f / sum;
            for (int64_t j = 0; j < seen; j++) oi[j * ocs] *= inv;
            for (int64_t j = seen; j < c; j++) oi[j * ocs] = 0.0f;
        }
    }
}

__attribute__((target_clones("avx2", "default")))
static void softmax_grad_rows(const int64_t *d, int64_t start, int64_t end) {
    int64_t c = d[2], ors = d[4], ocs = d[5], yrs = d[7], ycs = d[8], grs = d[10], gcs = d[11];
    float *out = PMX_PTR(d, 3, float);
    const float *y = PMX_PTR(d, 6, const float);
    const float *g = PMX_PTR(d, 9, const float);
    for (int64_t i = start; i < end; i++) {
        const float *restrict yi = y + i * yrs;
        const float *gi = g + i * grs;
        float *oi = out + i * ors;
        if (ycs == 1 && gcs == 1 && ocs == 1) {
            float dot = 0;
#pragma omp simd reduction(+ : dot)
            for (int64_t j = 0; j < c; j++) dot += yi[j] * gi[j];
            for (int64_t j = 0; j < c; j++) oi[j] = yi[j] * (gi[j] - dot);
        } else {
            float dot = 0;
            for (int64_t j = 0; j < c; j++) dot += yi[j * ycs] * gi[j * gcs];
            for (int64_t j = 0; j < c; j++) oi[j * ocs] = yi[j * ycs] * (gi[j * gcs] - dot);
        }
    }
}

PMX_KERNEL(softmax) {
    int64_t n = d[1], c = d[2];
    if (n <= 0 || c <= 0) return 0;
    int backward = d[0] != 0;
    int nth = pmx_threads_for(n * c, backward ? PMX_GRAIN_SOFTMAX_GRAD : PMX_GRAIN_SOFTMAX);
    if (nth > n) nth = (int) n;
    pmx_parallel(d, n, nth, backward ? softmax_grad_rows : softmax_rows);
    return 0;
}
