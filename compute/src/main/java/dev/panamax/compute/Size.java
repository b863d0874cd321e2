package dev.panamax.compute;

/**
 * A one- to three-dimensional extent: a grid of threads, a threadgroup, a number of threadgroups.
 *
 * <pre>{@code
 * encoder.dispatchThreads(Size.of(1_000_000), Size.of(256));
 * encoder.dispatchThreads(Size.of(width, height), Size.of(16, 16));
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

    /** width x height x depth. */
    public long count() {
        return width * height * depth;
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
