package dev.panamax.core.fp16;

/** How a {@link Fp16Converter} runs a bulk conversion. */
public enum Fp16Strategy {
    /**
     * Chosen per call from the operands and the size, by measurement (the figures are in the package documentation):
     * the JDK loop for heap arrays below 2 MiB (fp32 side), the native kernel for segments and for
     * larger arrays, with streaming stores from 16 MiB and the converter's threads from 32 MiB.
     */
    AUTO,
    /**
     * {@link Float#floatToFloat16} / {@link Float#float16ToFloat} in a loop on the calling thread.
     * C2 vectorizes it over arrays (F16C / AVX-512); over segments it runs element by element.
     */
    JAVA,
    /** The libpanamax kernel (F16C, or portable C on a CPU without it) with ordinary stores. */
    NATIVE,
    /**
     * The libpanamax kernel with non-temporal stores: the destination bypasses the caches, which
     * saves reading each destination line before writing it. Wins once the data is far larger than
     * the caches; loses when the result is read again soon.
     */
    NATIVE_STREAMING
}
