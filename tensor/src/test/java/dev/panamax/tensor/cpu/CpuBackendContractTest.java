package dev.panamax.tensor.cpu;

import dev.panamax.tensor.BackendContract;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.spi.Backend;

/** The contract over the cpu backend as users get it (lazy: kernels recorded, run at each sync). */
class CpuBackendContractTest extends BackendContract {
    @Override
    protected Backend candidate() {
        return Backends.get(CpuBackend.NAME);
    }
}
