package dev.panamax.core.abi;

/** Alignment arithmetic shared by the type model and the parameter-block planner. */
final class Layouts {
    private Layouts() {}

    /** {@code value} rounded up to a multiple of {@code align} (a power of two). */
    static int alignUp(int value, int align) {
        return Math.addExact(value, align - 1) & -align;
    }

    static boolean isPowerOfTwo(int n) {
        return n > 0 && (n & (n - 1)) == 0;
    }
}
