package dev.panamax.bindgen.glue;

/**
 * Generated C for a set of functions: a header (struct and union typedefs, callback typedefs,
 * prototypes) that the library's own sources can include to check they match the declarations,
 * and the thunk source that includes it.
 *
 * @param headerName file name of the header, e.g. {@code pmx_thunks_fixtures.h}
 * @param header     the header's text
 * @param sourceName file name of the thunk source, e.g. {@code pmx_thunks_fixtures.c}
 * @param source     the thunk source's text
 */
public record ThunkSources(String headerName, String header, String sourceName, String source) {}
