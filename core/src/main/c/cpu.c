#include "pmx_export.h"
#include <stdint.h>

/* Bits reported by pmx_cpu_features(); kept in step with dev.panamax.core.CpuFeatures. */
enum { PMX_CPU_SSE42 = 1, PMX_CPU_AVX = 2, PMX_CPU_AVX2 = 4, PMX_CPU_F16C = 8, PMX_CPU_FMA = 16, PMX_CPU_AVX512F = 32 };

PMX_EXPORT uint32_t pmx_cpu_features(void) {
    uint32_t f = 0;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.2"))  f |= PMX_CPU_SSE42;
    if (__builtin_cpu_supports("avx"))     f |= PMX_CPU_AVX;
    if (__builtin_cpu_supports("avx2"))    f |= PMX_CPU_AVX2;
    if (__builtin_cpu_supports("f16c"))    f |= PMX_CPU_F16C;
    if (__builtin_cpu_supports("fma"))     f |= PMX_CPU_FMA;
    if (__builtin_cpu_supports("avx512f")) f |= PMX_CPU_AVX512F;
#endif
    return f;
}

/* ABI version of libpanamax; the Java side refuses a library of another version. */
PMX_EXPORT uint32_t pmx_abi_version(void) { return 1; }
