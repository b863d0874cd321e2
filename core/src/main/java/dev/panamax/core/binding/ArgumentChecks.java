package dev.panamax.core.binding;

import java.lang.foreign.MemorySegment;

/**
 * The checks a typed binding makes before a native call, each failing with an exception that names the
 * function, the parameter and the values that do not fit, so a bad argument never reaches C.
 *
 * <pre>{@code
 * ArgumentChecks.notNull(kernel, "clSetKernelArg", "kernel");
 * ArgumentChecks.enough("clEnqueueReadBuffer", "ptr", "size", hostArray.length, size);   // an array against a count
 * ArgumentChecks.fits("clEnqueueReadBuffer", "ptr", "size", segment, size, 1);           // a segment against bytes
 * }</pre>
 */
public final class ArgumentChecks {
    private ArgumentChecks() {}

    /** Refuses a null argument the declarations say is not nullable: a {@link NullPointerException}. */
    public static void notNull(Object value, String function, String parameter) {
        if (value == null) {
            throw new NullPointerException("null for a parameter that is not nullable: function=" + function
                    + " parameter=" + parameter);
        }
    }

    /** Refuses an array shorter than the fixed number of elements C reads or writes through it. */
    public static void atLeast(String function, String parameter, int length, int needed) {
        if (length < needed) {
            throw new IllegalArgumentException("array shorter than the " + needed + (needed == 1 ? " element" : " elements")
                    + " C uses: function=" + function + " parameter=" + parameter + " length=" + length);
        }
    }

    /** Refuses an array shorter than the {@code count} elements C reads or writes through it ({@code countName} says where the count comes from). */
    public static void enough(String function, String parameter, String countName, int length, long count) {
        if (count < 0 || count > length) {
            throw new IllegalArgumentException("array shorter than its length: function=" + function + " parameter=" + parameter
                    + " length=" + length + " " + countName + "=" + count);
        }
    }

    /**
     * Refuses a segment smaller than the memory C reads or writes through it: {@code count} elements of
     * {@code elementBytes} bytes. Null and NULL pass (nullability is checked apart), and so does any
     * zero-length native segment: an address from C, whose size is not known.
     */
    public static void fits(String function, String parameter, String countName, MemorySegment segment, long count, long elementBytes) {
        if (segment == null) return;
        long size = segment.byteSize();
        // count * elementBytes <= size, without overflow; the division folds away where elementBytes is a constant
        if (count >= 0 && count <= Long.MAX_VALUE / elementBytes && count * elementBytes <= size) return;
        if (size == 0 && segment.isNative()) return;
        throw new IllegalArgumentException("segment smaller than its length: function=" + function + " parameter=" + parameter
                + " byteSize=" + size + " " + countName + "=" + count + " elementBytes=" + elementBytes);
    }

    /**
     * How many elements of {@code elementBytes} bytes {@code segment} holds, for a length taken from the segment
     * passed: 0 for NULL. A segment whose size is not a whole number of elements, or a zero-length segment at a
     * non-zero address (an address from C, whose size is not known), is refused: the caller says the size with
     * {@code reinterpret} or {@code asSlice}.
     */
    public static long elements(String function, String parameter, MemorySegment segment, long elementBytes) {
        long size = segment.byteSize();
        if (size % elementBytes == 0 && (size != 0 || segment.address() == 0 || !segment.isNative())) return size / elementBytes;
        throw new IllegalArgumentException((size == 0 ? "segment of unknown size (an address from C): function=" + function
                + " parameter=" + parameter + "; expected a segment of the size C may use (reinterpret or asSlice it)"
                : "segment not a whole number of elements: function=" + function + " parameter=" + parameter
                + " byteSize=" + size + " elementBytes=" + elementBytes));
    }

    /**
     * Refuses a Java array for memory the library may still use after the call returns ({@code flag} false: a
     * non-blocking read or write): a typed call copies an array into memory of its own, or passes it in place,
     * for the duration of the call only.
     */
    public static void synchronous(boolean flag, String function, String parameter, String flagName) {
        if (!flag) {
            throw new IllegalArgumentException("a Java array is only valid during the call: function=" + function + " parameter="
                    + parameter + " " + flagName + "=false; expected " + flagName + "=true, or a MemorySegment that outlives the call");
        }
    }

    /**
     * The error for a broken requirement of the declarations ({@code requires:}): the function, the
     * parameter the rule is about and its value, the rule, and the other values it read
     * ({@code ", k = 5, m = 4"}), e.g. {@code cblas_sgemm: lda = 3 breaks the requirement
     * lda >= max(1, order == 101 ? k : m) (order = 101, k = 5, m = 4)}.
     */
    public static IllegalArgumentException requirement(String function, String parameter, long value, String rule, String others) {
        return new IllegalArgumentException(function + ": " + parameter + " = " + value + " breaks the requirement " + rule
                + (others.isEmpty() ? "" : " (" + others.substring(2) + ")"));
    }

    /** The error for a length expression whose exact value leaves 64 bits: {@code values} lists the parameters it read. */
    public static IllegalArgumentException lengthOverflow(String function, String parameter, String expression, String values) {
        return new IllegalArgumentException("length beyond 64 bits: function=" + function + " parameter=" + parameter
                + " length=" + expression + " with" + values + "; expected values whose length fits in a long");
    }

    /**
     * The one length of two arrays feeding the same length parameter ({@code -1}: a null array, ignored);
     * {@code names} lists them, comma-separated, for the error.
     */
    public static int commonLength(String function, String length, String names, int a, int b) {
        return commonLength(function, length, names, a, b, -1, -1);
    }

    /** The one length of three arrays feeding the same length parameter, as above. */
    public static int commonLength(String function, String length, String names, int a, int b, int c) {
        return commonLength(function, length, names, a, b, c, -1);
    }

    /** The one length of four arrays feeding the same length parameter, as above; no varargs array on the way. */
    public static int commonLength(String function, String length, String names, int a, int b, int c, int d) {
        int n = Math.max(Math.max(a, b), Math.max(c, d));
        if ((a >= 0 && a != n) || (b >= 0 && b != n) || (c >= 0 && c != n) || (d >= 0 && d != n)) {
            throw differentLengths(function, length, names, a, b, c, d);
        }
        return Math.max(n, 0);
    }

    /** The one length of five or more arrays feeding the same length parameter, as above. */
    public static int commonLength(String function, String length, String names, int... lengths) {
        int n = -1;
        for (int l : lengths) n = Math.max(n, l);
        for (int l : lengths) {
            if (l >= 0 && l != n) throw differentLengths(function, length, names, lengths);
        }
        return Math.max(n, 0);
    }

    private static IllegalArgumentException differentLengths(String function, String length, String names, int... lengths) {
        StringBuilder b = new StringBuilder("arrays of different lengths for one length parameter: function=")
                .append(function).append(" length=").append(length);
        String[] each = names.split(", ");
        for (int i = 0; i < each.length; i++) b.append(' ').append(each[i]).append('=').append(lengths[i] < 0 ? "null" : lengths[i]);
        return new IllegalArgumentException(b.toString());
    }
}
