package dev.panamax.blas;

import dev.panamax.core.Setting;
import dev.panamax.core.SettingDeclarations;
import dev.panamax.core.SettingType;

import java.util.List;

/** The settings of {@code panamax-blas}: when products leave the critical tier, and how memory-bound routines are split. */
public final class BlasSettings implements SettingDeclarations {
    /** Staging memory each platform thread keeps between standard-tier products. */
    public static final Setting<Long> STAGING_CACHE_BYTES = Setting.of("panamax.blas.stagingCacheBytes", SettingType.bytes(),
            64L << 20, "Native memory each platform thread keeps between array products on the standard tier "
                    + "(larger products take memory for the one call).");

    /** Elements per critical call of a split memory-bound routine. */
    public static final Setting<Integer> CHUNK_ELEMENTS = Setting.of("panamax.blas.chunkElements",
            SettingType.count(1, Integer.MAX_VALUE), 1 << 20,
            "Elements per critical call when axpy, scal, gemv, dot and nrm2 on arrays run in pieces, "
                    + "bounding how long safepoints wait.");

    /** Floating-point operations from which a product leaves the critical tier. */
    public static final Setting<Long> CRITICAL_FLOPS = Setting.of("panamax.blas.criticalFlops",
            SettingType.whole(0, Long.MAX_VALUE), 1L << 31,
            "Array products of at least this many flops (2*m*n*k) copy to native memory and run on the "
                    + "standard tier instead of the critical one.");

    /** For {@link java.util.ServiceLoader}. */
    public BlasSettings() {}

    @Override
    public List<Setting<?>> settings() {
        return List.of(STAGING_CACHE_BYTES, CHUNK_ELEMENTS, CRITICAL_FLOPS);
    }
}
