package dev.panamax.tensor.spi;

import dev.panamax.core.memory.NativeHandle;
import dev.panamax.tensor.DType;

import java.util.Objects;

/**
 * Elements in the memory of a compute device: only the backend that made the storage reads or
 * writes them (the front end copies through {@link Backend#read}, {@link Backend#write} and
 * {@link Backend#copy}). A device backend subclasses it to keep its own handle of the memory (for
 * the {@code opencl} backend, a compute {@code Buffer}); {@link #handle()} owns that memory, so
 * scopes, the GC and leak detection free it exactly once, as for host storage.
 */
public abstract non-sealed class DeviceStorage extends Storage {
    private final Device device;

    protected DeviceStorage(DType dtype, long length, Device device) {
        super(dtype, length);
        this.device = Objects.requireNonNull(device, "device");
        if (device.isHost()) throw new IllegalArgumentException("device storage tagged as host memory: " + device);
    }

    @Override
    public final Device device() {
        return device;
    }

    @Override
    public abstract NativeHandle handle();
}
