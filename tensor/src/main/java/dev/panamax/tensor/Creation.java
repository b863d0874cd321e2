package dev.panamax.tensor;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Kernel;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/** Tensors made from values: fills, ranges, Java arrays, random numbers. */
final class Creation {
    private Creation() {}

    static Shape shapeOf(String op, int[] dims) {
        for (int d : dims) {
            if (d < 0) throw new TensorException(op, "negative dimension in " + Arrays.toString(dims) + "; expected sizes >= 0");
        }
        try {
            return Shape.of(dims);
        } catch (IllegalArgumentException tooLarge) {
            throw new TensorException(op, tooLarge.getMessage());
        }
    }

    static Tensor full(Backend backend, DType dtype, double value, Shape shape) {
        checkValue("full", dtype, value, "value " + value);
        Tensor t = Tensor.empty(backend, dtype, shape);
        Ops.execute(t, new Kernel.Fill(t.operand(), value));
        return t;
    }

    /**
     * Refuses a value {@code dtype} cannot hold (rather than saturating or wrapping it): NaN, an
     * infinity or a value beyond the range for an integer type; a finite value that rounds to an
     * infinity for a floating one. {@code what} names the value in the message.
     */
    static void checkValue(String op, DType dtype, double value, String what) {
        boolean fits = switch (dtype) {
            case I32 -> value > Integer.MIN_VALUE - 1.0 && value < Integer.MAX_VALUE + 1.0;
            case I64 -> value >= -0x1p63 && value < 0x1p63;
            case F32 -> !Double.isFinite(value) || Float.isFinite((float) value);
            case F16 -> !Double.isFinite(value) || Float.isFinite(Float.float16ToFloat(Float.floatToFloat16((float) value)));
        };
        if (fits) return;
        String range = switch (dtype) {
            case I32 -> Integer.MIN_VALUE + " <= value <= " + Integer.MAX_VALUE;
            case I64 -> "-2^63 <= value < 2^63";
            case F32 -> "|value| <= " + Float.MAX_VALUE;
            case F16 -> "|value| <= 65504";
        };
        throw new TensorException(op, what + " out of range for " + dtype.label() + "; expected " + range);
    }

    static Tensor arange(Backend backend, DType dtype, double start, double end, double step) {
        if (!Double.isFinite(start) || !Double.isFinite(end) || !Double.isFinite(step)) {
            throw new TensorException("arange", "start=" + start + " end=" + end + " step=" + step + "; expected finite values");
        }
        if (step == 0) throw new TensorException("arange", "step " + step + "; expected a nonzero step");
        double count = Math.ceil((end - start) / step);
        if (count > Integer.MAX_VALUE) throw new TensorException("arange", count + " elements; expected at most " + Integer.MAX_VALUE);
        int n = (int) Math.max(0, count);
        if (n > 0) {
            checkValue("arange", dtype, start, "start " + start);
            double last = start + (n - 1) * step;
            checkValue("arange", dtype, last, "value " + last + " at index " + (n - 1));
        }
        Object values = switch (dtype) {
            case F32 -> new float[n];
            case F16 -> new short[n];
            case I32 -> new int[n];
            case I64 -> new long[n];
        };
        for (int i = 0; i < n; i++) {
            double v = start + i * step;
            switch (values) {
                case float[] f -> f[i] = (float) v;
                case short[] h -> h[i] = dev.panamax.core.fp16.Fp16.toHalf((float) v);
                case int[] a -> a[i] = (int) v;
                case long[] l -> l[i] = (long) v;
                default -> throw new IllegalStateException();
            }
        }
        return write(backend, dtype, values, Shape.of(n));
    }

    /** {@code array} is a primitive array of {@code dtype}'s Java type. */
    static Tensor fromArray(Backend backend, DType dtype, Object array, int length, int[] dims) {
        Shape shape = dims.length == 0 ? Shape.of(length) : shapeOf("of", dims);
        if (shape.elements() != length) {
            throw new TensorException("of", "an array of " + length + " elements for shape " + shape + "; expected "
                    + shape.elements() + " elements");
        }
        return write(backend, dtype, array, shape);
    }

    static Tensor write(Backend backend, DType dtype, Object array, Shape shape) {
        int length = Math.toIntExact(shape.elements());
        Tensor t = Tensor.empty(backend, dtype, shape);
        try {
            backend.write(t.storage, 0, heap(array).asSlice(0, (long) length * dtype.byteSize()));
        } catch (RuntimeException | Error e) {
            Ops.free(e, t);
            throw e;
        }
        return t;
    }

    /** A primitive array as a heap segment. */
    static MemorySegment heap(Object array) {
        return switch (array) {
            case float[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("unsupported array " + array.getClass());
        };
    }

    static Tensor fromRows(Backend backend, float[][] rows) {
        int cols = rows.length == 0 ? 0 : rows[0].length;
        float[] flat = new float[rows.length * cols];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != cols) {
                throw new TensorException("of", "row " + i + " has " + rows[i].length + " values; expected " + cols + " like row 0");
            }
            System.arraycopy(rows[i], 0, flat, i * cols, cols);
        }
        return fromArray(backend, DType.F32, flat, flat.length, new int[] {rows.length, cols});
    }

    /** The most elements a Java array holds (the JDK's own limit, a few below Integer.MAX_VALUE). */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    /** {@code shape}'s element count as the length of the Java array its values are drawn into, checked. */
    static int javaArrayLength(String op, Shape shape) {
        if (shape.elements() > MAX_ARRAY_LENGTH) {
            throw new TensorException(op, "shape " + shape + " has " + shape.elements() + " elements; expected at most "
                    + MAX_ARRAY_LENGTH + " for values drawn in Java");
        }
        return (int) shape.elements();
    }

    static Tensor uniform(Backend backend, RandomGenerator rng, double low, double high, Shape shape) {
        if (!(low < high)) throw new TensorException("uniform", "range [" + low + ", " + high + "); expected low < high");
        float[] v = new float[javaArrayLength("uniform", shape)];
        for (int i = 0; i < v.length; i++) v[i] = (float) (low + (high - low) * rng.nextDouble());
        return write(backend, DType.F32, v, shape);
    }

    static Tensor normal(Backend backend, RandomGenerator rng, double mean, double std, Shape shape) {
        if (!(std >= 0)) throw new TensorException("normal", "standard deviation " + std + "; expected >= 0");
        float[] v = new float[javaArrayLength("normal", shape)];
        for (int i = 0; i < v.length; i++) v[i] = (float) (mean + std * rng.nextGaussian());
        return write(backend, DType.F32, v, shape);
    }
}
