package dev.panamax.bindgen.decl;

/**
 * A function's return: short form {@code returns: i32}, or long form {@code {type, status, ownership}}.
 *
 * @param status    the error convention the typed layer checks the result with, or null
 * @param ownership who owns a returned handle; null when not stated (handles default to owned)
 */
public record Returns(TypeRef type, String status, Ownership ownership, Location location) {
    /** Ownership of a returned handle. */
    public enum Ownership { OWNED, BORROWED }
}
