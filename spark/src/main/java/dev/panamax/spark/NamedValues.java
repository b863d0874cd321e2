package dev.panamax.spark;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One tensor's values as plain Java data, so Spark can ship it (in a broadcast, a task's result, a
 * {@code treeAggregate}): its name, shape and f32 elements in row-major order.
 *
 * @param name   the tensor's name ({@code 0.weight}, or an optimizer state name such as {@code state.0.exp_avg})
 * @param shape  its dimensions
 * @param values its elements
 */
public record NamedValues(String name, int[] shape, float[] values) implements Serializable {
    public NamedValues {
        shape = shape.clone();
        long n = 1;
        for (int d : shape) n *= d;
        if (n != values.length) {
            throw new IllegalArgumentException("tensor '" + name + "': shape " + Arrays.toString(shape) + " has " + n
                    + " elements; values has " + values.length);
        }
    }

    @Override
    public int[] shape() {
        return shape.clone();
    }

    /** This plus {@code other} elementwise (same name and shape), summed in float. */
    NamedValues plus(NamedValues other) {
        if (!name.equals(other.name) || !Arrays.equals(shape, other.shape)) {
            throw new IllegalArgumentException("cannot add tensor '" + other.name + "' " + Arrays.toString(other.shape) + " to '" + name
                    + "' " + Arrays.toString(shape) + "; expected the same model on every partition");
        }
        float[] sum = values.clone();
        for (int i = 0; i < sum.length; i++) sum[i] += other.values[i];
        return new NamedValues(name, shape, sum);
    }

    /** This times {@code factor}. */
    NamedValues times(double factor) {
        float[] scaled = new float[values.length];
        for (int i = 0; i < scaled.length; i++) scaled[i] = (float) (values[i] * factor);
        return new NamedValues(name, shape, scaled);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NamedValues n && name.equals(n.name) && Arrays.equals(shape, n.shape) && Arrays.equals(values, n.values);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return name + " " + Arrays.toString(shape);
    }
}
