/*
 * Fused kernels: chains a training step would otherwise run as many elementwise passes over the
 * same memory, done in one pass each.
 *
 * adam: one Adam/AdamW update of a parameter and its moments (every operand contiguous f32, one
 * length; param, m and v written in place).
 *   Descriptor: 0 n   1 param   2 grad   3 m   4 v   5 lr   6 beta1   7 beta2   8 eps   9 weight decay
 *   (doubles)   10 decoupled (0/1)   11 c1 = 1 - beta1^t   12 c2 = 1 - beta2^t (doubles)
 *   13 step scalars: 0, or three f32 [lr, lr / c1, 1 / c2] read when the kernel runs in place of
 *   words 5, 11 and 12 (a captured step replays one descriptor while they change each step)
 *
 * cross_entropy: mean cross-entropy of logits (n, c) against integer labels, and optionally its
 * gradient (softmax - onehot) / n, from one read of each row.
 *   Descriptor: 0 n   1 c   2 logits   3 logits row stride   4 logits column stride (elements)
 *   5 labels   6 label dtype (PMX_I32/PMX_I64)   7 label stride   8 loss (one f32)
 *   9 grad (f32, or 0 for none)   10 grad row stride   11 grad column stride
 *   A label outside [0, c) is status 1 + its row (the frontend checks them first; this is a guard).
 */
#include "pmx_tensor.h"
#include <math.h>
#include <omp.h>

__attribute__((target_clones("avx2", "default")))
static void adam_span(const int64_t *d, int64_t start, int64_t end) {
    float *restrict p = PMX_PTR(d, 1, float);
    const float *restrict g = PMX_PTR(d, 2, const float);
    float *restrict m = PMX_PTR(d, 3, float);
    float *restrict v = PMX_PTR(d, 4, float);
    const float *scalars = PMX_PTR(d, 13, const float);
    const float lr = scalars ? scalars[0] : (float) pmx_word_double(d, 5);
    const float b1 = (float) pmx_word_double(d, 6), b2 = (float) pmx_word_double(d, 7);
    const float eps = (float) pmx_word_double(d, 8), wd = (float) pmx_word_double(d, 9);
    const float step = scalars ? scalars[1] : (float) (pmx_word_double(d, 5) / pmx_word_double(d, 11));
    const float inv_c2 = scalars ? scalars[2] : (float) (1.0 / pmx_word_double(d, 12));
    const float keep = d[10] ? 1.0f - lr * wd : 1.0f, l2 = d[10] ? 0.0f : wd;
    const float a1 = 1.0f - b1, a2 = 1.0f - b2;
    for (int64_t i = start; i < end; i++) {
        float pi = p[i] * keep;
        float gi = g[i] + l2 * pi;
        float mi = b1 * m[i] + a1 * gi;
        float vi = b2 * v[i] + a2 * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] = pi - step * mi / (sqrtf(vi * inv_c2) + eps);
    }
}

PMX_KERNEL(adam) {
    int64_t n = d[0];
    if (n <= 0) return 0;
    pmx_parallel(d, n, pmx_threads_for(n, PMX_GRAIN_ADAM), adam_span);
    return 0;
}

static int64_t label_at(const int64_t *d, int64_t i) {
    int64_t at = i * d[7];
    return d[6] == PMX_I32 ? PMX_PTR(d, 5, const int32_t)[at] : PMX_PTR(d, 5, const int64_t)[at];
}

/* One row: its loss term, and its gradient row when asked (each exponential computed once, kept there). */
static double cross_entropy_row(const int64_t *d, int64_t i, int64_t label) {
    int64_t c = d[1], rs = d[3], cs = d[4];
    const float *x = PMX_PTR(d, 2, const float) + i * rs;
    float max = x[0];
    for (int64_t j = 1; j < c; j++) {
        float e = x[j * cs];
        if (e > max || e != e) max = e;
    }
    float *gr = PMX_PTR(d, 9, float);
    double sum = 0;
    if (gr) {
        float *row = gr + i * d[10];
        int64_t gs = d[11];
        for (int64_t j = 0; j < c; j++) {
            float e = expf(x[j * cs] - max);
            row[j * gs] = e;
            sum += e;
        }
        float scale = (float) (1.0 / sum), inv_n = 1.0f / (float) d[0];
        for (int64_t j = 0; j < c; j++) row[j * gs] = (row[j * gs] * scale - (j == label ? 1.0f : 0.0f)) * inv_n;
    } else {
        for (int64_t j = 0; j < c; j++) sum += expf(x[j * cs] - max);
    }
    return (double) max + log(sum) - x[label * cs];
}

PMX_KERNEL(cross_entropy) {
    int64_t n = d[0], c = d[1];
    for (int64_t i = 0; i < n; i++) {
        int64_t k = label_at(d, i);
        if (k < 0 || k >= c) return i + 1;
    }
    int nth = pmx_threads_for(n * c, PMX_GRAIN_SOFTMAX);
    if (nth > n) nth = (int) n;
    double total = 0;
    if (nth <= 1) {
        for (int64_t i = 0; i < n; i++) total += cross_entropy_row(d, i, label_at(d, i));
    } else {
        /* each thread sums its share of rows in order, the shares are added in thread order: one
           result per team size, whichever thread finishes first (an OpenMP reduction combines in
           finishing order) */
        double partial[nth];
        for (int t = 0; t < nth; t++) partial[t] = 0;
#pragma omp parallel num_threads(nth)
        {
            int64_t s, e;
            double sum = 0;
            pmx_share(n, omp_get_thread_num(), omp_get_num_threads(), &s, &e);
            for (int64_t i = s; i < e; i++) sum += cross_entropy_row(d, i, label_at(d, i));
            partial[omp_get_thread_num()] = sum;
        }
        for (int t = 0; t < nth; t++) total += partial[t];
    }
    *PMX_PTR(d, 8, float) = (float) (total / (double) n);
    return 0;
}
