/*
 * The thread budget of the kernels. One number for the process: every OpenMP region of this library
 * uses at most pmx_budget threads, and OpenBLAS is held at one thread, because matmul runs it inside
 * the OpenMP team (each thread multiplies its own share of rows or batches), so the two pools never
 * compete for the same cores.
 */
#include "pmx_tensor.h"
#include <omp.h>

extern void openblas_set_num_threads(int);

static int pmx_budget = 1;

PMX_EXPORT void pmx_t_set_threads(int32_t n) {
    if (n < 1) n = 1;
    pmx_budget = n;
    omp_set_dynamic(0);
    openblas_set_num_threads(1);
}

PMX_EXPORT int32_t pmx_t_threads(void) { return pmx_budget; }

/* OpenMP's view, for tests: how many threads a region of this library runs with at full work. */
PMX_EXPORT int32_t pmx_t_team_size(void) {
    int n = 0;
    int nth = pmx_threads_for(INT64_MAX, 1);
#pragma omp parallel num_threads(nth)
    {
#pragma omp single
        n = omp_get_num_threads();
    }
    return n;
}

int pmx_threads_for(int64_t work, int64_t grain) {
    if (pmx_budget <= 1 || work < 2 * grain) return 1;
    int64_t parts = work / grain;
    return parts < pmx_budget ? (int) parts : pmx_budget;
}

void pmx_parallel(const int64_t *d, int64_t n, int nth, pmx_range_fn fn) {
    if (nth <= 1) {
        fn(d, 0, n);
        return;
    }
#pragma omp parallel num_threads(nth)
    {
        int64_t start, end;
        pmx_share(n, omp_get_thread_num(), omp_get_num_threads(), &start, &end);
        fn(d, start, end);
    }
}
