/*
 * Batch normalization in training over the channels of an (n, c, s) f32 input, and its gradient,
 * each channel in a few passes over its n rows of s adjacent values (the composite takes about ten
 * kernels forward and twenty backward, each a pass of its own over the whole activation).
 *
 * batch_norm (forward): mean[k] = sum x[., k, .] / m, var[k] = sum (x[., k, .] - mean[k])^2 / m (m = n * s),
 *   out = (x - mean[k]) / sqrt(var[k] + eps) * weight[k] + bias[k] (weight and bias optional).
 * batch_norm (backward): with rstd = 1 / sqrt(var + eps), xhat = (x - mean) * rstd, g = dy * weight (or dy),
 *   dx = rstd * (g - sum(g) / m - xhat * sum(g * xhat) / m) over the channel,
 *   dweight[k] = sum dy * xhat, dbias[k] = sum dy (each optional, written whole).
 *   Descriptor: 0 direction (0 forward, 1 backward)   1 n   2 c   3 s
 *   4 out (forward) or dx (backward), contiguous (n, c, s)   5 x, contiguous (n, c, s)
 *   6 mean   7 var (contiguous (c))   8 weight (contiguous; 0 for none)
 *   9 bias (forward) or dweight (backward) (contiguous; 0 for none)
 *   10 dy (backward; contiguous (n, c, s))   11 dbias (backward; contiguous; 0 for none)   12 eps (a double)
 * A row's sums run in eight float lanes (so gcc vectorizes them) and are added up across rows in
 * double. A thread takes a share of the channels: each channel is one thread's, start to end.
 */
#include <math.h>
#include <string.h>

#include "pmx_tensor.h"

#define LANES 8
#define PMX_GRAIN_BATCH_NORM (1 << 16) /* elements of a batch norm or its gradient (a few reads and multiply-adds) */

static inline float lanes_sum(const float *v) {
    float t = 0;
    for (int l = 0; l < LANES; l++) t += v[l];
    return t;
}

static inline float row_sum(const float *restrict x, int64_t s) {
    float acc[LANES] = {0};
    int64_t j = 0;
    for (; j + LANES <= s; j += LANES) {
        for (int l = 0; l < LANES; l++) acc[l] += x[j + l];
    }
    float t = lanes_sum(acc);
    for (; j < s; j++) t += x[j];
    return t;
}

static inline float row_squares(const float *restrict x, int64_t s, float mu) {
    float acc[LANES] = {0};
    int64_t j = 0;
    for (; j + LANES <= s; j += LANES) {
        for (int l = 0; l < LANES; l++) {
            float e = x[j + l] - mu;
            acc[l] += e * e;
        }
    }
    float t = lanes_sum(acc);
    for (; j < s; j++) t += (x[j] - mu) * (x[j] - mu);
    return t;
}

/* sum dy and sum dy * (x - mu) of one row. */
static inline void row_grad_sums(const float *restrict g, const float *restrict x, int64_t s, float mu, double *sum_dy, double *sum_dyx) {
    float a[LANES] = {0}, b[LANES] = {0};
    int64_t j = 0;
    for (; j + LANES <= s; j += LANES) {
        for (int l = 0; l < LANES; l++) {
            a[l] += g[j + l];
            b[l] += g[j + l] * (x[j + l] - mu);
        }
    }
    float ta = lanes_sum(a), tb = lanes_sum(b);
    for (; j < s; j++) {
        ta += g[j];
        tb += g[j] * (x[j] - mu);
    }
    *sum_dy += ta;
    *sum_dyx += tb;
}

__attribute__((target_clones("avx2", "default")))
static void forward_channels(const int64_t *d, int64_t start, int64_t end) {
    int64_t n = d[1], c = d[2], s = d[3];
    float *out = PMX_PTR(d, 4, float);
    const float *x = PMX_PTR(d, 5, const float);
    float *mean = PMX_PTR(d, 6, float), *var = PMX_PTR(d, 7, float);
    const float *w = PMX_PTR(d, 8, const float), *b = PMX_PTR(d, 9, const float);
    double eps = pmx_word_double(d, 12), m = (double) n * (double) s;
    for (int64_t k = start; k < end; k++) {
        double sum = 0;
        for (int64_t i = 0; i < n; i++) sum += row_sum(x + (i * c + k) * s, s);
        float mu = (float) (sum / m);
        double squares = 0;
        for (int64_t i = 0; i < n; i++) squares += row_squares(x + (i * c + k) * s, s, mu);
        double variance = squares / m;
        float scale = (float) (1.0 / sqrt(variance + eps)) * (w ? w[k] : 1.0f), shift = b ? b[k] : 0.0f;
        mean[k] = mu;
        var[k] = (float) variance;
        for (int64_t i = 0; i < n; i++) {
            const float *restrict xi = x + (i * c + k) * s;
            float *restrict oi = out + (i * c + k) * s;
            for (int64_t j = 0; j < s; j++) oi[j] = (xi[j] - mu) * scale + shift;
        }
    }
}

__attribute__((target_clones("avx2", "default")))
static void backward_channels(const int64_t *d, int64_t start, int64_t end) {
    int64_t n = d[1], c = d[2], s = d[3];
    float *dx = PMX_PTR(d, 4, float);
    const float *x = PMX_PTR(d, 5, const float);
    const float *mean = PMX_PTR(d, 6, const float), *var = PMX_PTR(d, 7, const float);
    const float *w = PMX_PTR(d, 8, const float);
    float *dw = PMX_PTR(d, 9, float), *db = PMX_PTR(d, 11, float);
    const float *dy = PMX_PTR(d, 10, const float);
    double eps = pmx_word_double(d, 12), m = (double) n * (double) s;
    for (int64_t k = start; k < end; k++) {
        float mu = mean[k];
        double r = 1.0 / sqrt((double) var[k] + eps), scale = w ? w[k] : 1.0;
        double sum_dy = 0, sum_dyx = 0; /* sum dy * (x - mu): times r it is sum dy * xhat */
        for (int64_t i = 0; i < n; i++) row_grad_sums(dy + (i * c + k) * s, x + (i * c + k) * s, s, mu, &sum_dy, &sum_dyx);
        if (dw) dw[k] = (float) (sum_dyx * r);
        if (db) db[k] = (float) sum_dy;
        /* dx = r * scale * dy - r * scale * sum_dy / m - (x - mu) * r^3 * scale * sum_dyx / m */
        float a = (float) (r * scale), shift = (float) (r * scale * sum_dy / m), slope = (float) (r * r * r * scale * sum_dyx / m);
        for (int64_t i = 0; i < n; i++) {
            const float *restrict xi = x + (i * c + k) * s;
            const float *restrict gi = dy + (i * c + k) * s;
            float *restrict oi = dx + (i * c + k) * s;
            for (int64_t j = 0; j < s; j++) oi[j] = a * gi[j] - shift - (xi[j] - mu) * slope;
        }
    }
}

PMX_KERNEL(batch_norm) {
    int64_t n = d[1], c = d[2], s = d[3];
    if (c <= 0) return 0;
    int nth = pmx_threads_for(n * c * s, PMX_GRAIN_BATCH_NORM);
    if (nth > c) nth = (int) c;
    pmx_parallel(d, c, nth, d[0] == 0 ? forward_channels : backward_channels);
    return 0;
}
