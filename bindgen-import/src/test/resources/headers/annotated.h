/* A library with a place for every annotation the declarations format has. */
#include <stddef.h>

typedef struct an_ctx an_ctx;
typedef unsigned int an_bool;
typedef struct { float x, y; } an_point;
typedef struct { void *data; int size; } an_blob;
typedef void (*an_done)(void *user_data, int status);
typedef void (*an_notify)(void *ctx, const char *message);

an_ctx *an_open(const char *name, int *err);
void an_retain(an_ctx *c);
void an_close(an_ctx *c);
int an_read(an_ctx *c, void *dst, size_t size, an_bool blocking);
int an_fill(an_ctx *c, float *values, int count, int inc);
float *an_data(an_ctx *c, int count);
int an_list(const int *ids);
void an_when(an_ctx *c, an_done done, void *user_data);
void an_watch(an_ctx *c, an_notify notify, void *ctx);
int an_get(an_ctx *c, an_ctx **out);
int an_sum(an_ctx *c, const float *values, int n);
an_point an_mid(an_point a, an_point b);
int an_blob_size(an_blob b);
