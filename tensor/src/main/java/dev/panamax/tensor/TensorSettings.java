package dev.panamax.tensor;

import dev.panamax.core.Setting;
import dev.panamax.core.SettingDeclarations;
import dev.panamax.core.SettingType;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.tensor.spi.StoragePool;

import java.util.List;

/** The settings of {@code panamax-tensor}: the backend, the cpu backend's threads and laziness, the storage pool. */
public final class TensorSettings implements SettingDeclarations {
    /** The backend new tensors are made on ({@link Backends}). */
    public static final Setting<String> BACKEND = Setting.text("panamax.tensor.backend", "the name of a tensor backend",
            "the first available backend", "The backend new tensors are made on (panamax info lists them).");

    /** The process's thread budget ({@link dev.panamax.tensor.cpu.ThreadBudget}). */
    public static final Setting<String> THREADS = Setting.text("panamax.threads",
            "a whole number from 1 to 4 per available processor", "half the available processors, at least 1",
            "Cores the cpu backend's kernels compute on (OpenMP threads; OpenBLAS stays at one, PoCL gets the same).");

    /** Whether the cpu backend records ops lazily. */
    public static final Setting<Boolean> LAZY = Setting.of("panamax.tensor.lazy", SettingType.flag(), true,
            "Whether the cpu backend records elementwise ops and runs a chain of them as one crossing.");

    /** How many ops the cpu backend records before it runs them. */
    public static final Setting<Integer> RECORDING = Setting.of("panamax.tensor.recording",
            SettingType.count(1, Integer.MAX_VALUE), 1024, "Ops the cpu backend records before it runs them.");

    /** Whether tensor storage comes from the pool. */
    public static final Setting<Boolean> POOL = Setting.of("panamax.tensor.pool", SettingType.flag(), true,
            "Whether tensor storage of 1 KiB or more comes from a pool of freed blocks instead of malloc.");

    /** Idle blocks the pool keeps per size class. */
    public static final Setting<Integer> POOL_MAX_IDLE_PER_CLASS = Setting.of("panamax.tensor.pool.maxIdlePerClass",
            SettingType.count(0, Integer.MAX_VALUE), StoragePool.DEFAULT_MAX_IDLE_PER_CLASS,
            "Idle blocks the storage pool keeps per size class.");

    /** Idle bytes the pool keeps in all. */
    public static final Setting<Long> POOL_MAX_IDLE_BYTES = Setting.of("panamax.tensor.pool.maxIdleBytes",
            SettingType.bytes(), "1/8 of panamax.memory.limit", () -> NativeMemory.limitBytes() / 8,
            "Idle bytes the storage pool keeps in all size classes together.");

    /** For {@link java.util.ServiceLoader}. */
    public TensorSettings() {}

    @Override
    public List<Setting<?>> settings() {
        return List.of(BACKEND, THREADS, LAZY, RECORDING, POOL, POOL_MAX_IDLE_PER_CLASS, POOL_MAX_IDLE_BYTES);
    }
}
