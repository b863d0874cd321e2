package dev.panamax.clblast;

import dev.panamax.clblast.binding.CLBlast;

/**
 * What one GEMM call was asked to do, as a {@link ClBlastException} reports it: the routine, the
 * sizes, the three operands and, for a batched call, the batch.
 *
 * @param function the CLBlast routine ({@code CLBlastSgemm}, ...)
 * @param shape the sizes and transposes
 * @param a the A operand
 * @param b the B operand
 * @param c the C operand
 * @param batch the batch, or null for a single product
 */
public record GemmCall(String function, GemmShape shape, DeviceMatrix a, DeviceMatrix b, DeviceMatrix c, GemmBatch batch) {
    /** The call in one line of {@code key=value} details, with what CLBlast expects where a status names an operand. */
    String describe(int status) {
        StringBuilder s = new StringBuilder("row-major ").append(shape)
                .append(" a=").append(a).append(" b=").append(b).append(" c=").append(c);
        if (batch != null) s.append(" batch={").append(batch).append('}');
        String expected = expectation(status);
        if (expected != null) s.append("; ").append(expected);
        return s.toString();
    }

    private String expectation(int status) {
        return switch (status) {
            case CLBlast.CLBlastInvalidDimension -> "expected m, n and k >= 1";
            case CLBlast.CLBlastInvalidLeadDimA -> "A is stored " + rowsA() + "x" + shape.minLeadingDimensionA() + ", so expected its ld >= "
                    + shape.minLeadingDimensionA();
            case CLBlast.CLBlastInvalidLeadDimB -> "B is stored " + rowsB() + "x" + shape.minLeadingDimensionB() + ", so expected its ld >= "
                    + shape.minLeadingDimensionB();
            case CLBlast.CLBlastInvalidLeadDimC -> "C is " + shape.m() + "x" + shape.n() + ", so expected its ld >= " + shape.minLeadingDimensionC();
            case CLBlast.CLBlastInsufficientMemoryA -> "A's buffer is smaller than offset + (rows - 1) * ld + columns elements (" + rowsA() + " rows"
                    + (batch != null ? ", in every matrix of the batch)" : ")");
            case CLBlast.CLBlastInsufficientMemoryB -> "B's buffer is smaller than offset + (rows - 1) * ld + columns elements (" + rowsB() + " rows"
                    + (batch != null ? ", in every matrix of the batch)" : ")");
            case CLBlast.CLBlastInsufficientMemoryC -> "C's buffer is smaller than offset + (rows - 1) * ld + columns elements (" + shape.m() + " rows"
                    + (batch != null ? ", in every matrix of the batch)" : ")");
            case CLBlast.CLBlastInvalidBatchCount -> "expected a batch count >= 1";
            case CLBlast.CLBlastNoHalfPrecision -> "the device has no half precision (cl_khr_fp16)";
            default -> null;
        };
    }

    private long rowsA() {
        return shape.transposeA() == Transpose.NO ? shape.m() : shape.k();
    }

    private long rowsB() {
        return shape.transposeB() == Transpose.NO ? shape.k() : shape.n();
    }
}
