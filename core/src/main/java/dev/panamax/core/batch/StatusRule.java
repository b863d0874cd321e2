package dev.panamax.core.batch;

/**
 * When an integer status returned by a function means success: {@code low <= status <= high}
 * (or, with {@code successInRange} false, outside that range). The status is the function's
 * return value, sign- or zero-extended from its C type.
 *
 * <pre>{@code
 * StatusRule.successIs(0);      // zlib's Z_OK, OpenCL's CL_SUCCESS
 * StatusRule.successAtLeast(0); // POSIX-style: negative is an error
 * StatusRule.failureIs(0);      // a NULL pointer or false is the error
 * }</pre>
 */
public record StatusRule(long low, long high, boolean successInRange) {
    public StatusRule {
        if (low > high) throw new IllegalArgumentException("status range is empty: low=" + low + " high=" + high);
    }

    /** Success is exactly {@code code}. */
    public static StatusRule successIs(long code) {
        return new StatusRule(code, code, true);
    }

    /** Success is {@code code} or greater. */
    public static StatusRule successAtLeast(long code) {
        return new StatusRule(code, Long.MAX_VALUE, true);
    }

    /** Success is any value in {@code [low, high]}. */
    public static StatusRule successBetween(long low, long high) {
        return new StatusRule(low, high, true);
    }

    /** Failure is exactly {@code code}; anything else is success. */
    public static StatusRule failureIs(long code) {
        return new StatusRule(code, code, false);
    }

    /** True when {@code status} means success. */
    public boolean isSuccess(long status) {
        boolean inside = status >= low && status <= high;
        return inside == successInRange;
    }
}
