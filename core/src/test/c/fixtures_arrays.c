/* Array parameters of every Java primitive array type: read (in), written (out), updated (inout). */
#include <stdint.h>

#define ARRAY_FIXTURES(T, S)                                                                 \
    double pmxf_sum_##S(const T *a, int32_t n) {                                             \
        double s = 0; for (int32_t i = 0; i < n; i++) s += (double)a[i]; return s;          \
    }                                                                                        \
    void pmxf_fill_##S(T *a, int32_t n, int32_t start) {                                     \
        for (int32_t i = 0; i < n; i++) a[i] = (T)(start + i);                               \
    }                                                                                        \
    void pmxf_twice_##S(T *a, int32_t n) {                                                   \
        for (int32_t i = 0; i < n; i++) a[i] = (T)(a[i] * 2 + 1);                            \
    }

ARRAY_FIXTURES(int8_t, i8)
ARRAY_FIXTURES(int16_t, i16)
ARRAY_FIXTURES(uint16_t, u16)
ARRAY_FIXTURES(int32_t, i32)
ARRAY_FIXTURES(int64_t, i64)
ARRAY_FIXTURES(float, f32)
ARRAY_FIXTURES(double, f64)

/* two arrays and a result: dst[i] = src[i] * k; returns how many were written; NULL src writes nothing */
int32_t pmxf_scale_into_i32(int32_t *dst, const int32_t *src, int32_t n, int32_t k) {
    if (!src || !dst) return -1;
    for (int32_t i = 0; i < n; i++) dst[i] = src[i] * k;
    return n;
}

/* fills a[i] = i + 1, then fails with errno = e when e != 0 */
#include <errno.h>
int32_t pmxf_fill_then_fail_i32(int32_t *a, int32_t n, int32_t e) {
    for (int32_t i = 0; i < n; i++) a[i] = i + 1;
    if (e != 0) { errno = e; return -1; }
    return n;
}
