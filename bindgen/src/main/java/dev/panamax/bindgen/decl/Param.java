package dev.panamax.bindgen.decl;

/**
 * A function or callback parameter: short form {@code [u32, len]}, or long form
 * {@code {name, type, dir, length, terminated, nullable, errcode, ownership}}; {@code length} names a
 * parameter or gives a fixed count.
 *
 * @param direction in, out or inout (pointers); in by default
 * @param length    the name of the parameter holding this buffer's length, or null
 * @param count     the fixed number of elements C uses through this pointer ({@code length: 3}), or 0
 * @param expression the number of elements computed from other parameters ({@code length: "1 + (n - 1) * abs(incx)"}), or null
 * @param terminated the pointer is to a zero-terminated list of integers ({@code terminated: true})
 * @param nullable  NULL is an accepted value
 * @param errcode   the error convention of an out-parameter status, or null
 * @param ownership who owns the handles an out-parameter receives; null when not stated (the handle type's own)
 * @param elements  for a {@code ptr}: the element types a Java array passed for it may have ({@code elements: [f32, i32]}),
 *                  each a variant of the typed method; empty when none
 * @param asyncUnless for a {@code ptr} with {@code elements}: the boolean parameter without which the library may still
 *                  use the memory after the call returns ({@code async_unless: blocking_read}), or null
 */
public record Param(String name, TypeRef type, Direction direction, String length, int count, LengthExpr expression,
                    boolean terminated, boolean nullable, String errcode, Returns.Ownership ownership,
                    java.util.List<dev.panamax.core.abi.ScalarKind> elements, String asyncUnless, Location location) {
    public Param {
        elements = java.util.List.copyOf(elements);
    }

    public Param(String name, TypeRef type, Direction direction, String length, int count, LengthExpr expression,
                 boolean terminated, boolean nullable, String errcode, Returns.Ownership ownership, Location location) {
        this(name, type, direction, length, count, expression, terminated, nullable, errcode, ownership,
                java.util.List.of(), null, location);
    }

    /** The largest fixed count {@code length} may give. */
    public static final int MAX_COUNT = 1 << 16;

    public Param(String name, TypeRef type, Direction direction, String length, boolean nullable, String errcode,
                 Location location) {
        this(name, type, direction, length, 0, null, false, nullable, errcode, null, location);
    }

    /** Whether {@code length} says how many elements C uses, by a parameter, a fixed count or an expression. */
    public boolean hasLength() {
        return length != null || count > 0 || expression != null;
    }

    /** Direction of a pointer parameter. */
    public enum Direction { IN, OUT, INOUT }
}
