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

PMX_KERNEL(index) {
    int op = (int) d[0];
    int64_t outer = d[1], v = d[2], inner = d[3], n = d[6];
    for (int64_t i = 0; i < n; i++) {
        int64_t k = index_at(d, i);
        if (k < 0 || k >= v) return i + 1;
    }
    char *table = PMX_PTR(d, 7, char), *gathered = PMX_PTR(d, 8, char);
    int nth = pmx_threads_for(outer * n * inner, PMX_GRAIN_GATHER);
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
