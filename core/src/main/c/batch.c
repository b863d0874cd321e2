/* The batch runner: executes a recorded list of MetaABI thunk calls in one crossing from Java. */
#include "pmx_export.h"
#include <stdint.h>

typedef void *(*pmx_thunk_fn)(void *param);

/* One recorded call; the Java side (dev.panamax.core.batch.Batch) writes these, 48 bytes each. */
typedef struct pmx_batch_entry {
    pmx_thunk_fn thunk; /*  0: void *pmx_thunk_NAME(void *) */
    void *block;        /*  8: parameter block (STRUCT), the void*-sized value cell (VOID_PTR), or NULL */
    uint32_t flags;     /* 16: PMX_ENTRY_* bits; bits 8..15 the status width in bytes */
    uint32_t reserved;  /* 20 */
    void *result;       /* 24: the thunk's return register, stored by the runner */
    int64_t low;        /* 32: status range, inclusive */
    int64_t high;       /* 40 */
} pmx_batch_entry;

_Static_assert(sizeof(pmx_batch_entry) == 48, "pmx_batch_entry layout is shared with Java");

enum {
    PMX_ENTRY_BY_VALUE = 1,       /* param is the value stored in *block, not block itself */
    PMX_ENTRY_CHECK = 2,          /* the result is a status code to check */
    PMX_ENTRY_SIGNED = 4,         /* the status is a signed integer */
    PMX_ENTRY_SUCCESS_INSIDE = 8  /* success iff low <= status <= high; else success iff outside */
};

static int pmx_status_ok(const pmx_batch_entry *e, void *result) {
    uint32_t f = e->flags;
    unsigned width = (f >> 8) & 0xff;
    uint64_t raw = (uint64_t) (uintptr_t) result;
    int64_t v;
    if (width < 8) {
        unsigned shift = 64 - 8 * width;
        v = (f & PMX_ENTRY_SIGNED) ? (int64_t) (raw << shift) >> shift : (int64_t) ((raw << shift) >> shift);
    } else {
        v = (int64_t) raw;
    }
    int inside = v >= e->low && v <= e->high;
    return (f & PMX_ENTRY_SUCCESS_INSIDE) ? inside : !inside;
}

/*
 * Runs entries[0..count): for each, calls thunk(param) and stores the returned register. Stops after
 * the first entry whose status check fails and returns its index; returns count when all ran.
 */
PMX_EXPORT int64_t pmx_batch_run(pmx_batch_entry *entries, int64_t count) {
    for (int64_t i = 0; i < count; i++) {
        pmx_batch_entry *e = &entries[i];
        uint32_t f = e->flags;
        void *param = (f & PMX_ENTRY_BY_VALUE) ? *(void *const *) e->block : e->block;
        void *r = e->thunk(param);
        e->result = r;
        if (__builtin_expect((f & PMX_ENTRY_CHECK) != 0, 0) && !pmx_status_ok(e, r)) return i;
    }
    return count;
}

/* Size of pmx_batch_entry, checked by Java before the first run. */
PMX_EXPORT uint32_t pmx_batch_entry_size(void) { return (uint32_t) sizeof(pmx_batch_entry); }
