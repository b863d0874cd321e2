/*
 * Matrix products, batched, through OpenBLAS's sgemm (row-major). OpenBLAS is held at one thread
 * (threads.c); parallelism is this library's own OpenMP team, split/combine style: each thread
 * multiplies a disjoint share of the batch, or of C's rows when the batch is smaller than the team,
 * so no two threads write the same element and the pools never compete.
 *
 * Descriptor: 0 batch   1 M   2 N   3 K   4 transA   5 transB   6 lda   7 ldb   8 ldc   9 A   10 B   11 C
 *   12 A batch stride   13 B batch stride   14 C batch stride (elements; 0 broadcasts)
 *   15 alpha (double)   16 beta (double)
 *   C[b] = alpha * op(A[b]) op(B[b]) + beta * C[b]
 */
#include "pmx_tensor.h"
#include <omp.h>

enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };
extern void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha, const float *a, int lda,
                        const float *b, int ldb, float beta, float *c, int ldc);

/* Inner dimensions up to this size skip sgemm (see small_k_rows). */
#define SMALL_K 4
#define SMALL_K_COLUMNS 2048

/*
 * Rows m0..m1 of C for an inner dimension of at most SMALL_K (a layer fed 2-D points, a 3-class
 * output layer's backward): sgemm packs both operands and runs a kernel shaped for long inner
 * dimensions, about 4x slower here than one pass that writes each row of C as a combination of
 * k rows of op(B), gathered once into a contiguous block.
 */
__attribute__((target_clones("avx2", "default")))
static void small_k_rows(int64_t m0, int64_t m1, int64_t n, int64_t k, int ta, int tb, float alpha, float beta,
                         const float *a, int64_t lda, const float *bm, int64_t ldb, float *c, int64_t ldc) {
    float rows[SMALL_K * SMALL_K_COLUMNS];
    for (int64_t q = 0; q < k; q++)
        for (int64_t j = 0; j < n; j++) rows[q * n + j] = tb ? bm[j * ldb + q] : bm[q * ldb + j];
    float w[SMALL_K] = {0};
    const float *r0 = rows, *r1 = rows + n, *r2 = rows + 2 * n, *r3 = rows + 3 * n;
    for (int64_t i = m0; i < m1; i++) {
        for (int64_t q = 0; q < k; q++) w[q] = alpha * (ta ? a[q * lda + i] : a[i * lda + q]);
        float *restrict ci = c + i * ldc;
        float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
        if (beta == 0.0f) {
            switch (k) {
                case 1: for (int64_t j = 0; j < n; j++) ci[j] = w0 * r0[j]; break;
                case 2: for (int64_t j = 0; j < n; j++) ci[j] = w0 * r0[j] + w1 * r1[j]; break;
                case 3: for (int64_t j = 0; j < n; j++) ci[j] = w0 * r0[j] + w1 * r1[j] + w2 * r2[j]; break;
                default: for (int64_t j = 0; j < n; j++) ci[j] = w0 * r0[j] + w1 * r1[j] + w2 * r2[j] + w3 * r3[j]; break;
            }
        } else {
            switch (k) {
                case 1: for (int64_t j = 0; j < n; j++) ci[j] = beta * ci[j] + w0 * r0[j]; break;
                case 2: for (int64_t j = 0; j < n; j++) ci[j] = beta * ci[j] + (w0 * r0[j] + w1 * r1[j]); break;
                case 3: for (int64_t j = 0; j < n; j++) ci[j] = beta * ci[j] + (w0 * r0[j] + w1 * r1[j] + w2 * r2[j]); break;
                default:
                    for (int64_t j = 0; j < n; j++) ci[j] = beta * ci[j] + (w0 * r0[j] + w1 * r1[j] + w2 * r2[j] + w3 * r3[j]);
                    break;
            }
        }
    }
}

static void gemm_rows(const int64_t *d, int64_t b, int64_t m0, int64_t m1) {
    int64_t n = d[2], k = d[3], lda = d[6], ldb = d[7], ldc = d[8];
    int ta = d[4] != 0, tb = d[5] != 0;
    const float *a = PMX_PTR(d, 9, const float) + b * d[12];
    const float *bm = PMX_PTR(d, 10, const float) + b * d[13];
    float *c = PMX_PTR(d, 11, float) + b * d[14];
    if (m1 <= m0) return;
    if (k >= 1 && k <= SMALL_K && n <= SMALL_K_COLUMNS) {
        small_k_rows(m0, m1, n, k, ta, tb, (float) pmx_word_double(d, 15), (float) pmx_word_double(d, 16), a, lda, bm, ldb, c, ldc);
        return;
    }
    /* rows m0.. of op(A): rows of A, or columns of a transposed A */
    const float *a0 = ta ? a + m0 : a + m0 * lda;
    cblas_sgemm(CBLAS_ROW_MAJOR, ta ? CBLAS_TRANS : CBLAS_NO_TRANS, tb ? CBLAS_TRANS : CBLAS_NO_TRANS, (int) (m1 - m0),
                (int) n, (int) k, (float) pmx_word_double(d, 15), a0, (int) lda, bm, (int) ldb,
                (float) pmx_word_double(d, 16), c + m0 * ldc, (int) ldc);
}

PMX_KERNEL(matmul) {
    int64_t batch = d[0], m = d[1], n = d[2], k = d[3];
    if (batch <= 0 || m <= 0 || n <= 0) return 0;
    int nth = pmx_threads_for(batch * m * n * (k > 0 ? k : 1), PMX_GRAIN_MAC);
    if (nth == 1) {
        for (int64_t b = 0; b < batch; b++) gemm_rows(d, b, 0, m);
        return 0;
    }
#pragma omp parallel num_threads(nth)
    {
        int ith = omp_get_thread_num(), parts = omp_get_num_threads();
        int64_t s, e;
        if (batch >= parts) {
            pmx_share(batch, ith, parts, &s, &e);
            for (int64_t b = s; b < e; b++) gemm_rows(d, b, 0, m);
        } else {
            pmx_share(m, ith, parts, &s, &e);
            for (int64_t b = 0; b < batch; b++) gemm_rows(d, b, s, e);
        }
    }
    return 0;
}
