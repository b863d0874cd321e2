#ifndef PMX_TENSOR_H
#define PMX_TENSOR_H
/*
 * The cpu tensor backend's kernels. Every kernel takes one argument, a descriptor: an array of
 * 8-byte words (integers, pointers, doubles) whose layout each kernel file documents and
 * dev.panamax.tensor.cpu.Descriptor mirrors. One pointer argument makes every kernel the MetaABI's
 * VOID_PTR shape: its thunk passes the batch entry's value cell straight through, so a recorded
 * kernel costs the batch runner one indirect call.
 *
 * A kernel returns 0, or a positive status the Java side turns into an exception (an index out of
 * range: 1 + its position).
 */
#include <stdint.h>
#include <stddef.h>

#define PMX_EXPORT __attribute__((visibility("default")))
#define PMX_MAX_DIMS 8

/*
 * Declares kernel NAME: the direct entry point pmx_t_NAME(void *) and its thunk
 * pmx_thunk_pmx_t_NAME(void *) for core's batch runner; the body is NAME##_run(const int64_t *d).
 */
#define PMX_KERNEL(NAME)                                                                    \
    static int64_t NAME##_run(const int64_t *d);                                           \
    PMX_EXPORT int64_t pmx_t_##NAME(void *d) { return NAME##_run((const int64_t *) d); }   \
    PMX_EXPORT void *pmx_thunk_pmx_t_##NAME(void *d) {                                     \
        return (void *) (intptr_t) NAME##_run((const int64_t *) d);                        \
    }                                                                                      \
    static int64_t NAME##_run(const int64_t *d)

/* Descriptor words. */
static inline double pmx_word_double(const int64_t *d, int i) {
    union { int64_t l; double v; } u = { .l = d[i] };
    return u.v;
}
#define PMX_PTR(d, i, T) ((T *) (intptr_t) (d)[i])

/* Dtype codes, as dev.panamax.tensor.cpu.Descriptor numbers them. */
enum { PMX_F32 = 0, PMX_I32 = 1, PMX_I64 = 2, PMX_F16 = 3 };

/*
 * Threads: the budget (pmx_t_set_threads), and how many of them a job deserves. A job of `work`
 * units gets one thread per whole `grain` of units, at most the budget, and a team only from two
 * grains up: min(budget, work / grain), or 1 below 2 * grain. A grain is about 50 us of one core's
 * work, so that a thread is woken only for work that outweighs waking it, even on a loaded machine
 * where a woken thread may wait for a core (PyTorch's at::parallel_for uses 32768 elements for every
 * op; ours are sized per op kind from what an element costs):
 */
#define PMX_GRAIN_STREAM (1 << 17)       /* elements of a cheap elementwise op, a copy, a sum (~0.4 ns each) */
#define PMX_GRAIN_TRANSCENDENTAL (1 << 14) /* elements of exp, log, tanh, erf, pow, ... (~3 ns each) */
#define PMX_GRAIN_ADAM (1 << 16)         /* parameters of an Adam update (3 reads, 3 writes, a sqrt, a divide) */
#define PMX_GRAIN_SOFTMAX (1 << 14)      /* logits of a cross-entropy (an exp each) */
#define PMX_GRAIN_GATHER (1 << 17)       /* elements moved by an index_select or index_add */
#define PMX_GRAIN_MAC (1 << 24)          /* multiply-adds of a product (~0.025 ns each in sgemm; a team costs
                                            sgemm its packing again per thread, so ~0.4 ms: a 256^3 product
                                            stays on one thread, a 1024x784x1024 one takes 49 grains) */

int pmx_threads_for(int64_t work, int64_t grain);

/* Work on units [start, end) of a descriptor's job. */
typedef void (*pmx_range_fn)(const int64_t *d, int64_t start, int64_t end);

/* Runs fn over [0, n): directly when nth is 1, else on an OpenMP team of nth threads, each its share. */
void pmx_parallel(const int64_t *d, int64_t n, int nth, pmx_range_fn fn);

/* [start, end) of part ith of nth over n units: ggml's (ith, nth) share. */
static inline void pmx_share(int64_t n, int ith, int nth, int64_t *start, int64_t *end) {
    *start = n * ith / nth;
    *end = n * (ith + 1) / nth;
}

#endif
