package dev.panamax.tensor.contract;


import dev.panamax.tensor.*;
import dev.panamax.tensor.spi.Backend;

/** The contract over the cpu backend in eager mode: one crossing per kernel. */
class CpuEagerBackendContractTest extends BackendContract {
    private static final Backend EAGER = new dev.panamax.tensor.cpu.CpuBackend(false, 1);

    @Override
    protected Backend candidate() {
        return EAGER;
    }
}
