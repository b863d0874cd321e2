package dev.panamax.bindgen.decl;

import java.util.List;

/** An entry of the {@code types} section. */
public sealed interface TypeDecl {
    /** The declared name. */
    String name();

    /** Where it is declared. */
    Location location();

    /** {@code uLong: u64}. */
    record Alias(String name, TypeRef target, Location location) implements TypeDecl {}

    /** {@code Point: {struct: [[f32, x], [f32, y]], align: 8}}; {@code align} 0 means natural. */
    record Struct(String name, List<Field> fields, int align, Location location) implements TypeDecl {
        public Struct {
            fields = List.copyOf(fields);
        }
    }

    /** {@code Value: {union: [[i32, i], [f32, f]]}}. */
    record Union(String name, List<Field> fields, int align, Location location) implements TypeDecl {
        public Union {
            fields = List.copyOf(fields);
        }
    }

    /** {@code cl_mem: {handle: opaque, retain: clRetainMemObject, release: clReleaseMemObject}}: a pointer-sized owned object. */
    record Handle(String name, String kind, String retain, String release, Location location) implements TypeDecl {}

    /** {@code z_free_func: {callback: {returns: void, params: [[ptr, opaque]]}}}: a function pointer type. */
    record Callback(String name, TypeRef returns, List<Param> params, Location location) implements TypeDecl {
        public Callback {
            params = List.copyOf(params);
        }
    }
}
