package dev.panamax.tensor.contract;

import dev.panamax.tensor.*;
import dev.panamax.tensor.reference.ReferenceBackend;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference kernels, recorded and run only at {@link #sync()} (as a batching backend would, in
 * one crossing), with the freed storage poisoned first: if the frontend reads memory, or frees
 * storage, without syncing first, results come out wrong and the contract tests fail.
 */
final class DeferringBackend implements Backend {
    private final ReferenceBackend kernels = new ReferenceBackend();
    private final List<Kernel> recorded = new ArrayList<>();
    private long syncs;

    @Override
    public String name() {
        return "deferring-reference";
    }

    @Override
    public dev.panamax.tensor.spi.Storage allocate(DType dtype, long length) {
        var s = dev.panamax.tensor.spi.HostStorage.allocate(dtype, length);
        s.segment().fill((byte) 0x7f); // garbage a frontend that reads too early would see
        return s;
    }

    @Override
    public synchronized void execute(Kernel kernel) {
        recorded.add(kernel);
    }

    @Override
    public synchronized void sync() {
        syncs++;
        for (Kernel k : recorded) kernels.execute(k);
        recorded.clear();
    }

    @Override
    public java.util.Map<String, Long> counters() {
        return java.util.Map.of("syncs", syncs);
    }
}
