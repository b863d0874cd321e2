package dev.panamax.compute;

import java.lang.foreign.MemorySegment;

/**
 * Device memory of a fixed length. A {@link StorageMode#SHARED} buffer's {@link #contents()} is a
 * segment made once at creation, which the CPU reads and writes between command buffers (zero-copy
 * on a unified-memory device); a {@link StorageMode#PRIVATE} one is moved with a {@link BlitEncoder}.
 *
 * <pre>{@code
 * try (Buffer x = device.newBuffer(n * 4L, StorageMode.SHARED)) {
 *     x.contents().setAtIndex(ValueLayout.JAVA_FLOAT, 0, 1f);
 * }
 * }</pre>
 *
 * Every buffer is reserved against its device's memory budget with its true size, and carries a
 * heap shadow in proportion, so the GC frees unreachable buffers in time; close them to free them
 * at once.
 */
public abstract class Buffer extends Resource {
    private final long length;
    private final StorageMode storageMode;

    /** For backends: {@code handle} owns the device memory (see {@link Resource}). */
    protected Buffer(ComputeDevice device, long length, StorageMode storageMode, dev.panamax.core.memory.NativeHandle handle) {
        super(device, handle);
        this.length = length;
        this.storageMode = storageMode;
    }

    /** Its length in bytes. */
    public final long length() {
        return length;
    }

    public final StorageMode storageMode() {
        return storageMode;
    }

    /**
     * The buffer's memory as a segment of {@link #length()} bytes (SHARED only), valid until the buffer
     * is freed; a segment kept longer fails in Java rather than touching freed memory. Do not touch it
     * while a command buffer using the buffer runs.
     *
     * @throws IllegalStateException for a PRIVATE buffer, or a closed one
     */
    public final MemorySegment contents() {
        if (storageMode == StorageMode.PRIVATE)
            throw new IllegalStateException(describe() + " is PRIVATE: the CPU cannot touch it; copy it through a BlitEncoder "
                    + "(read/write) or make it StorageMode.SHARED");
        if (isClosed()) throw new IllegalStateException(describe() + " is closed");
        return hostContents();
    }

    /** The SHARED buffer's memory. */
    protected abstract MemorySegment hostContents();
}
