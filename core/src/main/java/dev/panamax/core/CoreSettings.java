package dev.panamax.core;

import dev.panamax.core.memory.LeakLevel;

import java.util.List;

/**
 * The settings of {@code panamax-core}: argument checks, leak detection, the native memory budget,
 * scratch memory, fp16 conversion threads and the cache of bundled native libraries.
 */
public final class CoreSettings implements SettingDeclarations {
    /** Whether bindings check their arguments ({@link Checks#CHECKS}). */
    public static final Setting<String> CHECKS = Setting.text("panamax.checks", "true or false", "true",
            "Whether bindings check their arguments before calling C (released handles, lengths, "
                    + "arrays the library keeps). Read once, when Checks initializes.");

    /** The starting leak detection level ({@link dev.panamax.core.memory.LeakDetection}). */
    public static final Setting<LeakLevel> LEAK_DETECTION = Setting.of("panamax.leakDetection",
            SettingType.choice(LeakLevel.class), LeakLevel.SAMPLED,
            "How many native allocations are tracked for leak reports; tests run at PARANOID.");

    /** The native memory budget. */
    public static final Setting<Long> MEMORY_LIMIT = Setting.of("panamax.memory.limit", SettingType.bytes(),
            "min(physical - heap, max(heap, physical / 4)), at least 64m", () -> null,
            "The native memory budget: reservations beyond it wait for the garbage collector, then "
                    + "fail with OutOfMemoryError. Must be positive.");

    /** The share of the budget from which the GC is asked to collect. */
    public static final Setting<Double> MEMORY_SOFT_LIMIT = Setting.of("panamax.memory.softLimit",
            SettingType.number(f -> f > 0 && f <= 1, "a fraction in (0, 1], e.g. 0.5"), 0.5,
            "The fraction of the budget in use from which native memory the GC found unreachable is "
                    + "freed before more is reserved.");

    /** The heap shadow fraction. */
    public static final Setting<Double> MEMORY_SHADOW_FRACTION = Setting.of("panamax.memory.shadowFraction",
            SettingType.number(f -> f >= 0 && f <= 0.9, "a fraction in [0, 0.9], e.g. 0.5"), 0.5,
            "The heap shadows of a whole budget add up to this fraction of the maximum heap, so the GC "
                    + "sees native memory as heap pressure.");

    /** How long an over-limit reservation waits for the GC. */
    public static final Setting<Long> MEMORY_MAX_WAIT_MILLIS = Setting.of("panamax.memory.maxWaitMillis",
            SettingType.whole(0, Long.MAX_VALUE), 2000L,
            "Milliseconds an over-limit reservation waits for the GC before OutOfMemoryError.");

    /** Scratch memory per platform thread. */
    public static final Setting<Long> SCRATCH_STACK_SIZE = Setting.of("panamax.scratchStack.size", SettingType.bytes(),
            dev.panamax.core.call.ScratchStack.DEFAULT_SIZE, "Bytes of scratch memory per platform thread for per-call temporaries (ScratchStack).");

    /** Threads of the default fp16 converter. */
    public static final Setting<Integer> FP16_THREADS = Setting.of("panamax.fp16.threads", SettingType.count(1, 64),
            "min(2, processors)", () -> Math.min(2, Runtime.getRuntime().availableProcessors()),
            "Threads the default fp16 converter uses for large conversions.");

    /** Where bundled native libraries are unpacked. */
    public static final Setting<String> CACHE_DIR = Setting.text("panamax.cacheDir", "a directory",
            "$PANAMAX_CACHE, $XDG_CACHE_HOME/panamax or ~/.cache/panamax",
            "Where the native libraries bundled in Panamax's jars are unpacked.");

    /** For {@link java.util.ServiceLoader}. */
    public CoreSettings() {}

    @Override
    public List<Setting<?>> settings() {
        return List.of(CHECKS, LEAK_DETECTION, MEMORY_LIMIT, MEMORY_SOFT_LIMIT, MEMORY_SHADOW_FRACTION,
                MEMORY_MAX_WAIT_MILLIS, SCRATCH_STACK_SIZE, FP16_THREADS, CACHE_DIR);
    }
}
