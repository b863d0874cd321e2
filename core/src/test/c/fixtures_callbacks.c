/* Callbacks into Java: from the calling thread, and from pthreads created here. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef int32_t (*pmxf_int_fn)(int32_t);
typedef void (*pmxf_completion_fn)(void *user_data, int64_t value);

/* sum of f(i) for i in [0, n): the caller's thread calls back n times */
int64_t pmxf_apply_n(pmxf_int_fn f, int32_t n) {
    int64_t s = 0;
    for (int32_t i = 0; i < n; i++) s += f(i);
    return s;
}

void pmxf_complete(pmxf_completion_fn cb, void *user_data, int64_t value) { cb(user_data, value); }

struct pmxf_job { pmxf_completion_fn cb; void *user_data; int64_t first; int32_t calls; };

static void *pmxf_job_run(void *arg) {
    struct pmxf_job *job = arg;
    for (int32_t i = 0; i < job->calls; i++) job->cb(job->user_data, job->first + i);
    return NULL;
}

/* `threads` new pthreads, thread t calling cb(user_data, t * calls + i) for i in [0, calls); all joined.
   Returns 0, or -1 when a thread could not be created. */
int32_t pmxf_run_threads(int32_t threads, int32_t calls, pmxf_completion_fn cb, void *user_data) {
    pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
    struct pmxf_job *jobs = calloc((size_t)threads, sizeof(struct pmxf_job));
    int32_t started = 0, rc = 0;
    for (int32_t t = 0; t < threads; t++) {
        jobs[t] = (struct pmxf_job){ cb, user_data, (int64_t)t * calls, calls };
        if (pthread_create(&ids[t], NULL, pmxf_job_run, &jobs[t]) != 0) { rc = -1; break; }
        started++;
    }
    for (int32_t t = 0; t < started; t++) pthread_join(ids[t], NULL);
    free(ids);
    free(jobs);
    return rc;
}

/* Threads that call cb(user_data, i) in a loop until stopped: for unregistering while native threads call. */
#define PMXF_MAX_HAMMERS 16
static pthread_t hammer_ids[PMXF_MAX_HAMMERS];
static int64_t hammer_counts[PMXF_MAX_HAMMERS];
static int32_t hammer_threads;
static volatile int32_t hammer_stop;
static struct pmxf_job hammer_jobs[PMXF_MAX_HAMMERS];

static void *pmxf_hammer_run(void *arg) {
    struct pmxf_job *job = arg;
    int64_t n = 0;
    while (!__atomic_load_n(&hammer_stop, __ATOMIC_ACQUIRE)) job->cb(job->user_data, n++);
    hammer_counts[job->first] = n;
    return NULL;
}

int32_t pmxf_hammer_start(int32_t threads, pmxf_completion_fn cb, void *user_data) {
    if (threads > PMXF_MAX_HAMMERS) threads = PMXF_MAX_HAMMERS;
    __atomic_store_n(&hammer_stop, 0, __ATOMIC_RELEASE);
    hammer_threads = 0;
    for (int32_t t = 0; t < threads; t++) {
        hammer_jobs[t] = (struct pmxf_job){ cb, user_data, t, 0 };
        hammer_counts[t] = 0;
        if (pthread_create(&hammer_ids[t], NULL, pmxf_hammer_run, &hammer_jobs[t]) != 0) break;
        hammer_threads++;
    }
    return hammer_threads;
}

/* Stops and joins the hammer threads; returns how many callbacks they made in total. */
int64_t pmxf_hammer_stop(void) {
    __atomic_store_n(&hammer_stop, 1, __ATOMIC_RELEASE);
    int64_t total = 0;
    for (int32_t t = 0; t < hammer_threads; t++) {
        pthread_join(hammer_ids[t], NULL);
        total += hammer_counts[t];
    }
    hammer_threads = 0;
    return total;
}
