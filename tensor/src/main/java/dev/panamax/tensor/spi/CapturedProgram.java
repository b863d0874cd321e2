package dev.panamax.tensor.spi;

/**
 * The kernels of one captured step ({@link Capture#finish()}), run again by {@link #replay()} on the
 * same storage, with no per-kernel work in Java: on the {@code cpu} backend one native crossing, on
 * {@code opencl} one recorded command buffer submitted (its results there for whatever runs next).
 * What changes between replays (the step's inputs, an optimizer's step scalars) is written into the
 * storage the program reads before it is replayed. Use it from one thread at a time.
 */
public interface CapturedProgram extends AutoCloseable {
    /** How many kernels the program runs. */
    int kernels();

    /**
     * Runs every kernel of the program, in order, after every kernel submitted before on this thread;
     * when it returns, the program's results are in its storage.
     *
     * @throws dev.panamax.tensor.TensorException when a kernel fails (an index out of range), naming it
     * @throws IllegalStateException when the program was closed
     */
    void replay();

    /** Frees what the program holds (its kernels' descriptors and the storage it kept). Idempotent. */
    @Override
    void close();
}
