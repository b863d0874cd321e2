#ifndef PMX_EXPORT_H
#define PMX_EXPORT_H
/* Symbols of libpanamax that Java looks up; everything else stays hidden. */
#define PMX_EXPORT __attribute__((visibility("default")))
#endif
