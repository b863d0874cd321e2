package dev.panamax.spark;

import dev.panamax.core.Setting;
import dev.panamax.core.SettingDeclarations;
import dev.panamax.core.SettingType;

import java.util.List;

/** The settings of {@code panamax-spark}: the native memory an executor gives Panamax. */
public final class SparkSettings implements SettingDeclarations {
    /**
     * Native bytes Panamax may use on one executor (the model, once, and every running task's batch);
     * set it on the executors with {@code spark.executor.extraJavaOptions=-Dpanamax.spark.executorMemory=2g}.
     */
    public static final Setting<Long> EXECUTOR_MEMORY = Setting.of("panamax.spark.executorMemory", SettingType.bytes(),
            "spark.executor.memoryOverhead (Spark's default: 10% of spark.executor.memory, at least 384m)", () -> null,
            "Native memory Panamax may use on one executor: the model once, plus one batch per task slot.");

    /** For {@link java.util.ServiceLoader}. */
    public SparkSettings() {}

    @Override
    public List<Setting<?>> settings() {
        return List.of(EXECUTOR_MEMORY);
    }
}
