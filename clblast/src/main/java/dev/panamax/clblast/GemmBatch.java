package dev.panamax.clblast;

/**
 * A batch of equal-shaped products, the i-th reading A, B and C at {@code i * stride} elements past
 * their offsets. A stride of 0 shares one matrix among the whole batch (one weight matrix against a
 * batch of inputs); C's stride should keep the outputs apart, or the products overwrite each other.
 *
 * <pre>{@code
 * new GemmBatch(8, m * k, 0, m * n)   // 8 inputs of m x k times one k x n weight
 * }</pre>
 *
 * @param count how many products (CLBlast refuses 0 with kInvalidBatchCount)
 * @param strideA elements between consecutive A matrices
 * @param strideB elements between consecutive B matrices
 * @param strideC elements between consecutive C matrices
 */
public record GemmBatch(long count, long strideA, long strideB, long strideC) {
    /** Checks that nothing is negative (CLBlast reads these as unsigned {@code size_t}). */
    public GemmBatch {
        if (count < 0 || strideA < 0 || strideB < 0 || strideC < 0) {
            throw new IllegalArgumentException("negative batch: count=" + count + " strideA=" + strideA
                    + " strideB=" + strideB + " strideC=" + strideC + "; expected values >= 0");
        }
    }

    @Override
    public String toString() {
        return "count=" + count + " strides a=" + strideA + " b=" + strideB + " c=" + strideC;
    }
}
