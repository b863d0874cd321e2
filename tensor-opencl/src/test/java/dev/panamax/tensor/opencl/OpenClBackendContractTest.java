package dev.panamax.tensor.opencl;

import dev.panamax.tensor.contract.BackendContract;
import dev.panamax.tensor.spi.Backend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The tensor contract on the {@code opencl} backend, on the OpenCL device this machine has (PoCL's
 * CPU device in CI): every kernel, dtype and layout against the reference backend, gradients, a
 * short training run, bit-for-bit moves to and from the device. Each test gets a backend of its own
 * and closes it, so the queue and the programs it compiled are released within the test (PoCL's
 * disk cache makes the recompiles cheap).
 */
class OpenClBackendContractTest extends BackendContract {
    private OpenClTensorBackend backend;

    @BeforeEach
    void openBackend() {
        DeviceChoice chosen = DeviceChoice.fromSettings();
        backend = new OpenClTensorBackend(chosen.device(), chosen.index());
    }

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    @Override
    protected Backend candidate() {
        return backend;
    }
}
