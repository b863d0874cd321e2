package dev.panamax.tensor.cpu;

import dev.panamax.tensor.BackendContract;
import dev.panamax.tensor.spi.Backend;

/** The contract over the cpu backend in eager mode: one crossing per kernel. */
class CpuEagerBackendContractTest extends BackendContract {
    private static final Backend EAGER = new CpuBackend(false, 1);

    @Override
    protected Backend candidate() {
        return EAGER;
    }
}
