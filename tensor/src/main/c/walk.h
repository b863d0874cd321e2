#ifndef PMX_WALK_H
#define PMX_WALK_H
/*
 * Walking a strided index space row by row: elements [start, end) of the flattened (row-major)
 * index space of `shape`, cut into runs along the last dimension, each handed to `row` with the
 * element offset of every operand at the run's first element. Threads walk disjoint [start, end)
 * shares, so a run may start or end in the middle of a row.
 */
#include "pmx_tensor.h"

typedef void (*pmx_row_fn)(const int64_t *d, int64_t first, int64_t len, const int64_t *offsets);

/* strides: nops arrays of nd strides, back to back (operand k's stride of dim j at [k * nd + j]) */
static inline void pmx_walk(const int64_t *d, const int64_t *shape, int nd, const int64_t *strides, int nops,
                            int64_t start, int64_t end, pmx_row_fn row) {
    int64_t idx[PMX_MAX_DIMS];
    int64_t off[4];
    int64_t rem = start;
    for (int k = nd - 1; k >= 0; k--) {
        idx[k] = rem % shape[k];
        rem /= shape[k];
    }
    int64_t pos = start;
    while (pos < end) {
        for (int o = 0; o < nops; o++) {
            int64_t v = 0;
            for (int k = 0; k < nd; k++) v += idx[k] * strides[o * nd + k];
            off[o] = v;
        }
        int64_t len = shape[nd - 1] - idx[nd - 1];
        if (len > end - pos) len = end - pos;
        row(d, pos, len, off);
        pos += len;
        idx[nd - 1] += len;
        for (int k = nd - 1; k > 0 && idx[k] >= shape[k]; k--) {
            idx[k] = 0;
            idx[k - 1]++;
        }
    }
}

/* Element size of a dtype code. */
static inline int64_t pmx_dtype_size(int64_t dtype) {
    switch (dtype) {
        case PMX_I64: return 8;
        case PMX_F16: return 2;
        default: return 4;
    }
}

#endif
