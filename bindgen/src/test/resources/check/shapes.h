/* A small library's header: what bindgen import reads, and what it refuses. */
#ifndef SHAPES_H
#define SHAPES_H
#include <stddef.h>
#include <stdint.h>

#define SHAPES_VERSION 3
#define SHAPES_MASK (1u << 4 | SHAPES_VERSION)
#define SHAPES_BIG 0x100000000LL
#define SHAPES_HALF 0.5
#define SHAPES_NAME "shapes"

typedef int32_t shapes_status;
typedef struct shapes_canvas shapes_canvas;          /* opaque */
typedef struct _shapes_brush *shapes_brush;          /* opaque, pointer typedef */

typedef enum { SHAPES_RED = 1, SHAPES_GREEN = 2, SHAPES_BLUE = -4 } shapes_color;

typedef struct { float x, y; } shapes_point;
typedef union { int32_t i; float f; } shapes_value;
struct shapes_rect { shapes_point origin; shapes_point size; uint8_t flags[4]; };
typedef struct { int a : 3; int b : 5; } shapes_packed_bits;
typedef struct { int kind; union { int i; float f; }; } shapes_tagged;

typedef void (*shapes_done)(shapes_canvas *canvas, shapes_status status, void *user_data);

shapes_status shapes_open(const char *name, shapes_canvas **out);
void shapes_close(shapes_canvas *canvas);
shapes_brush shapes_brush_new(shapes_canvas *canvas, shapes_color color);
double shapes_area(const struct shapes_rect *rect);
float shapes_scale(float factor, double exact);
shapes_point shapes_mid(shapes_point a, shapes_point b);
size_t shapes_fill(shapes_canvas *canvas, const float *values, size_t count);
shapes_status shapes_on_done(shapes_canvas *canvas, shapes_done done, void *user_data);
int shapes_visit(shapes_canvas *canvas, int (*visitor)(void *ctx, const shapes_value *v), void *ctx);
int shapes_printf(shapes_canvas *canvas, const char *format, ...);
long double shapes_precise(long double x);
int shapes_bits(shapes_packed_bits bits);
static inline int shapes_twice(int x) { return 2 * x; }

#endif
