package dev.panamax.tensor.cpu;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.BackendProvider;

/**
 * ServiceLoader entry of the {@code cpu} backend: available when its native library loads (with
 * OpenBLAS and libgomp); above {@code reference} in priority, so it is the default where it runs.
 */
public final class CpuProvider implements BackendProvider {
    /** For {@link java.util.ServiceLoader}. */
    public CpuProvider() {}

    @Override
    public String name() {
        return CpuBackend.NAME;
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public String unavailableReason() {
        try {
            CpuKernel.load();
            return null;
        } catch (Throwable t) {
            return "the cpu kernels cannot load (" + CpuKernel.Library.FILE + ", which needs libopenblas.so.0 and libgomp.so.1): " + t;
        }
    }

    @Override
    public Backend create() {
        return new CpuBackend();
    }
}
