/* What check/shapes.yaml declares, as a C header: the header check's fixture. */
#ifndef SHAPES_CHECK_H
#define SHAPES_CHECK_H
#include <stddef.h>
#include <stdint.h>

#define SHAPES_VERSION 3
#define SHAPES_MASK (1u << 4 | SHAPES_VERSION)
#define SHAPES_BIG 0x100000000LL
#define SHAPES_HALF 0.5

typedef int32_t shapes_status;
typedef struct shapes_canvas shapes_canvas;
typedef enum { SHAPES_RED = 1, SHAPES_BLUE = -4 } shapes_color;
typedef struct { float x, y; } shapes_point;
typedef union { int32_t i; float f; } shapes_value;
struct shapes_rect { shapes_point origin; shapes_point size; uint8_t flags[4]; };

shapes_status shapes_open(const char *name, shapes_canvas **out);
float shapes_scale(float factor, double exact);
shapes_point shapes_mid(shapes_point a, shapes_point b);
size_t shapes_fill(shapes_canvas *canvas, const float *values, size_t count);

#endif
