package dev.panamax.tensor;

import dev.panamax.core.memory.NativeScope;
import dev.panamax.tensor.spi.Storage;

import java.util.function.Supplier;

/**
 * Frees every tensor made on this thread while the scope is open (their storage, including the
 * graph's intermediates and saved tensors) when it closes, except the ones {@linkplain #keep kept}.
 * Each new tensor's storage is handed to the innermost open tensor scope of its thread when the
 * tensor is made; nothing else joins it (a compute queue, buffer or library made inside a scope
 * belongs to its maker and outlives the scope). Built on core's {@link NativeScope}: scopes nest,
 * and a kept tensor moves to the enclosing scope. Gradients of leaves and optimizer state are not
 * the scope's: they belong to their parameter.
 *
 * <pre>{@code
 * for (int step = 0; step < steps; step++) {
 *     try (var scope = TensorScope.open()) {
 *         Tensor loss = Loss.crossEntropy(model.forward(x), y);
 *         loss.backward();
 *         optimizer.step();
 *         lastLoss = scope.keep(loss.detach());     // survives the scope
 *     }
 * }
 * }</pre>
 */
public final class TensorScope implements AutoCloseable {
    /** The innermost open tensor scope of each thread; {@link #NONE} inside {@link #unscoped}. */
    private static final ThreadLocal<TensorScope> CURRENT = new ThreadLocal<>();
    /** Marks "no scope takes new tensors here" while an enclosing scope is still open. */
    private static final TensorScope NONE = new TensorScope(null, null);

    private final NativeScope scope;
    private final TensorScope enclosing;

    private TensorScope(NativeScope scope, TensorScope enclosing) {
        this.scope = scope;
        this.enclosing = enclosing;
    }

    /** Opens a scope on the current thread, nested in the current one if any. */
    public static TensorScope open() {
        TensorScope enclosing = CURRENT.get();
        TensorScope s = new TensorScope(NativeScope.open(), enclosing);
        CURRENT.set(s);
        return s;
    }

    /**
     * Runs {@code body} in a scope of its own and returns its result, kept: everything else it made
     * is freed.
     */
    public static Tensor run(Supplier<Tensor> body) {
        try (TensorScope s = open()) {
            return s.keep(body.get());
        }
    }

    /**
     * Runs {@code body} with no tensor scope taking what it makes: it belongs to nobody but the GC
     * and whoever closes it (parameters, optimizer state). The thread's scopes are back in place
     * afterwards.
     */
    public static <T> T unscoped(Supplier<T> body) {
        TensorScope current = CURRENT.get();
        if (current == null || current == NONE) return body.get();
        CURRENT.set(NONE);
        try {
            return body.get();
        } finally {
            CURRENT.set(current);
        }
    }

    /** Hands a new tensor's storage to the innermost open scope of this thread, if any. */
    static void adoptNew(Storage storage) {
        TensorScope s = CURRENT.get();
        if (s != null && s != NONE) s.scope.adopt(storage.handle());
    }

    /**
     * Keeps {@code tensor}'s storage (shared with its views) past this scope: it moves to the
     * enclosing scope, or to the caller. A tensor made outside this scope is returned as it is.
     */
    public Tensor keep(Tensor tensor) {
        if (tensor != null && scope.holds(tensor.storage.handle())) scope.keep(tensor.storage.handle());
        return tensor;
    }

    /** Hands what the backends recorded to their devices, then frees what this scope holds. */
    @Override
    public void close() {
        if (scope.isClosed()) return;
        Backends.flushAll();
        try {
            scope.close(); // refuses a wrong order or thread before anything changes
        } finally {
            if (scope.isClosed()) {
                if (enclosing == null) CURRENT.remove();
                else CURRENT.set(enclosing);
            }
        }
    }
}
