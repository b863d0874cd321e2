package dev.panamax.tensor.cpu;

/**
 * A shape and the strides of several operands over it, with dimensions merged where every operand
 * allows: size-1 dimensions dropped, and neighbours {@code i, i+1} joined when each operand's
 * {@code stride[i] == stride[i+1] * shape[i+1]}. Two contiguous tensors of any rank become one
 * dimension, so the kernel runs its vectorized loop over them. At least one dimension remains.
 * Held flat, as the descriptor wants it: {@code words} is the shape, then each operand's strides.
 */
record Dims(int rank, int operands, long elements, long[] words) {
    long shape(int j) {
        return words[j];
    }

    long stride(int operand, int j) {
        return words[(1 + operand) * rank + j];
    }

    /** The walk of {@code shape} by {@code operands}' strides (in elements), merged. */
    static Dims of(int[] shape, long[]... operands) {
        int rank = shape.length, ops = operands.length;
        long n = 1;
        for (int d : shape) n *= d;
        if (allContiguous(shape, operands)) {
            long[] w = new long[1 + ops];
            w[0] = Math.max(n, 1);
            for (int o = 0; o < ops; o++) w[1 + o] = 1;
            return new Dims(1, ops, n, w);
        }
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
        long[] w = new long[kept * (1 + ops)];
        for (int k = 0; k < kept; k++) {
            w[k] = s[kept - 1 - k];
            for (int o = 0; o < ops; o++) w[(1 + o) * kept + k] = st[o][kept - 1 - k];
        }
        return new Dims(kept, ops, n, w);
    }

    /** Whether every operand is row-major and dense over {@code shape} (size-1 dimensions ignored). */
    private static boolean allContiguous(int[] shape, long[][] operands) {
        for (long[] strides : operands) {
            long expected = 1;
            for (int i = shape.length - 1; i >= 0; i--) {
                if (shape[i] != 1 && strides[i] != expected) return false;
                expected *= shape[i];
            }
        }
        return true;
    }

    /** Whether dimension i (outer) continues the kept dimension (inner, of extent innerExtent) in every operand. */
    private static boolean mergeable(long[][] operands, int i, long[][] kept, long innerExtent, int k) {
        for (int o = 0; o < operands.length; o++) {
            if (operands[o][i] != kept[o][k] * innerExtent) return false;
        }
        return true;
    }
}
