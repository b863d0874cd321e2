package dev.panamax.tensor;

import dev.panamax.core.memory.NativeScope;

import java.util.function.Supplier;

/**
 * Frees every tensor made on this thread while the scope is open (their storage, including the
 * graph's intermediates and saved tensors) when it closes, except the ones {@linkplain #keep kept}.
 * Built on core's {@link NativeScope}: scopes nest, and a kept tensor moves to the enclosing scope.
 * Gradients of leaves and optimizer state are not the scope's: they belong to their parameter.
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
    private final NativeScope scope;

    private TensorScope(NativeScope scope) {
        this.scope = scope;
    }

    /** Opens a scope on the current thread, nested in the current one if any. */
    public static TensorScope open() {
        return new TensorScope(NativeScope.open());
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
     * Runs {@code body} with no scope open: what it makes belongs to nobody but the GC and whoever
     * closes it (parameters, optimizer state).
     */
    public static <T> T unscoped(Supplier<T> body) {
        return NativeScope.unscoped(body);
    }

    /**
     * Keeps {@code tensor}'s storage (shared with its views) past this scope: it moves to the
     * enclosing scope, or to the caller. A tensor made outside this scope is returned as it is.
     */
    public Tensor keep(Tensor tensor) {
        if (tensor != null && scope.holds(tensor.storage.buffer())) scope.keep(tensor.storage.buffer());
        return tensor;
    }

    /** Runs what the backends recorded, then frees what this scope holds. */
    @Override
    public void close() {
        Backends.syncAll();
        scope.close();
    }
}
