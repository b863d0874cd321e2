package dev.panamax.tensor.spi;

import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.tensor.DType;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Elements in native host memory: a core {@link NativeBuffer}, so it is reserved against the native
 * budget, carries a heap shadow (the GC sees its true size), and is freed exactly once.
 * {@link #allocate} leases the buffer from the process's {@link StoragePool}, so "freed" means back
 * to its size class, reused by a later storage: pooled memory holds whatever its last user wrote,
 * and the frontend writes every element before it reads one ({@code zeros} fills, accumulating
 * kernels start from a filled tensor). Host backends read and write it directly in their kernels.
 *
 * <pre>{@code
 * HostStorage s = HostStorage.allocate(DType.F32, 16);   // what Backend.allocate does by default
 * s.segment().setAtIndex(ValueLayout.JAVA_FLOAT, 0, 1f);
 * }</pre>
 */
public final class HostStorage extends Storage {
    private final NativeBuffer buffer;
    private MemorySegment segment; // made on first use: native backends need only the address

    /**
     * Wraps {@code buffer} as {@code length} elements of {@code dtype}; the storage owns the buffer
     * from now on (closing the storage closes it).
     */
    public HostStorage(NativeBuffer buffer, DType dtype, long length) {
        super(dtype, length);
        this.buffer = Objects.requireNonNull(buffer, "buffer");
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
    public static HostStorage allocate(DType dtype, long length) {
        if (length < 0) throw new IllegalArgumentException("negative storage length: " + length);
        long bytes = Math.multiplyExact(length, (long) dtype.byteSize());
        return new HostStorage(StoragePool.lease(bytes), dtype, length);
    }

    /**
     * The host storage a host backend's kernel reads or writes: {@code storage} itself, or a clear
     * failure when it lives on a device (the front end refuses mixing backends before a kernel
     * gets here).
     */
    public static HostStorage of(Storage storage) {
        if (storage instanceof HostStorage h) return h;
        throw new IllegalArgumentException("a host backend was handed storage on " + storage.device()
                + "; move the tensor with Tensor.to(...) first");
    }

    @Override
    public Device device() {
        return Device.HOST;
    }

    @Override
    public NativeHandle handle() {
        return buffer;
    }

    /** The native buffer that owns the memory. */
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
        checkAlive();
        MemorySegment s = segment;
        if (s == null) {
            // the handle's own segment() would tie a shared arena to the buffer, whose close costs a
            // thread handshake per freed tensor; liveness is checked above instead
            s = MemorySegment.ofAddress(buffer.address()).reinterpret(byteSize());
            segment = s;
        }
        return s;
    }
}
