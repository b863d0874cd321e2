package dev.panamax.compute;

/**
 * Work a native library enqueues itself, in order, inside a {@link CommandBuffer}: as a Metal
 * Performance Shaders kernel encodes into an {@code MTLCommandBuffer}, a library that takes the
 * backend's native queue (CLBlast's GEMM takes a {@code cl_command_queue*} and {@code cl_mem}s)
 * runs in the same command stream as the buffer's own kernels, with no host round trip between them.
 *
 * <p>Encoded with {@link CommandBuffer#encodeNative}; called once, at {@link CommandBuffer#commit()},
 * on the committing thread, after every command before it was handed to the device and before any
 * command after it. It must only <em>enqueue</em> (non-blocking calls onto {@link NativeQueue#handle()});
 * the command buffer completes when everything it enqueued has run. It reports a failure by throwing
 * (a library's error status included): the command buffer then finishes with status ERROR and a
 * {@link CommandBufferException} naming this command, and the commands after it do not run.
 *
 * <pre>{@code
 * cb.encodeNative("sgemm 64x64", List.of(a, b, c), queue -> {
 *     int status = clblast.CLBlastSgemm(..., queue.bufferHandle(a), 0, k, queue.bufferHandle(b), 0, n,
 *             0f, queue.bufferHandle(c), 0, n, queue.handlePointer(), MemorySegment.NULL);
 *     if (status != 0) throw new IllegalStateException("CLBlastSgemm returned " + status);
 * });
 * }</pre>
 */
@FunctionalInterface
public interface NativeCommand {
    /** Enqueues the command's work onto {@code queue}; valid only during this call. */
    void enqueue(NativeQueue queue);
}
