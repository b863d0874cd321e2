/*
 * Elementwise kernels over strided, broadcast operands (tinygrad's "elementwise" op kind): one
 * output and up to three inputs share a shape; each operand has its own element strides, a stride
 * of 0 broadcasting along that dimension. The Java side merges dimensions that are contiguous in
 * every operand first, so a plain add of two contiguous tensors arrives as one dimension and runs
 * the vectorized contiguous loop.
 *
 * Descriptor (8-byte words):
 *   0 op   1 ndim   2 n (elements)   3 dtype (COPY/FILL/ARANGE: the elements'; CAST: src | dst << 8;
 *   WHERE: the condition's; binary ops: PMX_I32 or PMX_I64 for integer operands, else 0 for f32)   4 out   5 in0   6 in1   7 in2   8 alpha (double)   9 beta (double)
 *   then, for ndim = nd: shape[nd], out strides[nd], in0 strides[nd], in1 strides[nd], in2 strides[nd]
 *   (from word 10; 10 + 5 nd words in all)
 *
 * Work is split over the flattened index range by OpenMP, each thread its (ith, nth) share.
 */
#include "pmx_tensor.h"
#include "walk.h"
#include "vmath.h"
#include <math.h>
#include <string.h>

enum {
    /* unary and nullary */
    OP_COPY = 0, OP_FILL = 1, OP_ARANGE = 2, OP_NEG = 3, OP_EXP = 4, OP_LOG = 5, OP_SQRT = 6,
    OP_RELU = 7, OP_GELU = 8, OP_GELU_TANH = 9, OP_SIGMOID = 10, OP_TANH = 11, OP_ABS = 12,
    OP_AFFINE = 13, OP_POW_SCALAR = 14, OP_RSQRT = 15, OP_RECIP = 16, OP_SQUARE = 17, OP_SIGN = 18,
    OP_CAST = 19, OP_STEP = 20, OP_GELU_TANH_GRAD = 21, OP_ERF = 22,
    /* binary */
    OP_ADD = 32, OP_SUB = 33, OP_MUL = 34, OP_DIV = 35, OP_POW = 36, OP_MAXIMUM = 37, OP_MINIMUM = 38,
    OP_GT = 39, OP_GE = 40, OP_LT = 41, OP_LE = 42, OP_EQ = 43, OP_NE = 44,
    OP_RELU_BWD = 45, OP_GELU_BWD = 46, OP_GELU_TANH_BWD = 47, OP_SIGMOID_BWD = 48, OP_TANH_BWD = 49,
    OP_AXPBY = 50,
    /* ternary */
    OP_WHERE = 64
};

#define SQRT_2_OVER_PI 0.7978845608028654f
#define INV_SQRT_2 0.7071067811865476f
#define INV_SQRT_2PI 0.3989422804014327f

static inline float sigmoidf(float x) {
    float e = pmx_expf(x >= 0 ? -x : x);
    return x >= 0 ? 1.0f / (1.0f + e) : e / (1.0f + e);
}

static inline float gelu_tanh_grad(float x) {
    float u = SQRT_2_OVER_PI * (x + 0.044715f * x * x * x);
    float t = pmx_tanhf(u);
    return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * SQRT_2_OVER_PI * (1.0f + 3.0f * 0.044715f * x * x);
}

/* The f32 unary ops: expression of a (and alpha, beta). */
#define UNARY_F32(X)                                                        \
    X(OP_NEG, -a)                                                           \
    X(OP_EXP, pmx_expf(a))                                                    \
    X(OP_LOG, logf(a))                                                      \
    X(OP_SQRT, sqrtf(a))                                                    \
    X(OP_RELU, (a > 0.0f || a != a) ? a : 0.0f)                             \
    X(OP_GELU, 0.5f * a * (1.0f + erff(a * INV_SQRT_2)))                    \
    X(OP_GELU_TANH, 0.5f * a * (1.0f + pmx_tanhf(SQRT_2_OVER_PI * (a + 0.044715f * a * a * a)))) \
    X(OP_SIGMOID, sigmoidf(a))                                              \
    X(OP_TANH, pmx_tanhf(a))                                                  \
    X(OP_ABS, fabsf(a))                                                     \
    X(OP_AFFINE, a * alpha + beta)                                          \
    X(OP_POW_SCALAR, powf(a, alpha))                                        \
    X(OP_RSQRT, 1.0f / sqrtf(a))                                            \
    X(OP_RECIP, 1.0f / a)                                                   \
    X(OP_SQUARE, a * a)                                                     \
    X(OP_SIGN, (float) ((a > 0.0f) - (a < 0.0f)))                           \
    X(OP_STEP, a > 0.0f ? 1.0f : 0.0f)                                      \
    X(OP_GELU_TANH_GRAD, gelu_tanh_grad(a))                                 \
    X(OP_ERF, erff(a))

/* The f32 binary ops: expression of a, b. */
#define BINARY_F32(X)                                                       \
    X(OP_ADD, a + b)                                                        \
    X(OP_SUB, a - b)                                                        \
    X(OP_MUL, a * b)                                                        \
    X(OP_DIV, a / b)                                                        \
    X(OP_POW, powf(a, b))                                                   \
    X(OP_MAXIMUM, (a != a || a > b || (a == b && !signbit(a))) ? a : b)     \
    X(OP_MINIMUM, (a != a || a < b || (a == b && signbit(a))) ? a : b)      \
    X(OP_GT, a > b ? 1.0f : 0.0f)                                           \
    X(OP_GE, a >= b ? 1.0f : 0.0f)                                          \
    X(OP_LT, a < b ? 1.0f : 0.0f)                                           \
    X(OP_LE, a <= b ? 1.0f : 0.0f)                                          \
    X(OP_EQ, a == b ? 1.0f : 0.0f)                                          \
    X(OP_NE, a != b ? 1.0f : 0.0f)                                          \
    X(OP_RELU_BWD, b > 0.0f ? a : 0.0f)                                     \
    X(OP_GELU_BWD, a * (0.5f * (1.0f + erff(b * INV_SQRT_2)) + b * INV_SQRT_2PI * expf(-0.5f * b * b))) \
    X(OP_GELU_TANH_BWD, a * gelu_tanh_grad(b))                              \
    X(OP_SIGMOID_BWD, a * b * (1.0f - b))                                   \
    X(OP_TANH_BWD, a * (1.0f - b * b))                                      \
    X(OP_AXPBY, alpha * a + beta * b)

/* One row: len elements at the given strides. The all-contiguous case gets loops gcc vectorizes,
 * compiled twice (AVX2 and baseline) and picked at load time by the CPU. */
__attribute__((target_clones("avx2", "default")))
static void unary_contiguous(int op, int64_t len, float *restrict o, const float *restrict x, float alpha, float beta) {
    switch (op) {
#define CASE(OP, EXPR) case OP: for (int64_t i = 0; i < len; i++) { float a = x[i]; o[i] = (EXPR); } break;
        UNARY_F32(CASE)
#undef CASE
    }
}

static void unary_strided(int op, int64_t len, float *o, int64_t so, const float *x, int64_t sx, float alpha, float beta) {
    switch (op) {
#define CASE(OP, EXPR) case OP: for (int64_t i = 0; i < len; i++) { float a = x[i * sx]; o[i * so] = (EXPR); } break;
        UNARY_F32(CASE)
#undef CASE
    }
}

__attribute__((target_clones("avx2", "default")))
static void binary_contiguous(int op, int64_t len, float *restrict o, const float *restrict x, const float *restrict y,
                              float alpha, float beta) {
    switch (op) {
#define CASE(OP, EXPR) case OP: for (int64_t i = 0; i < len; i++) { float a = x[i], b = y[i]; o[i] = (EXPR); } break;
        BINARY_F32(CASE)
#undef CASE
    }
}

__attribute__((target_clones("avx2", "default")))
static void binary_scalar_right(int op, int64_t len, float *restrict o, const float *restrict x, float b,
                                float alpha, float beta) {
    switch (op) {
#define CASE(OP, EXPR) case OP: for (int64_t i = 0; i < len; i++) { float a = x[i]; o[i] = (EXPR); } break;
        BINARY_F32(CASE)
#undef CASE
    }
}

static void binary_strided(int op, int64_t len, float *o, int64_t so, const float *x, int64_t sx, const float *y, int64_t sy,
                           float alpha, float beta) {
    switch (op) {
#define CASE(OP, EXPR) case OP: for (int64_t i = 0; i < len; i++) { float a = x[i * sx], b = y[i * sy]; o[i * so] = (EXPR); } break;
        BINARY_F32(CASE)
#undef CASE
    }
}

#define dtype_size pmx_dtype_size

static double load_as_double(const char *p, int64_t dtype) {
    switch (dtype) {
        case PMX_I32: return *(const int32_t *) p;
        case PMX_I64: return (double) *(const int64_t *) p;
        case PMX_F16: return (double) *(const _Float16 *) p;
        default: return *(const float *) p;
    }
}

/*
 * Floating to integer as Java's narrowing conversion: NaN becomes 0, values beyond the type's range
 * saturate at its bounds, the rest truncate toward zero (C leaves the first two undefined; the
 * reference backend's (int) and (long) casts are exactly this).
 */
static inline int32_t to_i32(double v) {
    if (v != v) return 0;
    if (v >= 2147483647.0) return INT32_MAX;
    if (v <= -2147483648.0) return INT32_MIN;
    return (int32_t) v;
}

static inline int64_t to_i64(double v) {
    if (v != v) return 0;
    if (v >= 9223372036854775808.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t) v;
}

static inline int is_integer(int64_t dtype) {
    return dtype == PMX_I32 || dtype == PMX_I64;
}

static inline int64_t load_integer(const char *p, int64_t dtype) {
    return dtype == PMX_I32 ? *(const int32_t *) p : *(const int64_t *) p;
}

/* Integer to integer keeps the low bits (two's complement wrap), as NumPy's astype does. */
static inline void store_integer(char *p, int64_t dtype, int64_t v) {
    if (dtype == PMX_I32) *(int32_t *) p = (int32_t) (uint32_t) (uint64_t) v;
    else *(int64_t *) p = v;
}

static void store_double(char *p, int64_t dtype, double v) {
    switch (dtype) {
        case PMX_I32: *(int32_t *) p = to_i32(v); break;
        case PMX_I64: *(int64_t *) p = to_i64(v); break;
        case PMX_F16: *(_Float16 *) p = (_Float16) (float) v; break;
        default: *(float *) p = (float) v; break;
    }
}

static void copy_row(int64_t len, int64_t size, char *o, int64_t so, const char *x, int64_t sx) {
    if (so == 1 && sx == 1) {
        memcpy(o, x, (size_t) (len * size));
        return;
    }
    switch (size) {
        case 8: for (int64_t i = 0; i < len; i++) ((int64_t *) o)[i * so] = ((const int64_t *) x)[i * sx]; break;
        case 2: for (int64_t i = 0; i < len; i++) ((int16_t *) o)[i * so] = ((const int16_t *) x)[i * sx]; break;
        default: for (int64_t i = 0; i < len; i++) ((int32_t *) o)[i * so] = ((const int32_t *) x)[i * sx]; break;
    }
}

/*
 * Integer binary ops (dtype word PMX_I32 or PMX_I64, every operand that dtype): add, subtract and
 * multiply wrap in two's complement (in unsigned arithmetic, where C's signed overflow is undefined;
 * Java's long and int arithmetic wrap the same way), max and min, and comparisons giving 1 or 0.
 * The frontend sends no other op on integers here (division and pow compute in a floating type).
 */
#define INTEGER_BINARY_F(NAME, T, U)                                                                      \
    static void NAME(int op, int64_t len, T *o, int64_t so, const T *x, int64_t sx, const T *y, int64_t sy) {  \
        switch (op) {                                                                                     \
        case OP_ADD: for (int64_t i = 0; i < len; i++) o[i * so] = (T) ((U) x[i * sx] + (U) y[i * sy]); break; \
        case OP_SUB: for (int64_t i = 0; i < len; i++) o[i * so] = (T) ((U) x[i * sx] - (U) y[i * sy]); break; \
        case OP_MUL: for (int64_t i = 0; i < len; i++) o[i * so] = (T) ((U) x[i * sx] * (U) y[i * sy]); break; \
        case OP_MAXIMUM: for (int64_t i = 0; i < len; i++) { T a = x[i * sx], b = y[i * sy]; o[i * so] = a > b ? a : b; } break; \
        case OP_MINIMUM: for (int64_t i = 0; i < len; i++) { T a = x[i * sx], b = y[i * sy]; o[i * so] = a < b ? a : b; } break; \
        case OP_GT: for (int64_t i = 0; i < len; i++) o[i * so] = x[i * sx] > y[i * sy]; break;          \
        case OP_GE: for (int64_t i = 0; i < len; i++) o[i * so] = x[i * sx] >= y[i * sy]; break;         \
        case OP_LT: for (int64_t i = 0; i < len; i++) o[i * so] = x[i * sx] < y[i * sy]; break;          \
        case OP_LE: for (int64_t i = 0; i < len; i++) o[i * so] = x[i * sx] <= y[i * sy]; break;         \
        case OP_EQ: for (int64_t i = 0; i < len; i++) o[i * so] = x[i * sx] == y[i * sy]; break;         \
        case OP_NE: for (int64_t i = 0; i < len; i++) o[i * so] = x[i * sx] != y[i * sy]; break;         \
        }                                                                                                 \
    }
INTEGER_BINARY_F(integer_binary_i64, int64_t, uint64_t)
INTEGER_BINARY_F(integer_binary_i32, int32_t, uint32_t)
#undef INTEGER_BINARY_F

/* One run of `len` elements starting at flattened index `first` (for ARANGE). */
static void run_row(const int64_t *d, int64_t first, int64_t len, const int64_t *off) {
    int op = (int) d[0];
    int nd = (int) d[1];
    int64_t dtype = d[3];
    double alpha = pmx_word_double(d, 8), beta = pmx_word_double(d, 9);
    const int64_t *st = d + 10 + nd;
    int64_t so = st[nd - 1], s0 = st[2 * nd - 1], s1 = st[3 * nd - 1], s2 = st[4 * nd - 1];
    int64_t oo = off[0], o0 = off[1], o1 = off[2], o2 = off[3];
    if (op == OP_COPY || op == OP_FILL || op == OP_ARANGE || op == OP_CAST) {
        int64_t src = op == OP_CAST ? (dtype & 0xff) : dtype;
        int64_t dst = op == OP_CAST ? (dtype >> 8) & 0xff : dtype;
        char *o = PMX_PTR(d, 4, char) + oo * dtype_size(dst);
        if (op == OP_COPY) {
            copy_row(len, dtype_size(dtype), o, so, PMX_PTR(d, 5, const char) + o0 * dtype_size(dtype), s0);
        } else if (op == OP_FILL) {
            if (dtype == PMX_F32) {
                float v = (float) alpha;
                for (int64_t i = 0; i < len; i++) ((float *) o)[i * so] = v;
            } else {
                for (int64_t i = 0; i < len; i++) store_double(o + i * so * dtype_size(dtype), dtype, alpha);
            }
        } else if (op == OP_ARANGE) {
            for (int64_t i = 0; i < len; i++) store_double(o + i * so * dtype_size(dtype), dtype, alpha + (double) (first + i) * beta);
        } else {
            const char *x = PMX_PTR(d, 5, const char) + o0 * dtype_size(src);
            if (is_integer(src) && is_integer(dst)) {
                for (int64_t i = 0; i < len; i++)
                    store_integer(o + i * so * dtype_size(dst), dst, load_integer(x + i * s0 * dtype_size(src), src));
            } else if (is_integer(src)) {
                /* one rounding to float (through double, 64-bit integers would round twice) */
                for (int64_t i = 0; i < len; i++) {
                    float v = (float) load_integer(x + i * s0 * dtype_size(src), src);
                    if (dst == PMX_F16) *(_Float16 *) (o + i * so * 2) = (_Float16) v;
                    else *(float *) (o + i * so * 4) = v;
                }
            } else {
                for (int64_t i = 0; i < len; i++)
                    store_double(o + i * so * dtype_size(dst), dst, load_as_double(x + i * s0 * dtype_size(src), src));
            }
        }
        return;
    }
    if (op >= OP_ADD && op < OP_WHERE && is_integer(dtype)) {
        if (dtype == PMX_I64) {
            integer_binary_i64(op, len, PMX_PTR(d, 4, int64_t) + oo, so, PMX_PTR(d, 5, const int64_t) + o0, s0,
                               PMX_PTR(d, 6, const int64_t) + o1, s1);
        } else {
            integer_binary_i32(op, len, PMX_PTR(d, 4, int32_t) + oo, so, PMX_PTR(d, 5, const int32_t) + o0, s0,
                               PMX_PTR(d, 6, const int32_t) + o1, s1);
        }
        return;
    }
    float *o = PMX_PTR(d, 4, float) + oo;
    const float *x = PMX_PTR(d, 5, const float) + o0;
    if (op < OP_ADD) {
        if (so == 1 && s0 == 1) unary_contiguous(op, len, o, x, (float) alpha, (float) beta);
        else unary_strided(op, len, o, so, x, s0, (float) alpha, (float) beta);
    } else if (op < OP_WHERE) {
        const float *y = PMX_PTR(d, 6, const float) + o1;
        if (so == 1 && s0 == 1 && s1 == 1) binary_contiguous(op, len, o, x, y, (float) alpha, (float) beta);
        else if (so == 1 && s0 == 1 && s1 == 0) binary_scalar_right(op, len, o, x, *y, (float) alpha, (float) beta);
        else binary_strided(op, len, o, so, x, s0, y, s1, (float) alpha, (float) beta);
    } else {
        /* WHERE: in0 is the condition (dtype word), in1 where true, in2 where false */
        const char *c = PMX_PTR(d, 5, const char) + o0 * dtype_size(dtype);
        const float *t = PMX_PTR(d, 6, const float) + o1;
        const float *f = PMX_PTR(d, 7, const float) + o2;
        /* the condition's dtype chosen once per row, not per element */
        switch (dtype) {
#define WHERE_ROW(T) for (int64_t i = 0; i < len; i++) o[i * so] = ((const T *) c)[i * s0] != 0 ? t[i * s1] : f[i * s2]; break;
            case PMX_I32: WHERE_ROW(int32_t)
            case PMX_I64: WHERE_ROW(int64_t)
            case PMX_F16: WHERE_ROW(_Float16)
            default: WHERE_ROW(float)
#undef WHERE_ROW
        }
    }
}

static void run_range(const int64_t *d, int64_t start, int64_t end) {
    int nd = (int) d[1];
    pmx_walk(d, d + 10, nd, d + 10 + nd, 4, start, end, run_row);
}

static int64_t grain_of(int op) {
    switch (op) {
        case OP_EXP: case OP_LOG: case OP_GELU: case OP_GELU_TANH: case OP_SIGMOID: case OP_TANH: case OP_POW:
        case OP_POW_SCALAR: case OP_GELU_BWD: case OP_GELU_TANH_BWD: case OP_ERF:
            return PMX_GRAIN_TRANSCENDENTAL;
        default:
            return PMX_GRAIN_STREAM;
    }
}

PMX_KERNEL(elementwise) {
    int64_t n = d[2];
    if (n <= 0) return 0;
    int nd = (int) d[1];
    if (nd < 1 || nd > PMX_MAX_DIMS) return -1;
    int nth = pmx_threads_for(n, grain_of((int) d[0]));
    if (nth == 1 && nd == 1) {
        static const int64_t at_start[4] = {0, 0, 0, 0};
        run_row(d, 0, n, at_start); /* one run: no walk */
        return 0;
    }
    pmx_parallel(d, n, nth, run_range);
    return 0;
}
