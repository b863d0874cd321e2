package dev.panamax.bindgen.decl;

/**
 * A function or callback parameter: short form {@code [u32, len]}, or long form
 * {@code {name, type, dir, length, nullable, errcode}}.
 *
 * @param direction in, out or inout (pointers); in by default
 * @param length    the name of the parameter holding this buffer's length, or null
 * @param nullable  NULL is an accepted value
 * @param errcode   the error convention of an out-parameter status, or null
 */
public record Param(String name, TypeRef type, Direction direction, String length, boolean nullable, String errcode,
                    Location location) {
    /** Direction of a pointer parameter. */
    public enum Direction { IN, OUT, INOUT }
}
