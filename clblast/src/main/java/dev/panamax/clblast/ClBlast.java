package dev.panamax.clblast;

import dev.panamax.clblast.binding.CLBlast;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.ScratchStack;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Row-major matrix products on OpenCL buffers through CLBlast: {@code C = alpha * op(A) * op(B) + beta * C}
 * in f32 ({@code sgemm}) and f16 ({@code hgemm}), one product or a strided batch. Each call enqueues
 * the work on the caller's {@code cl_command_queue} and returns; the caller owns the queue, the
 * buffers and, when it asks for one, the event.
 *
 * <pre>{@code
 * if (ClBlast.unavailableReason() == null) {
 *     ClBlast.sgemm(queue.handle(), GemmShape.of(m, n, k), 1f,
 *             DeviceMatrix.of(a.handle(), 0, k), DeviceMatrix.of(b.handle(), 0, n),
 *             0f, DeviceMatrix.of(c.handle(), 0, n), null);
 *     CLApi.clFinish(queue);
 * }
 * }</pre>
 *
 * <p>Arguments Java can judge (a missing or NULL handle, a negative offset or leading dimension, an
 * event pointer too small for a {@code cl_event}) are refused with {@link IllegalArgumentException}
 * before the call; what only CLBlast knows (a leading dimension too small, a buffer too small for
 * the matrix, a device without f16) comes back as a {@link ClBlastException} naming the status. The
 * first product of a precision and shape class on a device compiles CLBlast's kernels and can take
 * seconds; CLBlast caches them for the process ({@link #clearCache()}).
 *
 * <p>{@code event}: null (or {@link MemorySegment#NULL}) for none, otherwise a native segment of at
 * least 8 bytes that receives a new {@code cl_event} for the enqueued work, which the caller
 * releases with {@code clReleaseEvent}.
 */
public final class ClBlast {
    private static final String LIBRARY = "libclblast.so.1";
    private static final String INSTALL = "sudo apt-get install -y libclblast1";

    private ClBlast() {}

    /**
     * Null when CLBlast ({@code libclblast.so.1}) loads; otherwise why not, with the command that
     * installs it. Never throws; the answer is found once per process.
     */
    public static String unavailableReason() {
        return Availability.REASON;
    }

    /** One f32 product: {@code C = alpha * op(A) * op(B) + beta * C} ({@code CLBlastSgemm}). */
    public static void sgemm(MemorySegment queue, GemmShape shape, float alpha, DeviceMatrix a, DeviceMatrix b,
                             float beta, DeviceMatrix c, MemorySegment event) {
        GemmCall call = checked("CLBlastSgemm", queue, shape, a, b, c, null, event);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            int status = CLBlast.CLBlastSgemm(CLBlast.CLBlastLayoutRowMajor, shape.transposeA().code(),
                    shape.transposeB().code(), shape.m(), shape.n(), shape.k(), alpha,
                    a.buffer(), a.offset(), a.leadingDimension(), b.buffer(), b.offset(), b.leadingDimension(),
                    beta, c.buffer(), c.offset(), c.leadingDimension(), pointerTo(frame, queue), orNull(event));
            if (status != CLBlast.CLBlastSuccess) throw new ClBlastException(status, call);
        }
    }

    /**
     * One f16 product ({@code CLBlastHgemm}): the buffers hold IEEE half floats; {@code alpha} and
     * {@code beta} are rounded to f16 (one that overflows it is refused).
     */
    public static void hgemm(MemorySegment queue, GemmShape shape, float alpha, DeviceMatrix a, DeviceMatrix b,
                             float beta, DeviceMatrix c, MemorySegment event) {
        GemmCall call = checked("CLBlastHgemm", queue, shape, a, b, c, null, event);
        short alpha16 = half("CLBlastHgemm", "alpha", alpha);
        short beta16 = half("CLBlastHgemm", "beta", beta);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            int status = CLBlast.CLBlastHgemm(CLBlast.CLBlastLayoutRowMajor, shape.transposeA().code(),
                    shape.transposeB().code(), shape.m(), shape.n(), shape.k(), alpha16,
                    a.buffer(), a.offset(), a.leadingDimension(), b.buffer(), b.offset(), b.leadingDimension(),
                    beta16, c.buffer(), c.offset(), c.leadingDimension(), pointerTo(frame, queue), orNull(event));
            if (status != CLBlast.CLBlastSuccess) throw new ClBlastException(status, call);
        }
    }

    /**
     * {@code batch.count()} f32 products, the i-th on the matrices {@code i * stride} elements past
     * each operand's offset ({@code CLBlastSgemmStridedBatched}); a stride of 0 shares that matrix.
     */
    public static void sgemmStridedBatched(MemorySegment queue, GemmShape shape, float alpha, DeviceMatrix a,
                                           DeviceMatrix b, float beta, DeviceMatrix c, GemmBatch batch,
                                           MemorySegment event) {
        GemmCall call = checked("CLBlastSgemmStridedBatched", queue, shape, a, b, c, batch, event);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            int status = CLBlast.CLBlastSgemmStridedBatched(CLBlast.CLBlastLayoutRowMajor, shape.transposeA().code(),
                    shape.transposeB().code(), shape.m(), shape.n(), shape.k(), alpha,
                    a.buffer(), a.offset(), a.leadingDimension(), batch.strideA(),
                    b.buffer(), b.offset(), b.leadingDimension(), batch.strideB(),
                    beta, c.buffer(), c.offset(), c.leadingDimension(), batch.strideC(),
                    batch.count(), pointerTo(frame, queue), orNull(event));
            if (status != CLBlast.CLBlastSuccess) throw new ClBlastException(status, call);
        }
    }

    /** The f16 form of {@link #sgemmStridedBatched} ({@code CLBlastHgemmStridedBatched}); alpha and beta as in {@link #hgemm}. */
    public static void hgemmStridedBatched(MemorySegment queue, GemmShape shape, float alpha, DeviceMatrix a,
                                           DeviceMatrix b, float beta, DeviceMatrix c, GemmBatch batch,
                                           MemorySegment event) {
        GemmCall call = checked("CLBlastHgemmStridedBatched", queue, shape, a, b, c, batch, event);
        short alpha16 = half("CLBlastHgemmStridedBatched", "alpha", alpha);
        short beta16 = half("CLBlastHgemmStridedBatched", "beta", beta);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            int status = CLBlast.CLBlastHgemmStridedBatched(CLBlast.CLBlastLayoutRowMajor, shape.transposeA().code(),
                    shape.transposeB().code(), shape.m(), shape.n(), shape.k(), alpha16,
                    a.buffer(), a.offset(), a.leadingDimension(), batch.strideA(),
                    b.buffer(), b.offset(), b.leadingDimension(), batch.strideB(),
                    beta16, c.buffer(), c.offset(), c.leadingDimension(), batch.strideC(),
                    batch.count(), pointerTo(frame, queue), orNull(event));
            if (status != CLBlast.CLBlastSuccess) throw new ClBlastException(status, call);
        }
    }

    /**
     * Drops CLBlast's cache of compiled kernels ({@code CLBlastClearCache}): memory back, and the next
     * product of each kind compiles again. Call it when no product is in flight.
     */
    public static void clearCache() {
        requireAvailable("CLBlastClearCache");
        int status = CLBlast.CLBlastClearCache();
        if (status != CLBlast.CLBlastSuccess) throw new ClBlastException("CLBlastClearCache", status);
    }

    private static GemmCall checked(String function, MemorySegment queue, GemmShape shape, DeviceMatrix a,
                                    DeviceMatrix b, DeviceMatrix c, GemmBatch batch, MemorySegment event) {
        requireAvailable(function);
        handle(function, "queue (cl_command_queue)", queue);
        if (shape == null) throw new IllegalArgumentException(function + ": shape is null; expected the GEMM sizes");
        operand(function, "a", a);
        operand(function, "b", b);
        operand(function, "c", c);
        if (event != null && !event.equals(MemorySegment.NULL)
                && (!event.isNative() || event.byteSize() < ADDRESS.byteSize())) {
            throw new IllegalArgumentException(function + ": event out-pointer is " + (event.isNative() ? "" : "a heap segment of ")
                    + event.byteSize() + " bytes; expected null or a native segment of at least " + ADDRESS.byteSize()
                    + " bytes (one cl_event)");
        }
        return new GemmCall(function, shape, a, b, c, batch);
    }

    private static void operand(String function, String name, DeviceMatrix m) {
        if (m == null) throw new IllegalArgumentException(function + ": " + name + " is null; expected a DeviceMatrix");
        handle(function, name + ".buffer (cl_mem)", m.buffer());
        if (m.offset() < 0) {
            throw new IllegalArgumentException(function + ": " + name + ".offset=" + m.offset() + "; expected an offset >= 0 (elements)");
        }
        if (m.leadingDimension() < 0) {
            throw new IllegalArgumentException(function + ": " + name + ".ld=" + m.leadingDimension()
                    + "; expected a leading dimension >= 0 (elements)");
        }
    }

    private static void handle(String function, String name, MemorySegment handle) {
        if (handle == null || handle.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(function + ": " + name + " is " + (handle == null ? "null" : "NULL")
                    + "; expected a live OpenCL handle");
        }
        if (!handle.isNative()) {
            throw new IllegalArgumentException(function + ": " + name + " is a heap segment; expected an OpenCL handle's address");
        }
    }

    private static short half(String function, String name, float value) {
        short h = Float.floatToFloat16(value);
        if (Float.isFinite(value) && !Float.isFinite(Float.float16ToFloat(h))) {
            throw new IllegalArgumentException(function + ": " + name + "=" + value
                    + " overflows f16; expected a value of magnitude <= 65504");
        }
        return h;
    }

    private static void requireAvailable(String function) {
        String reason = Availability.REASON;
        if (reason != null) throw new IllegalStateException(function + ": " + reason);
    }

    private static MemorySegment pointerTo(ScratchStack.Frame frame, MemorySegment queue) {
        MemorySegment p = frame.allocate(ADDRESS);
        p.set(ADDRESS, 0, queue);
        return p;
    }

    private static MemorySegment orNull(MemorySegment event) {
        return event == null ? MemorySegment.NULL : event;
    }

    /** Null when {@code library} loads, else why not and how to install CLBlast; never throws. */
    static String unavailableReason(String library) {
        try {
            NativeLibrary.load(library);
            return null;
        } catch (RuntimeException | LinkageError e) {
            return "CLBlast (" + library + ") cannot be loaded: " + e.getMessage() + "; install it with: " + INSTALL;
        }
    }

    /** Whether libclblast.so.1 loads, found once. */
    private static final class Availability {
        static final String REASON = unavailableReason(LIBRARY);
    }
}
