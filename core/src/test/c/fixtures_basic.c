/* Basic call-shape fixtures: the simplest functions the tests and benchmarks call. */
#include <stdint.h>

void pmxf_nop(void) {}
int32_t pmxf_add_i32(int32_t a, int32_t b) { return a + b; }
int64_t pmxf_add3_i64(int64_t a, int64_t b, int64_t c) { return a + b + c; }
