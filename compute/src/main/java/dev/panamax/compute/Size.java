package dev.panamax.compute;

/**
 * A one- to three-dimensional extent: a grid of threads, a threadgroup, a number of threadgroups.
 *
 * <pre>{@code
 * encoder.dispatchThreads(Size.of(1_048_576), Size.of(256));           // a whole number of groups
 * encoder.dispatchThreads(Size.of(width, height), Size.of(16, 16));
 * // any n: round the group count up, and bounds-check in the kernel (if (i < n))
 * encoder.dispatchThreadgroups(Size.threadgroupsCovering(Size.of(n), Size.of(256)), Size.of(256));
 * }</pre>
 */
public record Size(long width, long height, long depth) {
    public Size {
        if (width < 0 || height < 0 || depth < 0)
            throw new IllegalArgumentException("negative size: width=" + width + " height=" + height + " depth=" + depth);
    }

    public static Size of(long width) {
        return new Size(width, 1, 1);
    }

    public static Size of(long width, long height) {
        return new Size(width, height, 1);
    }

    public static Size of(long width, long height, long depth) {
        return new Size(width, height, depth);
    }

    /**
     * The threadgroups of {@code threadgroup} that cover {@code grid}: each dimension's group count
     * rounded up. The last group of a dimension then runs threads past the grid's edge, which the
     * kernel skips with a bounds check ({@code if (i < n) ...}).
     *
     * @throws IllegalArgumentException when {@code threadgroup} has no threads in a dimension
     */
    public static Size threadgroupsCovering(Size grid, Size threadgroup) {
        for (int d = 0; d < 3; d++) {
            if (threadgroup.get(d) == 0)
                throw new IllegalArgumentException("threadgroup " + threadgroup + " has no threads in dimension " + d
                        + " (expected at least 1 to cover grid " + grid + ")");
        }
        return new Size(Math.ceilDiv(grid.width, threadgroup.width), Math.ceilDiv(grid.height, threadgroup.height),
                Math.ceilDiv(grid.depth, threadgroup.depth));
    }

    /**
     * width x height x depth.
     *
     * @throws ArithmeticException when the product does not fit a {@code long}
     */
    public long count() {
        try {
            return Math.multiplyExact(Math.multiplyExact(width, height), depth);
        } catch (ArithmeticException e) {
            throw new ArithmeticException("size " + this + " has more than " + Long.MAX_VALUE + " elements (width=" + width
                    + " height=" + height + " depth=" + depth + ")");
        }
    }

    /** 1, 2 or 3: the last dimension above 1 (1 for a single element). */
    public int dimensions() {
        return depth > 1 ? 3 : height > 1 ? 2 : 1;
    }

    public long get(int dimension) {
        return switch (dimension) {
            case 0 -> width;
            case 1 -> height;
            case 2 -> depth;
            default -> throw new IndexOutOfBoundsException("dimension " + dimension + " of a Size (0 to 2)");
        };
    }

    @Override
    public String toString() {
        return depth > 1 ? width + "x" + height + "x" + depth : height > 1 ? width + "x" + height : Long.toString(width);
    }
}
