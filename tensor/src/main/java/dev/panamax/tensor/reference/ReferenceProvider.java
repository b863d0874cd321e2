package dev.panamax.tensor.reference;

import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.BackendProvider;

/** ServiceLoader entry of the {@code reference} backend: always available, lowest priority. */
public final class ReferenceProvider implements BackendProvider {
    /** For {@link java.util.ServiceLoader}. */
    public ReferenceProvider() {}

    @Override
    public String name() {
        return ReferenceBackend.NAME;
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public String unavailableReason() {
        return null;
    }

    @Override
    public Backend create() {
        return new ReferenceBackend();
    }
}
