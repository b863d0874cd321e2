package dev.panamax.bindgen.decl;

import dev.panamax.core.abi.ScalarKind;

/**
 * A type as written in a declarations file, before resolution: {@code u8*}, {@code Point},
 * {@code f32[4]}, {@code char*}. Resolution against the file's {@code types} gives a core
 * {@link dev.panamax.core.abi.CType}.
 */
public sealed interface TypeRef {
    /** The declarations-file spelling. */
    String spelling();

    /** {@code void}. */
    record Void() implements TypeRef {
        @Override public String spelling() { return "void"; }
    }

    /** bool, i8 .. u64, size_t, f32, f64, f80. */
    record Primitive(ScalarKind kind) implements TypeRef {
        @Override public String spelling() { return kind.declName(); }
    }

    /** {@code ptr}: an untyped {@code void *}. */
    record AnyPointer() implements TypeRef {
        @Override public String spelling() { return "ptr"; }
    }

    /** {@code char*} or {@code string}: a NUL-terminated C string. */
    record CString() implements TypeRef {
        @Override public String spelling() { return "char*"; }
    }

    /** A type named in the file's {@code types} section. */
    record Named(String name) implements TypeRef {
        @Override public String spelling() { return name; }
    }

    /** {@code T*}. */
    record PointerTo(TypeRef target) implements TypeRef {
        @Override public String spelling() { return target.spelling() + "*"; }
    }

    /** {@code T[n]}: struct and union fields only. */
    record ArrayOf(TypeRef element, int length) implements TypeRef {
        @Override public String spelling() { return element.spelling() + "[" + length + "]"; }
    }
}
