/*
 * The STREAM triad, a[i] = b[i] + s * c[i], split over `threads` pthreads in contiguous parts (the
 * static schedule of STREAM's OpenMP loop): the memory-bandwidth yardstick the compute suite reads
 * a device's SAXPY against, on as many threads as the device has compute units.
 */
#include <pthread.h>
#include <stddef.h>

#define PMX_EXPORT __attribute__((visibility("default")))

struct triad_part {
    float *a;
    const float *b;
    const float *c;
    float s;
    size_t from, to;
};

static void *triad_run(void *arg) {
    struct triad_part *p = arg;
    float *restrict a = p->a;
    const float *restrict b = p->b;
    const float *restrict c = p->c;
    const float s = p->s;
    for (size_t i = p->from; i < p->to; i++) a[i] = b[i] + s * c[i];
    return NULL;
}

/* Returns 0, or -1 when a thread could not be started (the triad is then finished on this thread). */
PMX_EXPORT int pmx_bench_stream_triad(float *a, const float *b, const float *c, float s, size_t n, int threads) {
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    pthread_t ids[64];
    struct triad_part parts[64];
    size_t chunk = (n + (size_t) threads - 1) / (size_t) threads;
    int started = 0, status = 0;
    for (int t = 0; t < threads; t++) {
        size_t from = (size_t) t * chunk, to = from + chunk;
        if (from > n) from = n;
        if (to > n) to = n;
        parts[t] = (struct triad_part) {a, b, c, s, from, to};
    }
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&ids[t], NULL, triad_run, &parts[t]) != 0) {
            status = -1;
            break;
        }
        started = t;
    }
    triad_run(&parts[0]);
    for (int t = started + 1; t < threads; t++) triad_run(&parts[t]);
    for (int t = 1; t <= started; t++) pthread_join(ids[t], NULL);
    return status;
}
