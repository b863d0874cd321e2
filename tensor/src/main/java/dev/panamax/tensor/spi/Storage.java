package dev.panamax.tensor.spi;

import dev.panamax.core.memory.NativeHandle;
import dev.panamax.tensor.DType;

import java.util.Objects;

/**
 * A tensor's elements: {@code length} values of one {@link DType}, back to back in owned memory on
 * one {@link Device}. Two kinds, a closed set: {@link HostStorage} (native host memory Java can
 * read once the backend synced: the {@code cpu} and {@code reference} backends) and
 * {@link DeviceStorage} (memory of a compute device, which only its backend reads or writes).
 *
 * <p>Either kind is owned by one core {@link NativeHandle} ({@link #handle()}): reserved against a
 * budget, visible to the GC at its true size, freed exactly once: by {@link #close()}, by the
 * {@code TensorScope} the front end handed it to when a tensor was made of it, or by the GC when no
 * tensor refers to it. Several tensors (views) may share one storage. The front end never touches
 * the elements itself: it copies in, copies out and copies between storages through the
 * {@link Backend} that made them ({@link Backend#write}, {@link Backend#read}, {@link Backend#copy}).
 */
public abstract sealed class Storage implements AutoCloseable permits HostStorage, DeviceStorage {
    private final DType dtype;
    private final long length;
    private int version;
    private Object backendState;

    Storage(DType dtype, long length) {
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        if (length < 0) throw new IllegalArgumentException("negative storage length: " + length);
        this.length = length;
    }

    public final DType dtype() {
        return dtype;
    }

    /** Number of elements. */
    public final long length() {
        return length;
    }

    public final long byteSize() {
        return length * dtype.byteSize();
    }

    /** Where the elements live. */
    public abstract Device device();

    /** The native handle that owns the memory (what scopes, pins and the leak detector see). */
    public abstract NativeHandle handle();

    /**
     * How many in-place writes the frontend has made to this storage; autograd compares it with
     * the count when it saved a tensor, so a gradient is never computed from changed values.
     */
    public final int version() {
        return version;
    }

    /** Counts one in-place write (called by the frontend when it updates elements in place). */
    public final void markModified() {
        version++;
    }

    /**
     * What the backend that made this storage keeps about it (the {@code cpu} backend: which thread
     * made it and which recording of kernels writes it); null when nothing. The frontend never reads it.
     */
    public final Object backendState() {
        return backendState;
    }

    /** Sets what {@link #backendState()} returns; for the backend that made the storage. */
    public final void backendState(Object state) {
        this.backendState = state;
    }

    public final boolean isFreed() {
        return handle().isReleased();
    }

    /** Frees the memory now (idempotent); every tensor viewing it becomes unusable. */
    @Override
    public final void close() {
        handle().close();
    }

    /** Fails with a message naming the storage when it was freed. */
    protected final void checkAlive() {
        if (isFreed()) {
            throw new IllegalStateException("tensor storage already freed (closed, or its TensorScope ended): "
                    + length + " x " + dtype.label() + " on " + device());
        }
    }

    @Override
    public String toString() {
        return "Storage[" + length + " x " + dtype.label() + " on " + device() + (isFreed() ? ", freed]" : "]");
    }
}
