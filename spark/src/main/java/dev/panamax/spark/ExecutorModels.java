package dev.panamax.spark;

import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.spi.Backend;
import org.apache.spark.broadcast.Broadcast;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The models an executor JVM has loaded, one per model and backend: the first task of a model on an
 * executor builds it from the broadcast weights, every later task (and every task running beside it)
 * uses the same module. A model's copies stay until {@link #release} (what
 * {@link PanamaxClassificationModel#close()} calls in the driver's JVM, which in local mode is the
 * executors' too) or the executor exits.
 */
final class ExecutorModels {
    private record Key(String modelId, Backend backend) {}

    private static final Map<Key, LoadedModel> LOADED = new ConcurrentHashMap<>();
    private static final AtomicLong LOADS = new AtomicLong();

    private ExecutorModels() {}

    /** The model {@code modelId} on {@code backend}, loaded from {@code state} on first use in this JVM. */
    static LoadedModel get(String modelId, Broadcast<byte[]> state, ModuleFactory factory, Backend backend) {
        return LOADED.computeIfAbsent(new Key(modelId, backend), k -> {
            LOADS.incrementAndGet();
            return TensorScope.unscoped(() -> LoadedModel.load(Wire.decode(state.value(), ModelState.class), factory, backend));
        });
    }

    /** Frees every copy of {@code modelId} this JVM holds; returns how many there were. */
    static int release(String modelId) {
        List<LoadedModel> gone = new ArrayList<>();
        LOADED.keySet().removeIf(k -> {
            if (!k.modelId().equals(modelId)) return false;
            LoadedModel m = LOADED.get(k);
            if (m != null) gone.add(m);
            return true;
        });
        gone.forEach(LoadedModel::close);
        return gone.size();
    }

    /** How many times this JVM has loaded a model (each load builds a module and copies its weights in). */
    static long loads() {
        return LOADS.get();
    }
}
