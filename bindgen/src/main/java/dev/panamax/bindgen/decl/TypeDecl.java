package dev.panamax.bindgen.decl;

import java.util.List;

/** An entry of the {@code types} section. */
public sealed interface TypeDecl {
    /** The declared name. */
    String name();

    /** Where it is declared. */
    Location location();

    /**
     * {@code uLong: u64}, or {@code cl_bool: {type: cl_uint, boolean: true}}: {@code bool} says the integer holds
     * a truth value (0 false, anything else true), which the typed layer passes and returns as a Java {@code boolean}.
     */
    record Alias(String name, TypeRef target, boolean bool, Location location) implements TypeDecl {
        public Alias(String name, TypeRef target, Location location) {
            this(name, target, false, location);
        }
    }

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

    /**
     * {@code cl_mem: {handle: opaque, retain: clRetainMemObject, release: clReleaseMemObject}}: a pointer-sized
     * object. {@code ownership} is how handles of this type are held unless a function says otherwise:
     * owned (default; needs {@code release}) or borrowed (objects the library never frees, such as
     * {@code cl_platform_id: {handle: opaque, ownership: borrowed}}).
     */
    record Handle(String name, String kind, String retain, String release, Returns.Ownership ownership,
                  Location location) implements TypeDecl {
        public Handle(String name, String kind, String retain, String release, Location location) {
            this(name, kind, retain, release, Returns.Ownership.OWNED, location);
        }

        public Handle {
            if (ownership == null) ownership = Returns.Ownership.OWNED;
        }
    }

    /**
     * {@code z_free_func: {callback: {returns: void, params: [[ptr, opaque]], user_data: opaque, calls: many}}}: a
     * function pointer type.
     *
     * @param userData the parameter that carries the caller's {@code user_data} back (a pointer), or null when
     *                 there is none; defaults to a pointer parameter named {@code user_data}
     * @param calls    how often the library calls one registration: once (then it is forgotten) or many
     */
    record Callback(String name, TypeRef returns, List<Param> params, String userData, Calls calls,
                    Location location) implements TypeDecl {
        /** How often one registration of a callback is called. */
        public enum Calls { ONCE, MANY }

        public Callback(String name, TypeRef returns, List<Param> params, Location location) {
            this(name, returns, params, null, Calls.MANY, location);
        }

        public Callback {
            params = List.copyOf(params);
            if (calls == null) calls = Calls.MANY;
        }
    }
}
