package dev.panamax.bindgen.decl;

/**
 * A function's return: short form {@code returns: i32}, or long form {@code {type, status, ownership, length}}.
 *
 * @param status         the error convention the typed layer checks the result with, or null
 * @param ownership      who owns a returned handle; null when not stated (handles default to owned)
 * @param length         for a returned pointer, the parameter holding how many elements it points to
 *                       (the typed layer returns a segment of that size); null when not stated
 * @param lengthLocation where {@code length} was written; null with it
 */
public record Returns(TypeRef type, String status, Ownership ownership, String length, Location lengthLocation, Location location) {
    /** Ownership of a returned handle. */
    public enum Ownership { OWNED, BORROWED }

    /** A return with neither a status, an ownership nor a length. */
    public static Returns plain(TypeRef type, Location location) {
        return new Returns(type, null, null, null, null, location);
    }
}
