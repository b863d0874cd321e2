package dev.panamax.tensor.spi;

/**
 * The closed set of primitive operations every tensor op lowers to: elementwise (unary, binary,
 * binary with a scalar, where), reduce, matmul, fill, and the two gather/scatter moves behind
 * {@code indexSelect} and embedding gradients. Movement ops (reshape, transpose, slice, broadcast)
 * never reach a backend: they are new {@link Operand} strides over the same storage.
 *
 * <p>The frontend has already checked every kernel it sends (shapes, dtypes, indices in range), so
 * a backend may trust them. Output operands never overlap inputs except element for element (an
 * in-place update such as {@code p -= lr * g} writes {@code out == a}); outputs have no zero strides.
 */
public sealed interface Kernel {
    /** Every element of {@code out} set to {@code value} (converted to out's dtype). */
    record Fill(Operand out, double value) implements Kernel {}

    /** out = op(in); same shape (in may have zero strides). */
    record Unary(UnaryOp op, Operand out, Operand in) implements Kernel {}

    /** out = a op b; a and b already broadcast to out's shape, one dtype. */
    record Binary(BinaryOp op, Operand out, Operand a, Operand b) implements Kernel {}

    /** out = a op scalar (scalar converted to a's dtype first); same shape. */
    record BinaryScalar(BinaryOp op, Operand out, Operand a, double scalar) implements Kernel {}

    /** out = cond != 0 ? a : b; all broadcast to out's shape; a, b and out share a dtype. */
    record Where(Operand out, Operand cond, Operand a, Operand b) implements Kernel {}

    /**
     * out = reduce of in along {@code axis}: same rank, {@code out.shape[axis] == 1}, every other
     * dimension equal.
     */
    record Reduce(ReduceOp op, Operand out, Operand in, int axis) implements Kernel {}

    /**
     * Batched matrix product, rank 3: out[B, m, n] = a[B, m, k] x b[B, k, n], floating, one dtype
     * (a batch stride may be 0: one matrix shared by the batch). {@code accumulate} adds to out
     * instead of overwriting it.
     */
    record MatMul(Operand out, Operand a, Operand b, boolean accumulate) implements Kernel {}

    /**
     * out = in with dimension {@code axis} picked by {@code index} (rank 1, I32 or I64, every value in
     * range): {@code out[..., i, ...] = in[..., index[i], ...]}.
     */
    record IndexSelect(Operand out, Operand in, Operand index, int axis) implements Kernel {}

    /**
     * The adjoint of {@link IndexSelect}: {@code out[..., index[i], ...] += src[..., i, ...]},
     * accumulating where an index repeats.
     */
    record IndexAdd(Operand out, Operand index, Operand src, int axis) implements Kernel {}
}
