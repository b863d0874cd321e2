package dev.panamax.bindgen.decl;

/**
 * A declarations file that cannot be used: not YAML, an unknown key, an unknown or recursive type,
 * a missing or ill-typed value. The message starts with {@code file:line:column} and says what was
 * found and what was expected.
 */
public final class DeclarationsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Location location;

    public DeclarationsException(Location location, String message) {
        super(location + ": " + message);
        this.location = location;
    }

    /** Where the problem is. */
    public Location location() {
        return location;
    }
}
