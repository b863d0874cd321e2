/*
 * Bulk IEEE binary32 <-> binary16 conversion for dev.panamax.core.fp16.
 *
 * Results are bit-identical to the x86 F16C instructions (and to HotSpot's Float.floatToFloat16 /
 * float16ToFloat, which use them): round to nearest even, -0, +-Inf and subnormals kept, a NaN
 * stays a NaN of the same sign, its payload truncated to the top bits and its quiet bit set.
 *
 * The F16C path is chosen at run time; the portable path is plain bit manipulation. Optional
 * non-temporal (streaming) stores skip the read-for-ownership of destination lines, which is
 * what lets a conversion of a buffer far larger than the caches beat a plain copy. Optional
 * threads split the range into contiguous parts, each converted by its own pthread; the call
 * returns when all parts are done, so the caller's memory is never touched after it returns.
 */
#include "pmx_export.h"
#include <immintrin.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* Flag bits of the conversion calls; kept in step with dev.panamax.core.fp16.Fp16Native. */
enum { PMX_FP16_STREAM = 1, PMX_FP16_PORTABLE = 2 };
enum { PMX_FP16_MAX_THREADS = 64 };

/* ------------------------------------------------------------------ portable scalar */

static uint16_t half_from_bits(uint32_t x) {
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t abs = x & 0x7fffffffu;
    if (abs > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((abs >> 13) & 0x3ffu)); /* NaN, quieted */
    if (abs >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);   /* >= 65520 (max half + 1/2 ulp), Inf */
    if (abs >= 0x38800000u) {                                     /* >= 2^-14: normal half */
        uint32_t m = abs - (112u << 23);                          /* rebias exponent 127 -> 15 */
        m += 0xfffu + ((m >> 13) & 1u);                           /* round to nearest even at bit 13 */
        return (uint16_t)(sign | (m >> 13));
    }
    if (abs <= 0x33000000u) return (uint16_t)sign;                /* <= 2^-25: ties to even zero */
    uint32_t e = abs >> 23;                                       /* 102..112: subnormal half */
    uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - e;                                    /* 14..24 */
    uint32_t q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (q & 1u))) q++;      /* may carry into the smallest normal */
    return (uint16_t)(sign | q);
}

static uint32_t bits_from_half(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    if (e == 0x1fu) return sign | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0u); /* Inf, quiet NaN */
    if (e != 0) return sign | ((e + 112u) << 23) | (m << 13);
    if (m == 0) return sign;
    uint32_t s = (uint32_t)__builtin_clz(m) - 21u;               /* moves the leading 1 to bit 10 */
    return sign | ((113u - s) << 23) | (((m << s) & 0x3ffu) << 13);
}

static void from_f32_portable(const float *src, uint16_t *dst, size_t n) {
    const uint32_t *s = (const uint32_t *)src;
    for (size_t i = 0; i < n; i++) dst[i] = half_from_bits(s[i]);
}

static void to_f32_portable(const uint16_t *src, float *dst, size_t n) {
    uint32_t *d = (uint32_t *)dst;
    for (size_t i = 0; i < n; i++) d[i] = bits_from_half(src[i]);
}

/* ------------------------------------------------------------------ F16C */

#define RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

__attribute__((target("avx,f16c")))
static void from_f32_f16c(const float *src, uint16_t *dst, size_t n, int stream) {
    size_t i = 0;
    if (stream && ((uintptr_t)dst & 1u) == 0) {
        for (; i < n && ((uintptr_t)(dst + i) & 15u); i++) dst[i] = _cvtss_sh(src[i], RNE);
        for (; i + 32 <= n; i += 32) {
            __m128i a = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), RNE);
            __m128i b = _mm256_cvtps_ph(_mm256_loadu_ps(src + i + 8), RNE);
            __m128i c = _mm256_cvtps_ph(_mm256_loadu_ps(src + i + 16), RNE);
            __m128i d = _mm256_cvtps_ph(_mm256_loadu_ps(src + i + 24), RNE);
            _mm_stream_si128((__m128i *)(dst + i), a);
            _mm_stream_si128((__m128i *)(dst + i + 8), b);
            _mm_stream_si128((__m128i *)(dst + i + 16), c);
            _mm_stream_si128((__m128i *)(dst + i + 24), d);
        }
        for (; i + 8 <= n; i += 8) _mm_stream_si128((__m128i *)(dst + i), _mm256_cvtps_ph(_mm256_loadu_ps(src + i), RNE));
        _mm_sfence();
    } else {
        for (; i + 32 <= n; i += 32) {
            __m128i a = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), RNE);
            __m128i b = _mm256_cvtps_ph(_mm256_loadu_ps(src + i + 8), RNE);
            __m128i c = _mm256_cvtps_ph(_mm256_loadu_ps(src + i + 16), RNE);
            __m128i d = _mm256_cvtps_ph(_mm256_loadu_ps(src + i + 24), RNE);
            _mm_storeu_si128((__m128i *)(dst + i), a);
            _mm_storeu_si128((__m128i *)(dst + i + 8), b);
            _mm_storeu_si128((__m128i *)(dst + i + 16), c);
            _mm_storeu_si128((__m128i *)(dst + i + 24), d);
        }
        for (; i + 8 <= n; i += 8) _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(_mm256_loadu_ps(src + i), RNE));
    }
    for (; i < n; i++) dst[i] = _cvtss_sh(src[i], RNE);
}

__attribute__((target("avx,f16c")))
static void to_f32_f16c(const uint16_t *src, float *dst, size_t n, int stream) {
    size_t i = 0;
    if (stream && ((uintptr_t)dst & 3u) == 0) {
        for (; i < n && ((uintptr_t)(dst + i) & 31u); i++) dst[i] = _cvtsh_ss(src[i]);
        for (; i + 32 <= n; i += 32) {
            __m256 a = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i)));
            __m256 b = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i + 8)));
            __m256 c = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i + 16)));
            __m256 d = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i + 24)));
            _mm256_stream_ps(dst + i, a);
            _mm256_stream_ps(dst + i + 8, b);
            _mm256_stream_ps(dst + i + 16, c);
            _mm256_stream_ps(dst + i + 24, d);
        }
        for (; i + 8 <= n; i += 8) _mm256_stream_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
        _mm_sfence();
    } else {
        for (; i + 32 <= n; i += 32) {
            __m256 a = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i)));
            __m256 b = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i + 8)));
            __m256 c = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i + 16)));
            __m256 d = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i + 24)));
            _mm256_storeu_ps(dst + i, a);
            _mm256_storeu_ps(dst + i + 8, b);
            _mm256_storeu_ps(dst + i + 16, c);
            _mm256_storeu_ps(dst + i + 24, d);
        }
        for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
    }
    for (; i < n; i++) dst[i] = _cvtsh_ss(src[i]);
}

/* ------------------------------------------------------------------ dispatch */

static int has_f16c(void) {
    static int cached = -1;             /* every thread that races here computes the same value */
    int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
        __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
    }
    return value;
}

typedef struct {
    const void *src;
    void *dst;
    size_t n;
    int flags;
    int to_f32;
} part;

static void run_part(const part *p) {
    int portable = (p->flags & PMX_FP16_PORTABLE) || !has_f16c();
    int stream = p->flags & PMX_FP16_STREAM;
    if (p->to_f32) {
        if (portable) to_f32_portable(p->src, p->dst, p->n);
        else to_f32_f16c(p->src, p->dst, p->n, stream);
    } else {
        if (portable) from_f32_portable(p->src, p->dst, p->n);
        else from_f32_f16c(p->src, p->dst, p->n, stream);
    }
}

static void *run_part_thread(void *arg) {
    run_part(arg);
    return NULL;
}

/* Splits [0, n) into `threads` contiguous parts (multiples of 64 elements, so no two threads write
 * the same cache line), runs parts 1.. on new threads and part 0 here, and joins them all. A part
 * whose thread cannot be created runs here instead. */
static void convert(const void *src, void *dst, size_t n, int flags, int threads, int to_f32) {
    size_t src_size = to_f32 ? 2 : 4, dst_size = to_f32 ? 4 : 2;
    if (threads < 1) threads = 1;
    if (threads > PMX_FP16_MAX_THREADS) threads = PMX_FP16_MAX_THREADS;
    size_t chunk = ((n / (size_t)threads) + 63u) & ~(size_t)63u;
    if (threads == 1 || chunk == 0 || chunk >= n) {
        part p = { src, dst, n, flags, to_f32 };
        run_part(&p);
        return;
    }
    part parts[PMX_FP16_MAX_THREADS];
    pthread_t tids[PMX_FP16_MAX_THREADS];
    int started[PMX_FP16_MAX_THREADS] = { 0 };
    int count = 0;
    for (size_t start = 0; start < n && count < threads; start += chunk, count++) {
        size_t len = (count == threads - 1 || n - start < chunk) ? n - start : chunk;
        parts[count] = (part){ (const char *)src + start * src_size, (char *)dst + start * dst_size, len, flags, to_f32 };
    }
    for (int t = 1; t < count; t++) started[t] = pthread_create(&tids[t], NULL, run_part_thread, &parts[t]) == 0;
    run_part(&parts[0]);
    for (int t = 1; t < count; t++) {
        if (started[t]) pthread_join(tids[t], NULL);
        else run_part(&parts[t]);
    }
}

/* n floats at src -> n halves at dst. flags: PMX_FP16_STREAM, PMX_FP16_PORTABLE. threads >= 1. */
PMX_EXPORT void pmx_fp16_from_f32(const float *src, uint16_t *dst, size_t n, int32_t flags, int32_t threads) {
    convert(src, dst, n, flags, threads, 0);
}

/* n halves at src -> n floats at dst. flags: PMX_FP16_STREAM, PMX_FP16_PORTABLE. threads >= 1. */
PMX_EXPORT void pmx_fp16_to_f32(const uint16_t *src, float *dst, size_t n, int32_t flags, int32_t threads) {
    convert(src, dst, n, flags, threads, 1);
}

/* The kernel the conversions use on this CPU: 1 = F16C, 0 = portable. */
PMX_EXPORT int32_t pmx_fp16_kernel(void) { return has_f16c(); }
