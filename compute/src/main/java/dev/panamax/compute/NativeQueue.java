package dev.panamax.compute;

import java.lang.foreign.MemorySegment;

/**
 * The backend's native queue, as a {@link NativeCommand} sees it while it enqueues: which native API
 * it is, the queue's native handle, and the native handles of the buffers the command declared.
 * Valid only during {@link NativeCommand#enqueue}, on the thread that called it; afterwards every
 * method throws {@link IllegalStateException}.
 *
 * <pre>{@code
 * cb.encodeNative("copy x to y", List.of(x, y), queue -> {
 *     if (!queue.api().equals(NativeQueue.OPENCL)) throw new UnsupportedOperationException(queue.api());
 *     int status = CL.clEnqueueCopyBuffer(queue.handle(), queue.bufferHandle(x), queue.bufferHandle(y),
 *             0, 0, x.length(), 0, MemorySegment.NULL, MemorySegment.NULL);
 *     if (status != CL.CL_SUCCESS) throw new IllegalStateException("clEnqueueCopyBuffer returned " + status);
 * });
 * }</pre>
 */
public interface NativeQueue {
    /** {@link #api()} of the OpenCL backend: the handle is a {@code cl_command_queue}, a buffer's a {@code cl_mem}. */
    String OPENCL = "opencl";

    /** Which native API the handles belong to, such as {@link #OPENCL}. */
    String api();

    /** The native queue (OpenCL: the {@code cl_command_queue}), in order: what is enqueued on it runs after the commands before. */
    MemorySegment handle();

    /**
     * A pointer to a cell holding {@link #handle()}, for libraries that take the queue by reference
     * (CLBlast's {@code cl_command_queue*}); freed when the call returns.
     */
    MemorySegment handlePointer();

    /**
     * The native handle (OpenCL: the {@code cl_mem}) of a buffer the command declared in its
     * {@code uses}; the buffer is held until the command buffer completes.
     *
     * @throws IllegalArgumentException when {@code buffer} is null, belongs to another device, or was
     *                                  not declared in the command's {@code uses}
     * @throws IllegalStateException    when the buffer's memory was already freed, or the call has returned
     */
    MemorySegment bufferHandle(Buffer buffer);
}
