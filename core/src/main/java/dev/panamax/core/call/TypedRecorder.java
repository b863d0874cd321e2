package dev.panamax.core.call;

import dev.panamax.core.batch.Thunk;

import java.util.Objects;

/**
 * A {@link BatchedFunction} behind a generated {@code record(batch, ...)} that takes the typed layer's
 * arguments (handle classes, primitives, segments) instead of {@code Object...}. Handles recorded are
 * kept alive until the batch is closed ({@link dev.panamax.core.batch.Batch#keep}).
 *
 * <pre>{@code
 * try (Batch batch = Batch.create(BatchMode.STANDARD)) {
 *     CLThunks.clEnqueueNDRangeKernel.record(batch, queue, kernel, 1, null, globalSize, null, 0, null, null);
 *     CLThunks.clFinish.record(batch, queue);
 *     batch.run();
 * }
 * }</pre>
 */
public abstract class TypedRecorder {
    private final BatchedFunction function;

    protected TypedRecorder(BatchedFunction function) {
        this.function = Objects.requireNonNull(function, "function");
    }

    /** The function as the batch records it (untyped {@code record(batch, Object...)}, its thunk, its status rule). */
    public final BatchedFunction function() {
        return function;
    }

    /** The function's thunk, looked up now if it was not yet ({@link BatchedFunction#thunk()}). */
    public final Thunk thunk() {
        return function.thunk();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + function + "]";
    }
}
