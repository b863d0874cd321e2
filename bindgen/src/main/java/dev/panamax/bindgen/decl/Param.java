package dev.panamax.bindgen.decl;

/**
 * A function or callback parameter: short form {@code [u32, len]}, or long form
 * {@code {name, type, dir, length, nullable, errcode}}.
 *
 * @param direction in, out or inout (pointers); in by default
 * @param length    the name of the parameter holding this buffer's length, or null
 * @param nullable  NULL is an accepted value
 * @param errcode   the error convention of an out-parameter status, or null
 * @param ownership who owns the handles an out-parameter receives; null when not stated (the handle type's own)
 */
public record Param(String name, TypeRef type, Direction direction, String length, boolean nullable, String errcode,
                    Returns.Ownership ownership, Location location) {
    public Param(String name, TypeRef type, Direction direction, String length, boolean nullable, String errcode,
                 Location location) {
        this(name, type, direction, length, nullable, errcode, null, location);
    }

    /** Direction of a pointer parameter. */
    public enum Direction { IN, OUT, INOUT }
}
