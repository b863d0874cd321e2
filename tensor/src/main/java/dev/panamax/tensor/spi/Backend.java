package dev.panamax.tensor.spi;

import dev.panamax.tensor.DType;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * Where tensors live and how their kernels run. The contract:
 * <ul>
 *   <li><b>Storage.</b> {@link #allocate} returns owned memory on the backend's {@link #device()}
 *   through core's handles ({@link HostStorage} wraps a {@code NativeBuffer}, plain or pooled; a
 *   device backend's {@link DeviceStorage} owns device memory), so it is budgeted, visible to the GC
 *   and freed by close, scope or GC. Content is undefined (by default a reused block of the
 *   {@link StoragePool} holds what its last user wrote); the frontend always writes before it
 *   reads, and an op whose kernel accumulates fills its output first.</li>
 *   <li><b>Copies.</b> The frontend never touches elements itself: it copies host memory in with
 *   {@link #write}, out with {@link #read}, and between two storages of the backend with
 *   {@link #copy}, each in order with the kernels submitted before it. The defaults serve host
 *   storage; a device backend overrides all three.</li>
 *   <li><b>Declining.</b> A backend may decline a kernel ({@link #supports} false). The frontend then
 *   runs the kernel's decomposition into other kernels for the fused ones ({@link Kernel.AdamStep},
 *   {@link Kernel.CrossEntropy}, {@link Kernel.Softmax} with {@link Kernel.SoftmaxGrad},
 *   {@link Kernel.LayerNorm} with {@link Kernel.LayerNormGrad}, {@link Kernel.MaxPool2d} with
 *   {@link Kernel.MaxPool2dGrad}, {@link Kernel.BatchNorm} with {@link Kernel.BatchNormGrad}) and refuses the op, naming the backend and the kernel, for the
 *   others: there is no hidden fallback to another device.</li>
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
    /** The name users select it by ({@code reference}, {@code cpu}, {@code opencl}). */
    String name();

    /** Where its storage lives: host memory by default. */
    default Device device() {
        return Device.HOST;
    }

    /**
     * Owned memory for {@code length} elements of {@code dtype}, content undefined. By default a
     * block of the process's {@link StoragePool}, which the storage gives back when it is freed.
     */
    default Storage allocate(DType dtype, long length) {
        return HostStorage.allocate(dtype, length);
    }

    /**
     * Copies {@code from} (host memory, {@code from.byteSize()} bytes) into {@code to} from
     * {@code byteOffset}, after every kernel submitted before that touches {@code to} and before every
     * kernel submitted after; {@code from} may be reused once this returns.
     */
    default void write(Storage to, long byteOffset, MemorySegment from) {
        HostStorage h = HostStorage.of(to);
        sync(h);
        h.buffer().pin(); // a close on another thread cannot hand the block to another tensor mid-copy
        try {
            MemorySegment.copy(from, 0, h.segment(), byteOffset, from.byteSize());
        } finally {
            h.buffer().unpin();
        }
    }

    /**
     * Copies {@code to.byteSize()} bytes of {@code from}, from {@code byteOffset}, into host memory
     * {@code to}, once every kernel submitted before that writes {@code from} has run.
     */
    default void read(Storage from, long byteOffset, MemorySegment to) {
        HostStorage h = HostStorage.of(from);
        sync(h);
        h.buffer().pin();
        try {
            MemorySegment.copy(h.segment(), byteOffset, to, 0, to.byteSize());
        } finally {
            h.buffer().unpin();
        }
    }

    /**
     * Copies {@code bytes} from one storage of this backend to another (or within one, the ranges
     * apart), in order with the kernels submitted before and after.
     */
    default void copy(Storage from, long fromOffset, Storage to, long toOffset, long bytes) {
        HostStorage f = HostStorage.of(from), t = HostStorage.of(to);
        sync(f);
        sync(t);
        f.buffer().pin();
        t.buffer().pin();
        try {
            MemorySegment.copy(f.segment(), fromOffset, t.segment(), toOffset, bytes);
        } finally {
            t.buffer().unpin();
            f.buffer().unpin();
        }
    }

    /**
     * Whether the backend runs {@code kernel} itself (true by default). When not, the frontend runs
     * the decomposition of a fused kernel, or refuses any other with the backend and kernel named.
     */
    default boolean supports(Kernel kernel) {
        return true;
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

    /**
     * Hands everything submitted to the device without waiting for it; afterwards storage may be
     * freed (what the frontend calls before a {@code TensorScope} frees what it holds). A backend
     * whose committed work keeps the storage it touches alive until done (a device backend whose runs
     * pin their buffers) commits here; by default {@link #sync()}, which is always enough.
     */
    default void flush() {
        sync();
    }

    /**
     * Whether the backend's kernels check indices themselves ({@code IndexSelect}, {@code IndexAdd},
     * {@code CrossEntropy}'s labels): each kernel touches no memory out of bounds and the backend
     * throws a {@code TensorException} naming the op, the index and the bound from the next sync that
     * waits (as a GPU reports a device-side assert). False by default: the frontend then reads the
     * indices and checks them before the kernel is submitted, which is a sync on a lazy backend.
     */
    default boolean checksIndices() {
        return false;
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

    /**
     * Starts capturing a step on the calling thread ({@link Capture}): the kernels it submits from
     * now on are recorded into a program that {@link CapturedProgram#replay()} runs again and again.
     * What was submitted before is run first. By default a backend cannot capture, and says so.
     *
     * @throws dev.panamax.tensor.TensorException when the backend cannot capture, or already captures on this thread
     */
    default Capture beginCapture() {
        throw new dev.panamax.tensor.TensorException("capture", "the " + name()
                + " backend cannot capture a step; run the step eagerly, or use a backend that captures (cpu)");
    }
}
