/* Targets of the call benchmarks: the same work reached through raw FFM, Panamax, JNA and JNI. */
#include <jni.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ plain C (FFM, Panamax, JNA) */

void bench_nop(void) {}

int64_t bench_add3(int64_t a, int64_t b, int64_t c) { return a + b + c; }

/* 16 independent partial sums in four SSE registers (baseline x86-64), so the loop runs at memory
   speed instead of waiting on one dependency chain of additions */
typedef float v4sf __attribute__((vector_size(16)));

float bench_sum_f32(const float *a, int64_t n) {
    v4sf s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v4sf x0, x1, x2, x3;
        memcpy(&x0, a + i, 16);
        memcpy(&x1, a + i + 4, 16);
        memcpy(&x2, a + i + 8, 16);
        memcpy(&x3, a + i + 12, 16);
        s0 += x0; s1 += x1; s2 += x2; s3 += x3;
    }
    v4sf s = (s0 + s1) + (s2 + s3);
    float total = (s[0] + s[1]) + (s[2] + s[3]);
    for (; i < n; i++) total += a[i];
    return total;
}

typedef void (*bench_cb)(void *user_data, int64_t value);

/* n upcalls from the calling thread */
void bench_upcall_n(bench_cb cb, void *user_data, int32_t n) {
    for (int32_t i = 0; i < n; i++) cb(user_data, i);
}

/* ------------------------------------------------------------------ a long-lived native worker thread */

static pthread_t worker;
static pthread_mutex_t worker_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t worker_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t worker_done = PTHREAD_COND_INITIALIZER;
static int worker_running, worker_has_job, worker_quit;
static bench_cb job_cb;
static void *job_user_data;
static int32_t job_n;

static void *worker_main(void *unused) {
    pthread_mutex_lock(&worker_lock);
    for (;;) {
        while (!worker_has_job && !worker_quit) pthread_cond_wait(&worker_wake, &worker_lock);
        if (worker_quit) break;
        pthread_mutex_unlock(&worker_lock);
        for (int32_t i = 0; i < job_n; i++) job_cb(job_user_data, i);
        pthread_mutex_lock(&worker_lock);
        worker_has_job = 0;
        pthread_cond_signal(&worker_done);
    }
    pthread_mutex_unlock(&worker_lock);
    return NULL;
}

int32_t bench_worker_start(void) {
    if (worker_running) return 0;
    worker_quit = 0;
    if (pthread_create(&worker, NULL, worker_main, NULL) != 0) return -1;
    worker_running = 1;
    return 0;
}

/* the worker makes n upcalls; returns when it has finished */
void bench_worker_run(bench_cb cb, void *user_data, int32_t n) {
    pthread_mutex_lock(&worker_lock);
    job_cb = cb; job_user_data = user_data; job_n = n;
    worker_has_job = 1;
    pthread_cond_signal(&worker_wake);
    while (worker_has_job) pthread_cond_wait(&worker_done, &worker_lock);
    pthread_mutex_unlock(&worker_lock);
}

void bench_worker_stop(void) {
    if (!worker_running) return;
    pthread_mutex_lock(&worker_lock);
    worker_quit = 1;
    pthread_cond_signal(&worker_wake);
    pthread_mutex_unlock(&worker_lock);
    pthread_join(worker, NULL);
    worker_running = 0;
}

/* ------------------------------------------------------------------ first upcall from a fresh pthread */

struct fresh_job { bench_cb cb; void *user_data; int32_t steady_calls; int64_t first_ns, second_ns, steady_ns; };

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void *fresh_main(void *arg) {
    struct fresh_job *j = arg;
    int64_t t0 = now_ns();
    j->cb(j->user_data, 0);
    int64_t t1 = now_ns();
    j->cb(j->user_data, 1);
    int64_t t2 = now_ns();
    for (int32_t i = 0; i < j->steady_calls; i++) j->cb(j->user_data, i);
    int64_t t3 = now_ns();
    j->first_ns = t1 - t0;
    j->second_ns = t2 - t1;
    j->steady_ns = t3 - t2;
    return NULL;
}

/* a new pthread makes upcalls: out[0] = first call ns, out[1] = second call ns, out[2] = ns for steady_calls more */
int32_t bench_fresh_thread_upcalls(bench_cb cb, void *user_data, int32_t steady_calls, int64_t *out) {
    struct fresh_job j = { cb, user_data, steady_calls, 0, 0, 0 };
    pthread_t t;
    if (pthread_create(&t, NULL, fresh_main, &j) != 0) return -1;
    pthread_join(t, NULL);
    out[0] = j.first_ns;
    out[1] = j.second_ns;
    out[2] = j.steady_ns;
    return 0;
}

/* ------------------------------------------------------------------ JNI (dev.panamax.bench.calls.JniCalls) */

JNIEXPORT void JNICALL Java_dev_panamax_bench_calls_JniCalls_nop(JNIEnv *env, jclass cls) {}

JNIEXPORT jlong JNICALL Java_dev_panamax_bench_calls_JniCalls_add3(JNIEnv *env, jclass cls, jlong a, jlong b, jlong c) {
    return a + b + c;
}

JNIEXPORT jfloat JNICALL Java_dev_panamax_bench_calls_JniCalls_sumCritical(JNIEnv *env, jclass cls, jfloatArray array, jint n) {
    float *p = (*env)->GetPrimitiveArrayCritical(env, array, NULL);
    float s = bench_sum_f32(p, n);
    (*env)->ReleasePrimitiveArrayCritical(env, array, p, JNI_ABORT);
    return s;
}

/* n calls of the static Java method JniCalls.callback(long) */
JNIEXPORT void JNICALL Java_dev_panamax_bench_calls_JniCalls_upcallN(JNIEnv *env, jclass cls, jint n) {
    static jmethodID callback;
    if (!callback) callback = (*env)->GetStaticMethodID(env, cls, "callback", "(J)V");
    for (jint i = 0; i < n; i++) (*env)->CallStaticVoidMethod(env, cls, callback, (jlong)i);
}

/* ------------------------------------------------------------------ a null OpenCL driver */

/* Every entry of the null driver's dispatch table (bench/opencl NullDriver): whatever the OpenCL
   function and its arguments, CL_SUCCESS and nothing else. */
int32_t bench_cl_success(void) { return 0; }
