package dev.panamax.bindgen.decl;

/**
 * How deep and how long the structures of a declarations file may be. Past a limit the file is
 * refused with a {@link DeclarationsException} at the place that goes past it, never a
 * {@link StackOverflowError}: each limit sits far above what a real C library needs and far below
 * what the parser, the generator and javac can take. docs/DECLARATIONS.md lists them.
 *
 * <pre>{@code
 * // 10,000 nested '[' in the YAML:
 * // t.yaml:3:75: the YAML nests deeper than 64 levels; expected at most 64 nested lists and mappings
 * }</pre>
 */
public final class Limits {
    private Limits() {}

    /** Nested YAML lists and mappings (the format itself needs 7). */
    public static final int YAML_DEPTH = 64;
    /** Nesting of a length expression: parentheses, operators, calls and choices, counted as tree levels. */
    public static final int LENGTH_EXPRESSION_DEPTH = 32;
    /** Pointer stars and array dimensions on one type ({@code i32**[4]} has 3): C's own minimum translation limit is 12. */
    public static final int TYPE_DECLARATORS = 12;
    /**
     * Named types inside named types: an alias of an alias, a struct holding a struct by value, a
     * callback taking a callback (C guarantees 63 levels of nested struct definitions).
     */
    public static final int TYPE_NESTING = 63;
    /** Parts of the Java package ({@code org.example.zlib} has 3). */
    public static final int PACKAGE_PARTS = 64;
    /** Characters of the Java package: its directories must fit a path. */
    public static final int PACKAGE_LENGTH = 1_000;
}
