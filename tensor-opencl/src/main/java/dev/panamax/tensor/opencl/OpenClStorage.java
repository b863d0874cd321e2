package dev.panamax.tensor.opencl;

import dev.panamax.compute.Buffer;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Device;
import dev.panamax.tensor.spi.DeviceStorage;

/**
 * A tensor's elements in a PRIVATE compute {@link Buffer} of one device, from byte 0: the buffer
 * comes from the device's pool, reserved against its memory budget and visible to the GC at its true
 * size; its owned handle is this storage's, so a close, a {@code TensorScope}'s end or the GC returns
 * the block to the pool exactly once.
 */
final class OpenClStorage extends DeviceStorage {
    private final Buffer buffer;
    private final OpenClTensorBackend backend;

    OpenClStorage(OpenClTensorBackend backend, Buffer buffer, DType dtype, long length, Device device) {
        super(dtype, length, device);
        this.backend = backend;
        this.buffer = buffer;
    }

    Buffer buffer() {
        return buffer;
    }

    OpenClTensorBackend backend() {
        return backend;
    }

    @Override
    public NativeHandle handle() {
        return buffer.handle();
    }
}
