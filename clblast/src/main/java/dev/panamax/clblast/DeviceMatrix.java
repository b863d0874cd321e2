package dev.panamax.clblast;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A row-major matrix in an OpenCL buffer: the {@code cl_mem} handle (borrowed: the caller keeps it
 * alive until the enqueued product has run), where the matrix starts and how far apart its rows
 * are, both counted in elements of the product's precision (4 bytes for f32, 2 for f16).
 *
 * <pre>{@code
 * DeviceMatrix a = DeviceMatrix.of(aMem.handle(), 0, k);           // a dense m x k matrix
 * DeviceMatrix w = DeviceMatrix.of(packed.handle(), 1024, 256);    // a 256-wide block from element 1024 on
 * }</pre>
 *
 * @param buffer the {@code cl_mem} handle, its address as a segment
 * @param offset the first element of the matrix in the buffer
 * @param leadingDimension elements from the start of one row to the start of the next (at least
 *                         the row's length, which CLBlast checks)
 */
public record DeviceMatrix(MemorySegment buffer, long offset, long leadingDimension) {
    /** Checks that the buffer is given; the numbers are checked by each call, which names the operand. */
    public DeviceMatrix {
        Objects.requireNonNull(buffer, "buffer (a cl_mem handle)");
    }

    /** A matrix at {@code offset} elements into {@code buffer} with rows {@code leadingDimension} elements apart. */
    public static DeviceMatrix of(MemorySegment buffer, long offset, long leadingDimension) {
        return new DeviceMatrix(buffer, offset, leadingDimension);
    }

    @Override
    public String toString() {
        return "{cl_mem=0x" + Long.toHexString(buffer.address()) + " offset=" + offset + " ld=" + leadingDimension + "}";
    }
}
