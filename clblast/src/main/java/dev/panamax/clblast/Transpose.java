package dev.panamax.clblast;

import dev.panamax.clblast.binding.CLBlast;

/**
 * Whether a GEMM operand is read as stored or transposed ({@code CLBlastTranspose}). Real matrices
 * only: CLBlast's conjugate transpose is the plain transpose for them and is not offered.
 */
public enum Transpose {
    /** The operand as stored: A is m x k, B is k x n. */
    NO(CLBlast.CLBlastTransposeNo),
    /** The operand transposed: A is stored k x m, B is stored n x k. */
    YES(CLBlast.CLBlastTransposeYes);

    private final int code;

    Transpose(int code) {
        this.code = code;
    }

    /** The {@code CLBlastTranspose} value. */
    public int code() {
        return code;
    }
}
