package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.NativeQueue;
import dev.panamax.compute.spi.Submission;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * What a native command sees of an OpenCL queue during its call: the {@code cl_command_queue} and
 * the {@code cl_mem} of each buffer it declared. Made by {@link Replay} for one call and closed
 * when the call returns; then every method refuses.
 */
final class OpenClNativeQueue implements NativeQueue, AutoCloseable {
    private final OpenClDevice device;
    private final MemorySegment queue;
    private final List<Buffer> uses;
    private final Submission submission;
    private final int commandIndex;
    private final Thread caller = Thread.currentThread();
    /** Holds the cell of {@link #handlePointer()}, made when first asked for. */
    private Arena arena;
    private MemorySegment pointer;
    private volatile boolean open = true;

    OpenClNativeQueue(OpenClDevice device, MemorySegment queue, List<Buffer> uses, Submission submission, int commandIndex) {
        this.device = device;
        this.queue = queue;
        this.uses = uses;
        this.submission = submission;
        this.commandIndex = commandIndex;
    }

    @Override
    public String api() {
        ensureCallable("api");
        return OPENCL;
    }

    @Override
    public MemorySegment handle() {
        ensureCallable("handle");
        return queue;
    }

    @Override
    public MemorySegment handlePointer() {
        ensureCallable("handlePointer");
        if (pointer == null) {
            arena = Arena.ofConfined();
            pointer = arena.allocate(ValueLayout.ADDRESS);
            pointer.set(ValueLayout.ADDRESS, 0, queue);
        }
        return pointer;
    }

    @Override
    public MemorySegment bufferHandle(Buffer buffer) {
        ensureCallable("bufferHandle");
        if (buffer == null) throw new IllegalArgumentException(where() + ": bufferHandle(null): expected one of the buffers it uses");
        if (!(buffer instanceof OpenClBuffer b) || b.device() != device)
            throw new IllegalArgumentException(where() + ": " + buffer.describe() + " is not a buffer of this OpenCL device ("
                    + device.info().name() + ")");
        if (!declared(buffer))
            throw new IllegalArgumentException(where() + ": " + buffer.describe() + " is not among the buffers it declared "
                    + "(encodeNative's uses, held until the command buffer completes): declared " + uses.size() + " buffers");
        if (buffer.isFreed() && !b.block().isPinned()) // a recording pins what it uses, whatever its owner did since
            throw new IllegalStateException(where() + ": " + buffer.describe() + " was already freed (closed, and no command buffer holds it)");
        return b.mem();
    }

    /** Ends the call: the queue refuses from now on, and the handle pointer's cell is freed. */
    @Override
    public void close() {
        open = false;
        if (arena != null) arena.close();
    }

    private boolean declared(Buffer buffer) {
        for (Buffer b : uses) if (b == buffer) return true;
        return false;
    }

    private void ensureCallable(String method) {
        if (!open)
            throw new IllegalStateException(where() + ": NativeQueue." + method + "() after the native command returned "
                    + "(the queue is valid only during NativeCommand.enqueue)");
        if (Thread.currentThread() != caller)
            throw new IllegalStateException(where() + ": NativeQueue." + method + "() on " + Thread.currentThread()
                    + ", expected the thread the native command was called on, " + caller);
    }

    private String where() {
        return submission.where(commandIndex);
    }
}
