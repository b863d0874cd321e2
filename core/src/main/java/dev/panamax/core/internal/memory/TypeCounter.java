package dev.panamax.core.internal.memory;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters for one kind of tracked native resource (a handle class, a pool): created and released
 * (by code and by the GC), in handles and bytes. {@link LongAdder}s keep the hot path free of a
 * shared cache line when many threads allocate at once.
 */
public final class TypeCounter {
    private static final ConcurrentHashMap<String, TypeCounter> BY_NAME = new ConcurrentHashMap<>();
    private static final ClassValue<TypeCounter> BY_CLASS = new ClassValue<>() {
        @Override
        protected TypeCounter computeValue(Class<?> type) {
            return named(type.getSimpleName());
        }
    };

    private final String name;
    private final LongAdder created = new LongAdder();
    private final LongAdder createdBytes = new LongAdder();
    private final LongAdder releasedByCode = new LongAdder();
    private final LongAdder releasedByGc = new LongAdder();
    private final LongAdder releasedBytes = new LongAdder();

    private TypeCounter(String name) {
        this.name = name;
    }

    /** The counter of a class, by its simple name. */
    public static TypeCounter of(Class<?> type) {
        return BY_CLASS.get(type);
    }

    /** The counter of a named kind. */
    public static TypeCounter named(String name) {
        return BY_NAME.computeIfAbsent(name, TypeCounter::new);
    }

    public String name() {
        return name;
    }

    void created(long bytes) {
        created.increment();
        createdBytes.add(bytes);
    }

    void released(long bytes, boolean byGc) {
        (byGc ? releasedByGc : releasedByCode).increment();
        releasedBytes.add(bytes);
    }

    public long liveCount() {
        return created.sum() - releasedByCode.sum() - releasedByGc.sum();
    }

    public long liveBytes() {
        return createdBytes.sum() - releasedBytes.sum();
    }

    public long releasedByCode() {
        return releasedByCode.sum();
    }

    public long releasedByGc() {
        return releasedByGc.sum();
    }

    /** Every counter seen so far, by name. */
    public static Map<String, TypeCounter> all() {
        return new TreeMap<>(BY_NAME);
    }
}
