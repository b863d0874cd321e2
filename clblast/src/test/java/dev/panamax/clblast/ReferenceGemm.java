package dev.panamax.clblast;

/** The oracle: a row-major GEMM as a Java triple loop in double, rounded once to float. */
final class ReferenceGemm {
    private ReferenceGemm() {}

    /** {@code c[offC..] = alpha * op(A) * op(B) + beta * c[offC..]} in place, as CLBlast's row-major GEMM defines it. */
    static void gemm(GemmShape s, float alpha, float[] a, int offA, int lda, float[] b, int offB, int ldb,
                     float beta, float[] c, int offC, int ldc) {
        boolean ta = s.transposeA() == Transpose.YES;
        boolean tb = s.transposeB() == Transpose.YES;
        for (int i = 0; i < s.m(); i++) {
            for (int j = 0; j < s.n(); j++) {
                double sum = 0;
                for (int p = 0; p < s.k(); p++) {
                    double x = ta ? a[offA + p * lda + i] : a[offA + i * lda + p];
                    double y = tb ? b[offB + j * ldb + p] : b[offB + p * ldb + j];
                    sum += x * y;
                }
                int at = offC + i * ldc + j;
                c[at] = (float) (alpha * sum + beta * (double) c[at]);
            }
        }
    }
}
