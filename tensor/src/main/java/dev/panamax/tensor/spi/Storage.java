package dev.panamax.tensor.spi;

import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.tensor.DType;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A tensor's elements: {@code length} values of one {@link DType}, back to back in owned native
 * memory. The memory is a core {@link NativeBuffer}, so it is reserved against the native budget,
 * carries a heap shadow (the GC sees its true size), and is freed exactly once: by {@link #close()},
 * by the {@code TensorScope} the front end handed it to when a tensor was made of it, or by the GC
 * when no tensor refers to it. A storage a backend makes for itself joins no scope.
 * Several tensors (views) may share one storage. {@link #allocate} leases the buffer from the
 * process's {@link StoragePool}, so "freed" means back to its size class, reused by a later storage:
 * pooled memory holds whatever its last user wrote, and the frontend writes every element before it
 * reads one ({@code zeros} fills, accumulating kernels start from a filled tensor).
 *
 * <pre>{@code
 * Storage s = Storage.allocate(DType.F32, 16);       // what Backend.allocate does by default
 * s.segment().setAtIndex(ValueLayout.JAVA_FLOAT, 0, 1f);
 * }</pre>
 */
public final class Storage implements AutoCloseable {
    private final NativeBuffer buffer;
    private final DType dtype;
    private final long length;
    private int version;
    private MemorySegment segment; // made on first use: native backends need only the address
    private Object backendState;

    /**
     * Wraps {@code buffer} as {@code length} elements of {@code dtype}; the storage owns the buffer
     * from now on (closing the storage closes it).
     */
    public Storage(NativeBuffer buffer, DType dtype, long length) {
        this.buffer = Objects.requireNonNull(buffer, "buffer");
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        if (length < 0) throw new IllegalArgumentException("negative storage length: " + length);
        this.length = length;
        long bytes = length * dtype.byteSize();
        if (buffer.byteSize() < bytes) {
            throw new IllegalArgumentException("buffer too small for storage: byteSize=" + buffer.byteSize()
                    + " needed=" + bytes + " (" + length + " x " + dtype.label() + ")");
        }
    }

    /**
     * Owned memory for {@code length} elements, content undefined (a reused block keeps what its
     * last user wrote), usable from any thread: leased from the {@link StoragePool}.
     */
    public static Storage allocate(DType dtype, long length) {
        if (length < 0) throw new IllegalArgumentException("negative storage length: " + length);
        long bytes = Math.multiplyExact(length, (long) dtype.byteSize());
        return new Storage(StoragePool.lease(bytes), dtype, length);
    }

    public DType dtype() {
        return dtype;
    }

    /** Number of elements. */
    public long length() {
        return length;
    }

    public long byteSize() {
        return length * dtype.byteSize();
    }

    /** The native handle that owns the memory (what scopes and the leak detector see). */
    public NativeBuffer buffer() {
        return buffer;
    }

    /** The address of element 0; fails once the storage is freed. */
    public long address() {
        return buffer.address();
    }

    /**
     * The elements as a segment of {@link #byteSize()} bytes. Fails once the storage is freed; a
     * segment kept past that point is not checked, so kernels take it when they start and hold the
     * storage (not the segment) while they wait.
     */
    public MemorySegment segment() {
        if (buffer.isReleased()) {
            throw new IllegalStateException("tensor storage already freed (closed, or its TensorScope ended): "
                    + length + " x " + dtype.label());
        }
        MemorySegment s = segment;
        if (s == null) {
            // the handle's own segment() would tie a shared arena to the buffer, whose close costs a
            // thread handshake per freed tensor; liveness is checked above instead
            s = MemorySegment.ofAddress(buffer.address()).reinterpret(byteSize());
            segment = s;
        }
        return s;
    }

    /**
     * How many in-place writes the frontend has made to this storage; autograd compares it with
     * the count when it saved a tensor, so a gradient is never computed from changed values.
     */
    public int version() {
        return version;
    }

    /** Counts one in-place write (called by the frontend when it updates elements in place). */
    public void markModified() {
        version++;
    }

    /**
     * What the backend that made this storage keeps about it (the {@code cpu} backend: which thread
     * made it and which recording of kernels writes it, so that a read or free on another thread runs
     * that recording first); null when nothing. The frontend never reads it.
     */
    public Object backendState() {
        return backendState;
    }

    /** Sets what {@link #backendState()} returns; for the backend that made the storage. */
    public void backendState(Object state) {
        this.backendState = state;
    }

    public boolean isFreed() {
        return buffer.isReleased();
    }

    /** Frees the memory now (idempotent); every tensor viewing it becomes unusable. */
    @Override
    public void close() {
        buffer.close();
    }

    @Override
    public String toString() {
        return "Storage[" + length + " x " + dtype.label() + (isFreed() ? ", freed]" : "]");
    }
}
