/*
 * The floor of the batch suite: a C loop making n calls through the same function pointer (kept in
 * its own file so gcc cannot inline the callee). One crossing from Java runs the whole loop.
 */
#include <stdint.h>

__attribute__((visibility("default"))) int64_t pmxb_cloop(int32_t (*fn)(int32_t), int32_t n) {
    int64_t sum = 0;
    for (int32_t i = 0; i < n; i++) sum += fn(i);
    return sum;
}
