package dev.panamax.tensor.contract;

import dev.panamax.tensor.*;
import dev.panamax.tensor.spi.Backend;

/** The contract over a backend that runs nothing until sync: the frontend syncs where it must. */
class DeferringBackendContractTest extends BackendContract {
    private static final Backend DEFERRING = new DeferringBackend();

    @Override
    protected Backend candidate() {
        return DEFERRING;
    }
}
