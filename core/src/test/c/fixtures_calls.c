/* Call shapes for every tier: no arguments, each primitive, pointers, structs by value and returned, errno. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static int64_t counter;

void pmxf_count(void) { counter++; }
int64_t pmxf_count_get(void) { return counter; }
int32_t pmxf_answer(void) { return 42; }

int8_t pmxf_neg_i8(int8_t a) { return (int8_t)-a; }
int16_t pmxf_neg_i16(int16_t a) { return (int16_t)-a; }
uint16_t pmxf_next_u16(uint16_t a) { return (uint16_t)(a + 1); }
int64_t pmxf_mul_i64(int64_t a, int64_t b) { return a * b; }
float pmxf_fma_f32(float a, float b, float c) { return a * b + c; }
double pmxf_div_f64(double a, double b) { return a / b; }
/* every register class at once: integer and floating-point arguments interleaved */
double pmxf_mixed(int32_t i, int64_t l, float f, double d, int8_t b) { return (double)i + (double)l + (double)f + d + (double)b; }

void pmxf_store_i32(int32_t *p, int32_t v) { *p = v; }
int32_t pmxf_load_i32(const int32_t *p) { return *p; }
const char *pmxf_greeting(void) { return "hello from C"; }
int64_t pmxf_strlen(const char *s) { return (int64_t)strlen(s); }
void *pmxf_identity_ptr(void *p) { return p; }

typedef struct { float x, y; } pmxf_point;                          /* 8 bytes: one SSE register */
typedef struct { int64_t id; double weight; int32_t flags; } pmxf_record; /* 24 bytes: in memory */

float pmxf_point_dot(pmxf_point a, pmxf_point b) { return a.x * b.x + a.y * b.y; }
int64_t pmxf_record_score(pmxf_record r) { return r.id * 2 + (int64_t)r.weight + r.flags; }
pmxf_point pmxf_point_scale(pmxf_point p, float k) { pmxf_point r = { p.x * k, p.y * k }; return r; }
pmxf_record pmxf_record_make(int64_t id, double weight, int32_t flags) { pmxf_record r = { id, weight, flags }; return r; }

/* errno conventions: e == 0 succeeds, anything else fails with errno = e */
int32_t pmxf_errno_minus_one(int32_t e) { if (e == 0) return 7; errno = e; return -1; }
int64_t pmxf_errno_negative(int32_t e) { if (e == 0) return 0; errno = e; return -(int64_t)e; }
int32_t pmxf_errno_nonzero(int32_t e) { if (e == 0) return 0; errno = e; return 1; }
void *pmxf_errno_null(int32_t e) { static int64_t cell; if (e == 0) return &cell; errno = e; return NULL; }
/* success that leaves errno set: must not raise */
int32_t pmxf_errno_set_but_ok(int32_t e) { errno = e; return 0; }
pmxf_point pmxf_point_or_errno(int32_t e, pmxf_point p) { errno = e; return p; }
