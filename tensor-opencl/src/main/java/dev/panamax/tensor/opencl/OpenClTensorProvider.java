package dev.panamax.tensor.opencl;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.BackendProvider;

/**
 * ServiceLoader entry of the {@code opencl} tensor backend: available where an OpenCL device is
 * (and the {@code panamax.tensor.device} setting, if any, names one); below {@code cpu} in priority,
 * so it is used only when asked for ({@code -Dpanamax.tensor.backend=opencl},
 * {@code Backends.use("opencl")}, {@code tensor.to("opencl")}).
 */
public final class OpenClTensorProvider implements BackendProvider {
    /** For {@link java.util.ServiceLoader}. */
    public OpenClTensorProvider() {}

    @Override
    public String name() {
        return OpenClTensorBackend.NAME;
    }

    @Override
    public int priority() {
        return 5;
    }

    @Override
    public String unavailableReason() {
        try {
            DeviceChoice.fromSettings();
            return null;
        } catch (RuntimeException | LinkageError e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    @Override
    public Backend create() {
        DeviceChoice chosen = DeviceChoice.fromSettings();
        return new OpenClTensorBackend(chosen.device(), chosen.index());
    }
}
