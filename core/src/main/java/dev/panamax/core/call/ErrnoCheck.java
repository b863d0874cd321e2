package dev.panamax.core.call;

import java.lang.foreign.MemorySegment;

/**
 * How a function that sets {@code errno} reports failure. A function declared with a check other
 * than {@link #NONE} is linked with {@code Linker.Option.captureCallState("errno")}; when its result
 * says it failed, the call raises an {@link ErrnoException} carrying errno and its strerror text.
 */
public enum ErrnoCheck {
    /** errno is not captured and the result is returned as it is. */
    NONE,
    /** Failure is a result of -1 (most POSIX calls: {@code close}, {@code read}, {@code open}). */
    RETURNS_MINUS_ONE,
    /** Failure is any negative result. */
    RETURNS_NEGATIVE,
    /** Failure is any result other than 0. */
    RETURNS_NONZERO,
    /** Failure is a NULL pointer result ({@code fopen}, {@code malloc}, {@code dlopen}). */
    RETURNS_NULL;

    /** Whether an integral result means failure. */
    boolean failed(long result) {
        return switch (this) {
            case RETURNS_MINUS_ONE -> result == -1;
            case RETURNS_NEGATIVE -> result < 0;
            case RETURNS_NONZERO -> result != 0;
            case NONE, RETURNS_NULL -> false;
        };
    }

    /** Whether a pointer result means failure. */
    boolean failed(MemorySegment result) {
        return this == RETURNS_NULL && result.address() == 0;
    }

    /** Whether results of this Java type can be checked this way. */
    boolean accepts(Class<?> carrier) {
        return switch (this) {
            case NONE -> true;
            case RETURNS_NULL -> carrier == MemorySegment.class;
            case RETURNS_MINUS_ONE, RETURNS_NEGATIVE, RETURNS_NONZERO ->
                    carrier == int.class || carrier == long.class || carrier == short.class || carrier == byte.class;
        };
    }
}
