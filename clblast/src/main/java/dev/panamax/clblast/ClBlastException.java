package dev.panamax.clblast;

import dev.panamax.clblast.binding.CLBlastException;

import java.util.Optional;

/**
 * A CLBlast routine returned a status other than {@code CLBlastSuccess}. The message names the
 * routine, the status as CLBlast names it ({@link #errorName()}, e.g. {@code kInvalidLeadDimA}) with
 * its code, and the call's sizes and operands:
 *
 * <pre>
 * kInvalidLeadDimA (-1016) in CLBlastSgemm: row-major m=4 n=5 k=3 transposeA=NO transposeB=NO
 *     a={cl_mem=0x7f.. offset=0 ld=2} ...; A is stored 4x3, so expected its ld &gt;= 3
 * </pre>
 */
public final class ClBlastException extends CLBlastException {
    private static final long serialVersionUID = 1L;

    /** The call, for GEMM routines; not serialized. */
    private final transient GemmCall call;

    ClBlastException(int status, GemmCall call) {
        super(call.function(), "clblast_status", status, call.describe(status));
        this.call = call;
    }

    ClBlastException(String function, int status) {
        super(function, "clblast_status", status);
        this.call = null;
    }

    /** The GEMM call that failed, or empty for a routine that is not a product ({@code CLBlastClearCache}). */
    public Optional<GemmCall> call() {
        return Optional.ofNullable(call);
    }
}
