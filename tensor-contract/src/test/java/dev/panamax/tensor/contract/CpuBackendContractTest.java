package dev.panamax.tensor.contract;


import dev.panamax.tensor.*;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.spi.Backend;

/** The contract over the cpu backend as users get it (lazy: kernels recorded, run at each sync). */
class CpuBackendContractTest extends BackendContract {
    @Override
    protected Backend candidate() {
        return Backends.get(dev.panamax.tensor.cpu.CpuBackend.NAME);
    }
}
