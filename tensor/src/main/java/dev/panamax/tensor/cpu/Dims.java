package dev.panamax.tensor.cpu;

/**
 * A shape and the strides of several operands over it, with dimensions merged where every operand
 * allows: size-1 dimensions dropped, and neighbours {@code i, i+1} joined when each operand's
 * {@code stride[i] == stride[i+1] * shape[i+1]}. Two contiguous tensors of any rank become one
 * dimension, so the kernel runs its vectorized loop over them. At least one dimension remains.
 */
record Dims(long[] shape, long[][] strides) {
    /** The walk of {@code shape} by {@code operands}' strides (in elements), merged. */
    static Dims of(int[] shape, long[]... operands) {
        int rank = shape.length, ops = operands.length;
        long[] s = new long[Math.max(rank, 1)];
        long[][] st = new long[ops][Math.max(rank, 1)];
        int kept = 0;
        for (int i = rank - 1; i >= 0; i--) {
            if (shape[i] == 1) continue;
            if (kept > 0 && mergeable(operands, i, st, s[kept - 1], kept - 1)) {
                s[kept - 1] *= shape[i];
                continue;
            }
            s[kept] = shape[i];
            for (int o = 0; o < ops; o++) st[o][kept] = operands[o][i];
            kept++;
        }
        if (kept == 0) {
            s[0] = 1;
            kept = 1;
        }
        // built innermost first: reverse into row-major order
        long[] shapeOut = new long[kept];
        long[][] stridesOut = new long[ops][kept];
        for (int k = 0; k < kept; k++) {
            shapeOut[k] = s[kept - 1 - k];
            for (int o = 0; o < ops; o++) stridesOut[o][k] = st[o][kept - 1 - k];
        }
        return new Dims(shapeOut, stridesOut);
    }

    /** Whether dimension i (outer) continues the kept dimension (inner, of extent innerExtent) in every operand. */
    private static boolean mergeable(long[][] operands, int i, long[][] kept, long innerExtent, int k) {
        for (int o = 0; o < operands.length; o++) {
            if (operands[o][i] != kept[o][k] * innerExtent) return false;
        }
        return true;
    }

    int rank() {
        return shape.length;
    }

    long elements() {
        long n = 1;
        for (long d : shape) n *= d;
        return n;
    }
}
