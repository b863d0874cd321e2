/*
 * The MetaABI fixture library (declared in src/test/resources/abi_fixtures.yaml). Including the
 * generated header makes gcc check every definition against the declared prototype.
 *
 * Void functions record the bytes of their arguments' fields (never padding), so a test can compare
 * what a direct call and a thunk call delivered; the others compute a result from every bit of
 * their arguments.
 */
#include "pmx_thunks_abi_fixtures.h"
#include <string.h>
#include <unistd.h>

static unsigned char last[256];
static uint32_t last_len;
static uint64_t counter;
static int self_anchor;

static void start(void) { last_len = 0; }
static void put(const void *p, size_t n) {
    memcpy(last + last_len, p, n);
    last_len += (uint32_t) n;
}
#define PUT(x) put(&(x), sizeof(x))

static void put_point(Point p) { PUT(p.x); PUT(p.y); }
static void put_tagged(Tagged t) { PUT(t.tag); PUT(t.value); }
static uint64_t mixbits(uint64_t h, uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); return h; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

uint32_t fx_last_len(void) { return last_len; }
void *fx_last_bytes(void) { return last; }

/* ---- void return */
void fx_reset(void) { start(); uint32_t m = 0x5eedu; PUT(m); }
void fx_set_ptr(void *p) { start(); PUT(p); }
void fx_set_i32(int32_t n) { start(); PUT(n); }
void fx_set_bool(_Bool b) { start(); PUT(b); }
void fx_set_u8(uint8_t v) { start(); PUT(v); }
void fx_set_i16(int16_t v) { start(); PUT(v); }
void fx_set_u64(uint64_t v) { start(); PUT(v); }
void fx_set_f32(float f) { start(); PUT(f); }
void fx_set_f64(double d) { start(); PUT(d); }
void fx_move(Point p) { start(); put_point(p); }
void fx_set_tiny(Tiny t) { start(); PUT(t.b); }
void fx_set_value(Value v) { start(); PUT(v.i); }
void fx_set_rect(Rect r) { start(); PUT(r.x); PUT(r.y); PUT(r.w); PUT(r.h); }
void fx_set_tagged(Tagged t) { start(); put_tagged(t); }
void fx_set_xy(int32_t x, int32_t y) { start(); PUT(x); PUT(y); }
void fx_set_ff(float f, float g) { start(); PUT(f); PUT(g); }
void fx_set_points(Point a, Point b) { start(); put_point(a); put_point(b); }
void fx_set_mixed3(int8_t a, double b, Tagged c) { start(); PUT(a); PUT(b); put_tagged(c); }

/* ---- VOID_PTR-3 */
void *fx_self(void) { return &self_anchor; }
int32_t fx_count(void) { return 424242; }
uint64_t fx_magic(void) { return 0xfedcba9876543210ULL; }
_Bool fx_truth(void) { return 1; }

/* ---- E */
void *fx_object_at(int32_t i) { return (void *) (intptr_t) ((int64_t) i * 16 + 0x1000); }
int32_t fx_index_of(void *o) { return (int32_t) (((uintptr_t) o >> 3) ^ 0x55u); }
int64_t fx_neg_i64(int64_t v) { return (int64_t) (0 - (uint64_t) v); }
uint16_t fx_swap_u16(uint16_t v) { return (uint16_t) ((v << 8) | (v >> 8)); }
int8_t fx_inc_i8(int8_t v) { return (int8_t) (v + 1); }
_Bool fx_not(_Bool b) { return !b; }
size_t fx_size_twice(size_t n) { return n * 2; }
uint32_t fx_count_up(uint32_t n) { return n + 1; }
static int32_t square(int32_t x) { return x * x; }
static int32_t negate(int32_t x) { return -x; }
int32_t (*fx_pick(int32_t which))(int32_t) { return (which & 1) ? negate : square; }
size_t fx_strlen(void *s) { return s ? strlen((const char *) s) : (size_t) -1; } /* pointers are void * in the generated prototypes */

/* ---- F */
int32_t fx_trunc_f64(double d) { return d != d ? -1 : (d > 2e9 || d < -2e9) ? (int32_t) (dbits(d) >> 40) : (int32_t) d; }
uint32_t fx_bits_f32(float f) { return fbits(f) * 2654435761u; }

/* ---- G */
void *fx_wrap(Point p) { return (void *) (uintptr_t) (((uint64_t) fbits(p.x) << 32) | fbits(p.y)); }
int32_t fx_value_bits(Value v) { return v.i ^ 0x5a5a5a5a; }
uint32_t fx_bytes_sum(Bytes4 b) { return (uint32_t) b.b[0] + 3u * b.b[1] + 5u * b.b[2] + 7u * b.b[3]; }
int64_t fx_boxed_bits(Boxed b) { return (int64_t) (dbits(b.d) ^ 0x0f0f0f0f0f0f0f0fULL); }
int16_t fx_shorts_sum(Shorts3 s) { return (int16_t) (s.a + 2 * s.b + 3 * s.c); }
uint8_t fx_tiny_twice(Tiny t) { return (uint8_t) (t.b * 2); }

/* ---- H */
int64_t fx_range_end(NSRange r) { return (int64_t) (r.location + r.length); }
int32_t fx_pair_sum(Pair16 p) { return p.a * 31 + p.b; }
uint32_t fx_vec4_bits(Vec4 v) { return fbits(v.v[0]) ^ (fbits(v.v[1]) >> 1) ^ (fbits(v.v[2]) << 1) ^ (fbits(v.v[3]) >> 3); }
int64_t fx_tagged_mix(Tagged t) { return t.value * 7 + t.tag; }

/* ---- STRUCT with a register return */
int32_t fx_add(int32_t a, int32_t b) { return (int32_t) ((uint32_t) a + (uint32_t) b); }
int64_t fx_add3(int64_t a, int64_t b, int64_t c) { return (int64_t) ((uint64_t) a + (uint64_t) b + (uint64_t) c); }
uint64_t fx_mix4(uint8_t a, float b, Shorts3 c, void *d) {
    uint64_t h = a;
    h = mixbits(h, fbits(b));
    h = mixbits(h, (uint16_t) c.a);
    h = mixbits(h, (uint16_t) c.b);
    h = mixbits(h, (uint16_t) c.c);
    return mixbits(h, (uintptr_t) d);
}

/* ---- FP and struct/union returns */
float fx_val(void) { return 3.25f; }
float fx_dot(Point p) { return p.x * p.x + p.y * p.y; }
float fx_dot2(Point a, Point b) { return a.x * b.x + a.y * b.y; }
double fx_area(Rect r) { return (double) r.w * (double) r.h + r.x - r.y; }
double fx_fma3(double a, double b, double c) { return a * b + c; }
double fx_half(double d) { return d * 0.5; }
Point fx_origin(void) { return (Point) {1.5f, -2.5f}; }
Point fx_scaled(float f) { return (Point) {f * 2.0f, f * -3.0f}; }
Point fx_add_points(Point a, Point b) { return (Point) {a.x + b.x, a.y + b.y}; }
Point fx_mirror(Point p) { return (Point) {p.y, p.x}; }
Rect fx_bounds(void) { return (Rect) {0.0f, 1.0f, 640.0f, 480.0f}; }
NSRange fx_range(int32_t loc) { return (NSRange) {(uint64_t) (int64_t) loc, (uint64_t) loc * 3u + 1u}; }
Tiny fx_tiny_inc(Tiny t) { return (Tiny) {(uint8_t) (t.b + 1)}; }
Value fx_value_flip(Value v) { Value r; r.i = ~v.i; return r; }
Pair16 fx_pair_swap(Pair16 p) { return (Pair16) {p.b, p.a}; }
Nested fx_nested(Point p, int8_t flag) {
    Nested n;
    n.origin = p;
    n.frame = (Rect) {p.y, p.x, p.x * p.y, p.x - p.y};
    n.flag = (int8_t) (flag ^ 0x21);
    return n;
}
Vec4 fx_vec4_scale(Vec4 v, float s) {
    for (int i = 0; i < 4; i++) v.v[i] *= s;
    return v;
}

/* ---- long double */
long double fx_ld_neg(long double x) { return -x; }
double fx_ld_to_f64(long double x) { return (double) x; }

/* ---- for batches */
int32_t fx_status(int32_t code) { return code; }
uint64_t fx_counter_add(uint64_t n) { counter += n; return counter; }
uint64_t fx_counter_get(void) { return counter; }
int32_t fx_apply(int32_t (*f)(int32_t), int32_t x) { return f(x) + 1; }
void fx_sleep_us(uint32_t us) { usleep(us); }

/* ---- a length expression */
double fx_sum_strided(int64_t n, const double *x, int64_t stride) {
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += x[i * stride];
    return sum;
}
