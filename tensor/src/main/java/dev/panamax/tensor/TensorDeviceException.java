package dev.panamax.tensor;

import dev.panamax.tensor.spi.Device;

/**
 * A backend's device could not do what an op asked: memory it cannot allocate, a kernel it cannot
 * compile, a command it failed (a lost device), a backend already closed. The message names the
 * device and what was asked (the kernel or the new tensor's dtype and shape); the cause is the
 * backend's own failure.
 */
public class TensorDeviceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Device device;

    public TensorDeviceException(Device device, String message, Throwable cause) {
        super(device + ": " + message, cause);
        this.device = device;
    }

    /** The device it happened on. */
    public Device device() {
        return device;
    }
}
