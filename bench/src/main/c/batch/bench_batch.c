/* The batch suite's trivial function. Including the generated header checks it against its declaration. */
#include "pmx_thunks_bench_batch.h"

int32_t pmxb_inc(int32_t x) { return x + 1; }
