package dev.panamax.tensor.spi;

import dev.panamax.tensor.DType;

import java.util.Map;

/**
 * Where tensors live and how their kernels run. The contract:
 * <ul>
 *   <li><b>Storage.</b> {@link #allocate} returns owned native memory through core's handles
 *   ({@link Storage} wraps a {@code NativeBuffer}, plain or pooled), so it is budgeted, shadowed on
 *   the heap and freed by close, scope or GC. Content is undefined (by default a reused block of the
 *   {@link StoragePool} holds what its last user wrote); the frontend always writes before it
 *   reads, and an op whose kernel accumulates fills its output first.</li>
 *   <li><b>Kernels.</b> {@link #execute} receives one {@link Kernel} of a closed set over strided
 *   {@link Operand}s, already validated. A backend may run it at once or <em>record</em> it and run
 *   a whole recording in one native crossing later; kernels must take effect in the order they were
 *   submitted. A backend that records holds the kernels' {@link Storage} objects until they ran, so
 *   nothing they touch can be freed by the GC meanwhile.</li>
 *   <li><b>Sync.</b> After {@link #sync()} returns, every submitted kernel has run and Java may
 *   read and write storage memory directly. The frontend calls it before reading elements
 *   ({@code toFloatArray}, {@code item}, saving), before writing them from Java, before freeing
 *   storage deliberately ({@code close}, the end of a {@code TensorScope}), and on
 *   {@code Tensor.sync()}. A failure of a recorded kernel surfaces from {@code sync}.</li>
 *   <li><b>Threads.</b> {@code execute} and {@code sync} may be called from any thread; a backend
 *   that records keeps one recording per thread or synchronizes. Whichever thread recorded a kernel,
 *   a kernel submitted on another thread sees its results (it runs after it when it reads what it
 *   writes, and before nothing it reads is overwritten), {@link #sync(Storage)} completes every kernel
 *   that touches the storage, and {@link #sync()} completes what this thread submitted and every
 *   kernel of any thread that touches storage made on another thread. Results computed on one thread
 *   are visible to the thread that syncs (a proper happens-before, not a hope).</li>
 * </ul>
 * Backends are found by {@link java.util.ServiceLoader} through {@link BackendProvider}; every
 * backend must give the same results as the {@code reference} backend on the same inputs (to float
 * rounding), which the contract test suite checks kernel by kernel.
 */
public interface Backend {
    /** The name users select it by ({@code reference}, {@code cpu}). */
    String name();

    /**
     * Owned memory for {@code length} elements of {@code dtype}, content undefined. By default a
     * block of the process's {@link StoragePool}, which the storage gives back when it is freed.
     */
    default Storage allocate(DType dtype, long length) {
        return Storage.allocate(dtype, length);
    }

    /** Runs {@code kernel}, now or (in submission order) by the next {@link #sync()}. */
    void execute(Kernel kernel);

    /**
     * Runs everything submitted so far on this thread (and what other threads submitted on storage
     * shared between threads); afterwards storage memory is current, and storage may be freed.
     */
    void sync();

    /**
     * Runs every submitted kernel, from any thread, that reads or writes {@code storage}, and what
     * this thread submitted; afterwards this thread may read, write or free it. What the frontend
     * calls before reading elements, writing them from Java or closing a tensor. By default
     * {@link #sync()}, which is enough for a backend that runs kernels when submitted.
     */
    default void sync(Storage storage) {
        sync();
    }

    /** How many threads the backend computes with. */
    default int threads() {
        return 1;
    }

    /**
     * The backend's own counters, by name (for example native crossings and kernels per crossing);
     * empty when it keeps none.
     */
    default Map<String, Long> counters() {
        return Map.of();
    }
}
