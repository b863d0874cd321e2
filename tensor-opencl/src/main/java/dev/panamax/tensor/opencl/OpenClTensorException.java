package dev.panamax.tensor.opencl;

import dev.panamax.tensor.TensorDeviceException;
import dev.panamax.tensor.spi.Device;

/**
 * The {@code opencl} tensor backend could not do what was asked on its device: a kernel that does
 * not compile there, device memory it cannot get, a command buffer the device failed (a lost
 * device), or a backend already closed. The message names the kernel (its family, op, dtypes and
 * shapes) and the device.
 */
public final class OpenClTensorException extends TensorDeviceException {
    private static final long serialVersionUID = 1L;

    OpenClTensorException(Device device, String message, Throwable cause) {
        super(device, message, cause);
    }
}
