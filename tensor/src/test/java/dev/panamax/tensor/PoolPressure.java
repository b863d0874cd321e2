package dev.panamax.tensor;

import dev.panamax.core.memory.NativeMemory;
import dev.panamax.tensor.spi.StoragePool;

import java.util.ArrayList;
import java.util.List;

/**
 * A child JVM's main, run with a native memory limit of 40 MiB (so the pool keeps at most 5 MiB
 * idle): leaves five 1 MiB blocks idle in the storage pool, holds a 4 MiB tensor, then asks for a
 * 32 MiB one, which fits only once the budget has trimmed the idle blocks. Prints
 * {@code idleBefore=B idleAfter=A reservedAfter=R limit=L}.
 */
public final class PoolPressure {
    private PoolPressure() {}

    public static void main(String[] args) {
        List<Tensor> made = new ArrayList<>();
        for (int i = 0; i < 5; i++) made.add(Tensor.zeros(256 * 1024));
        made.forEach(Tensor::close);
        long idleBefore = StoragePool.metrics().bytesIdle();
        try (Tensor _ = Tensor.zeros(1024 * 1024); Tensor big = Tensor.ones(8 * 1024 * 1024)) {
            if (big.sum().item() != 8 * 1024 * 1024) throw new AssertionError("wrong sum");
            System.out.printf("idleBefore=%d idleAfter=%d reservedAfter=%d limit=%d%n", idleBefore,
                    StoragePool.metrics().bytesIdle(), NativeMemory.reservedBytes(), NativeMemory.limitBytes());
        }
    }
}
