/*
 * exp and tanh for f32 as branch-free inline code that gcc vectorizes inside the contiguous loops
 * (glibc's expf and tanhf are calls, one element at a time). Cephes' range reduction and
 * polynomials: a few ulp from the correctly rounded value over the whole range, NaN and the
 * infinities as C's (exp(-inf) = 0, exp(inf) = inf, tanh(+-inf) = +-1), results that would be
 * subnormal kept as such.
 */
#ifndef PMX_VMATH_H
#define PMX_VMATH_H

#include <stdint.h>

typedef union { float f; int32_t i; } pmx_bits;

/* 2^n for an integer n in [-126, 127], built in the exponent field. */
static inline float pmx_pow2i(int32_t n) {
    pmx_bits b;
    b.i = (n + 127) << 23;
    return b.f;
}

static inline float pmx_expf(float x) {
    /* beyond [-104, 89] the result is 0 or inf anyway; NaN compares false and passes through */
    float xc = x < -104.0f ? -104.0f : x;
    xc = xc > 89.0f ? 89.0f : xc;
    /* n = round(x / ln 2) by the 1.5 * 2^23 trick: exact for |n| < 2^22, vectorizes without SSE4.1 */
    const float shifter = 12582912.0f;
    pmx_bits t;
    t.f = xc * 1.44269504088896341f + shifter;
    float n = t.f - shifter;
    int32_t ni = t.i - 0x4B400000;
    float r = xc - n * 0.693359375f + n * 2.12194440e-4f; /* ln 2 in two parts: r exact */
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    float y = p * r * r + r + 1.0f;
    /* 2^n in two factors, so that n from -150 to 128 (subnormal results, overflow to inf) needs no branch */
    int32_t half = ni >> 1;
    return y * pmx_pow2i(half) * pmx_pow2i(ni - half);
}

static inline float pmx_tanhf(float x) {
    float ax = x < 0.0f ? -x : x;
    /* |x| < 0.625: odd polynomial (no cancellation near 0) */
    float z = x * x;
    float p = -5.70498872745e-3f;
    p = p * z + 2.06390887954e-2f;
    p = p * z - 5.37397155531e-2f;
    p = p * z + 1.33314422036e-1f;
    p = p * z - 3.33332819422e-1f;
    float small = p * z * x + x;
    /* otherwise 1 - 2 / (exp(2|x|) + 1), the sign put back; exp overflowing to inf gives exactly 1 */
    float large = 1.0f - 2.0f / (pmx_expf(2.0f * ax) + 1.0f);
    large = x < 0.0f ? -large : large;
    return ax < 0.625f ? small : large;
}

#endif
