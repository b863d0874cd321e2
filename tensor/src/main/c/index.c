/*
 * index_select (embedding lookup) along one axis and its adjoint, a scatter-add. The table is
 * contiguous [outer, V, inner]; the gathered side is contiguous [outer, n, inner].
 *
 * Descriptor: 0 op (0 select, 1 scatter-add)   1 outer   2 V   3 inner   4 index dtype (PMX_I32/PMX_I64)
 *   5 indices [n]   6 n   7 table   8 gathered   9 element size in bytes (select; scatter-add is f32)
 *   select:      gathered[o, i, :]  = table[o, idx[i], :]
 *   scatter-add: table[o, idx[i], :] += gathered[o, i, :]
 * Every index is checked before anything is written: one outside [0, V) is status 1 + its position.
 */
#include "pmx_tensor.h"
#include <omp.h>
#include <string.h>

static int64_t index_at(const int64_t *d, int64_t i) {
    return d[4] == PMX_I32 ? PMX_PTR(d, 5, const int32_t)[i] : PMX_PTR(d, 5, const int64_t)[i];
}

/* inner == 1: select copies 4-byte elements; scatter-add adds f32 (serially for the outer rows a thread owns) */
#define INDEX_ROWS_F(NAME, T)                                                                                   \
    static void NAME(int op, const T *idx, int64_t n, int64_t outer, int64_t v, char *table, char *gathered, int nth) { \
        if (op == 0) {                                                                                          \
            const int32_t *src = (const int32_t *) table;                                                       \
            int32_t *dst = (int32_t *) gathered;                                                                \
            _Pragma("omp parallel for num_threads(nth) schedule(static) if (nth > 1)")                          \
            for (int64_t o = 0; o < outer; o++)                                                                 \
                for (int64_t i = 0; i < n; i++) dst[o * n + i] = src[o * v + idx[i]];                          \
        } else {                                                                                                \
            float *dst = (float *) table;                                                                       \
            const float *src = (const float *) gathered;                                                        \
            _Pragma("omp parallel for num_threads(outer >= nth ? nth : 1) schedule(static) if (nth > 1)")       \
            for (int64_t o = 0; o < outer; o++)                                                                 \
                for (int64_t i = 0; i < n; i++) dst[o * v + idx[i]] += src[o * n + i];                         \
        }                                                                                                       \
    }
INDEX_ROWS_F(index_rows_i32, int32_t)
INDEX_ROWS_F(index_rows_i64, int64_t)
#undef INDEX_ROWS_F

PMX_KERNEL(index) {
    int op = (int) d[0];
    int64_t outer = d[1], v = d[2], inner = d[3], n = d[6];
    for (int64_t i = 0; i < n; i++) {
        int64_t k = index_at(d, i);
        if (k < 0 || k >= v) return i + 1;
    }
    char *table = PMX_PTR(d, 7, char), *gathered = PMX_PTR(d, 8, char);
    int nth = pmx_threads_for(outer * n * inner, PMX_GRAIN_GATHER);
    if (inner == 1 && (op == 1 || d[9] == 4)) {
        /* one 4-byte element per index (an im2col's or a pool's windows): a plain loop, the index
           dtype chosen once, where a memcpy and a division per element cost several times the move */
        if (d[4] == PMX_I32) index_rows_i32(op, PMX_PTR(d, 5, const int32_t), n, outer, v, table, gathered, nth);
        else index_rows_i64(op, PMX_PTR(d, 5, const int64_t), n, outer, v, table, gathered, nth);
        return 0;
    }
    if (op == 0) {
        int64_t row = inner * d[9];
#pragma omp parallel for num_threads(nth) schedule(static) if (nth > 1)
        for (int64_t t = 0; t < outer * n; t++) {
            int64_t o = t / n, i = t % n;
            memcpy(gathered + t * row, table + (o * v + index_at(d, i)) * row, (size_t) row);
        }
        return 0;
    }
    /* scatter-add: threads own disjoint column ranges, so repeated indices never race */
    float *dst0 = (float *) table;
    const float *src0 = (const float *) gathered;
#pragma omp parallel num_threads(inner >= nth ? nth : 1)
    {
        int64_t j0, j1;
        pmx_share(inner, omp_get_thread_num(), omp_get_num_threads(), &j0, &j1);
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < n; i++) {
                float *dst = dst0 + (o * v + index_at(d, i)) * inner;
                const float *src = src0 + (o * n + i) * inner;
                for (int64_t j = j0; j < j1; j++) dst[j] += src[j];
            }
    }
    return 0;
}
