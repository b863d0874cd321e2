/*
 * Layer normalization over the rows of an (n, d) f32 matrix, and its gradient, each row in a few
 * passes over memory it has just read (the composite takes about ten kernels forward and twenty
 * backward, each a pass of its own over the whole activation).
 *
 * layer_norm (forward): mean[i] = sum_j x[i, j] / d, rstd[i] = 1 / sqrt(sum_j (x[i, j] - mean)^2 / d + eps),
 *   out[i, j] = (x[i, j] - mean[i]) * rstd[i] * weight[j] + bias[j] (weight and bias optional).
 * layer_norm (backward): with xhat = (x - mean) * rstd and g = dy * weight (or dy),
 *   dx[i, j] = rstd[i] * (g[i, j] - mean_k g[i, k] - xhat[i, j] * mean_k g[i, k] * xhat[i, k]),
 *   dweight[j] = sum_i dy[i, j] * xhat[i, j], dbias[j] = sum_i dy[i, j] (each optional, written whole).
 *   Descriptor: 0 direction (0 forward, 1 backward)   1 n   2 d
 *   3 out (forward) or dx (backward)   4 its row stride (elements; its elements adjacent)
 *   5 x   6 its row stride (its elements adjacent)
 *   7 mean   8 its stride   9 rstd   10 its stride
 *   11 weight (contiguous; 0 for none)
 *   12 bias (forward) or dweight (backward) (contiguous; 0 for none)
 *   13 dy (backward)   14 its row stride (its elements adjacent)
 *   15 dbias (backward; contiguous; 0 for none)   16 eps (a double; forward)
 * The row loops keep eight running lanes per sum so gcc vectorizes them. The backward's dweight and
 * dbias are sums over rows: on one thread they accumulate in the same pass as dx; on a team each
 * thread takes a share of the columns and runs over every row (no partial sums to merge).
 */
#include <math.h>
#include <string.h>

#include "pmx_tensor.h"

#define LANES 8
#define PMX_GRAIN_LAYER_NORM (1 << 16) /* elements of a layer norm or its gradient (a few reads and multiply-adds) */

static inline float lanes_sum(const float *s) {
    float t = 0;
    for (int l = 0; l < LANES; l++) t += s[l];
    return t;
}

__attribute__((target_clones("avx2", "default")))
static void forward_rows(const int64_t *d, int64_t start, int64_t end) {
    int64_t c = d[2], ors = d[4], xrs = d[6], ms = d[8], rs = d[10];
    float *out = PMX_PTR(d, 3, float);
    const float *x = PMX_PTR(d, 5, const float);
    float *mean = PMX_PTR(d, 7, float), *rstd = PMX_PTR(d, 9, float);
    const float *w = PMX_PTR(d, 11, const float), *b = PMX_PTR(d, 12, const float);
    float eps = (float) pmx_word_double(d, 16);
    for (int64_t i = start; i < end; i++) {
        const float *restrict xi = x + i * xrs;
        float *restrict oi = out + i * ors;
        float s[LANES] = {0};
        int64_t j = 0;
        for (; j + LANES <= c; j += LANES) {
            for (int l = 0; l < LANES; l++) s[l] += xi[j + l];
        }
        float sum = lanes_sum(s);
        for (; j < c; j++) sum += xi[j];
        float mu = sum / (float) c;
        float q[LANES] = {0};
        for (j = 0; j + LANES <= c; j += LANES) {
            for (int l = 0; l < LANES; l++) {
                float e = xi[j + l] - mu;
                q[l] += e * e;
            }
        }
        float squares = lanes_sum(q);
        for (; j < c; j++) squares += (xi[j] - mu) * (xi[j] - mu);
        float r = 1.0f / sqrtf(squares / (float) c + eps);
        mean[i * ms] = mu;
        rstd[i * rs] = r;
        if (w && b) {
            for (j = 0; j < c; j++) oi[j] = (xi[j] - mu) * r * w[j] + b[j];
        } else if (w) {
            for (j = 0; j < c; j++) oi[j] = (xi[j] - mu) * r * w[j];
        } else if (b) {
            for (j = 0; j < c; j++) oi[j] = (xi[j] - mu) * r + b[j];
        } else {
            for (j = 0; j < c; j++) oi[j] = (xi[j] - mu) * r;
        }
    }
}

/* dx of rows [start, end); with params, also adds each row's share of dweight and dbias (zeroed before). */
static inline void backward_rows_body(const int64_t *d, int64_t start, int64_t end, int params) {
    int64_t c = d[2], drs = d[4], xrs = d[6], ms = d[8], rs = d[10], grs = d[14];
    float *dx = PMX_PTR(d, 3, float);
    const float *x = PMX_PTR(d, 5, const float);
    const float *mean = PMX_PTR(d, 7, const float), *rstd = PMX_PTR(d, 9, const float);
    const float *w = PMX_PTR(d, 11, const float);
    float *dw = PMX_PTR(d, 12, float), *db = PMX_PTR(d, 15, float);
    const float *dy = PMX_PTR(d, 13, const float);
    for (int64_t i = start; i < end; i++) {
        const float *restrict xi = x + i * xrs;
        const float *restrict gi = dy + i * grs;
        float *restrict oi = dx + i * drs;
        float mu = mean[i * ms], r = rstd[i * rs];
        float sg[LANES] = {0}, sgx[LANES] = {0};
        int64_t j = 0;
        if (w) { /* two loops: a select on w inside one keeps gcc from vectorizing it */
            for (; j + LANES <= c; j += LANES) {
                for (int l = 0; l < LANES; l++) {
                    float g = gi[j + l] * w[j + l];
                    sg[l] += g;
                    sgx[l] += g * ((xi[j + l] - mu) * r);
                }
            }
        } else {
            for (; j + LANES <= c; j += LANES) {
                for (int l = 0; l < LANES; l++) {
                    sg[l] += gi[j + l];
                    sgx[l] += gi[j + l] * ((xi[j + l] - mu) * r);
                }
            }
        }
        float sumG = lanes_sum(sg), sumGx = lanes_sum(sgx);
        for (; j < c; j++) {
            float g = w ? gi[j] * w[j] : gi[j];
            sumG += g;
            sumGx += g * ((xi[j] - mu) * r);
        }
        float meanG = sumG / (float) c, meanGx = sumGx / (float) c;
        if (w) {
            for (j = 0; j < c; j++) oi[j] = r * (gi[j] * w[j] - meanG - (xi[j] - mu) * r * meanGx);
        } else {
            for (j = 0; j < c; j++) oi[j] = r * (gi[j] - meanG - (xi[j] - mu) * r * meanGx);
        }
        if (params && dw) {
            for (j = 0; j < c; j++) dw[j] += gi[j] * ((xi[j] - mu) * r);
        }
        if (params && db) {
            for (j = 0; j < c; j++) db[j] += gi[j];
        }
    }
}

__attribute__((target_clones("avx2", "default")))
static void backward_rows(const int64_t *d, int64_t start, int64_t end) {
    backward_rows_body(d, start, end, 0);
}

__attribute__((target_clones("avx2", "default")))
static void backward_rows_with_params(const int64_t *d, int64_t start, int64_t end) {
    backward_rows_body(d, start, end, 1);
}

/* dweight and dbias of columns [start, end), over every row. */
__attribute__((target_clones("avx2", "default")))
static void param_columns(const int64_t *d, int64_t start, int64_t end) {
    int64_t n = d[1], xrs = d[6], ms = d[8], rs = d[10], grs = d[14];
    const float *x = PMX_PTR(d, 5, const float);
    const float *mean = PMX_PTR(d, 7, const float), *rstd = PMX_PTR(d, 9, const float);
    float *dw = PMX_PTR(d, 12, float), *db = PMX_PTR(d, 15, float);
    const float *dy = PMX_PTR(d, 13, const float);
    if (dw) memset(dw + start, 0, (size_t) (end - start) * sizeof(float));
    if (db) memset(db + start, 0, (size_t) (end - start) * sizeof(float));
    for (int64_t i = 0; i < n; i++) {
        const float *restrict xi = x + i * xrs;
        const float *restrict gi = dy + i * grs;
        float mu = mean[i * ms], r = rstd[i * rs];
        if (dw) {
            for (int64_t j = start; j < end; j++) dw[j] += gi[j] * ((xi[j] - mu) * r);
        }
        if (db) {
            for (int64_t j = start; j < end; j++) db[j] += gi[j];
        }
    }
}

PMX_KERNEL(layer_norm) {
    int64_t n = d[1], c = d[2];
    if (d[0] == 0) {
        if (n <= 0 || c <= 0) return 0;
        int nth = pmx_threads_for(n * c, PMX_GRAIN_LAYER_NORM);
        if (nth > n) nth = (int) n;
        pmx_parallel(d, n, nth, forward_rows);
        return 0;
    }
    float *dw = PMX_PTR(d, 12, float), *db = PMX_PTR(d, 15, float);
    if (c <= 0) return 0;
    if (n <= 0) { /* no rows: the parameters' gradients are sums of nothing */
        if (dw) memset(dw, 0, (size_t) c * sizeof(float));
        if (db) memset(db, 0, (size_t) c * sizeof(float));
        return 0;
    }
    int nth = pmx_threads_for(n * c, PMX_GRAIN_LAYER_NORM);
    if (nth > n) nth = (int) n;
    if (nth == 1) {
        if (dw) memset(dw, 0, (size_t) c * sizeof(float));
        if (db) memset(db, 0, (size_t) c * sizeof(float));
        backward_rows_with_params(d, 0, n);
        return 0;
    }
    pmx_parallel(d, n, nth, backward_rows);
    if (dw || db) {
        int cth = nth > c ? (int) c : nth;
        pmx_parallel(d, c, cth, param_columns);
    }
    return 0;
}
