package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.StorageMode;
import dev.panamax.core.memory.AllocatesForCaller;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/** A buffer on an OpenCL device: a pooled {@code cl_mem}, its heap shadow, and for SHARED the host view. */
@AllocatesForCaller
final class OpenClBuffer extends Buffer {
    private static final AtomicLong IDS = new AtomicLong();
    private static final StackWalker WALKER = StackWalker.getInstance();
    /** Frames left out of a buffer's allocation site. */
    private static final java.util.Set<String> IMPLEMENTATION = java.util.Set.of(OpenClBuffer.class.getName(),
            OpenClDevice.class.getName(), DevicePool.class.getName(), "dev.panamax.compute.ComputeDevice");

    private final long id = IDS.incrementAndGet();
    private final BlockHandle handle;
    private final MemorySegment mem;
    private final MemorySegment contents;
    @SuppressWarnings("unused") // the GC's view of the device memory; never read
    private final Object shadow;

    OpenClBuffer(OpenClDevice device, long length, StorageMode mode) {
        DevicePool pool = device.pool();
        DevicePool.Block block = pool.acquire(length, mode);
        Arena view = null;
        MemorySegment hostView = null;
        DevicePool.Live live = new DevicePool.Live(block.bytes(), mode, callerSite());
        BlockHandle blockHandle;
        try {
            if (mode == StorageMode.SHARED) {
                view = Arena.ofShared();
                hostView = MemorySegment.ofAddress(block.hostAddress()).reinterpret(length, view, null);
            }
            pool.liveAdded(live);
            blockHandle = new BlockHandle(pool, block, view, live);
        } catch (Throwable t) {
            if (view != null) view.close();
            pool.liveRemoved(live);
            pool.giveBack(block);
            throw t;
        }
        super(device, length, mode, blockHandle);
        this.handle = blockHandle;
        this.contents = hostView;
        this.mem = blockHandle.pointer();
        this.shadow = pool.budget().shadow(block.bytes());
    }

    /** The {@code cl_mem}; valid while this buffer is referenced. */
    MemorySegment mem() {
        return mem;
    }

    BlockHandle block() {
        return handle;
    }

    @Override
    protected MemorySegment hostContents() {
        return contents;
    }

    @Override
    public String describe() {
        return "buffer#" + id + " (" + length() + " bytes, " + storageMode() + ")";
    }

    private static String callerSite() {
        return WALKER.walk(frames -> frames
                .filter(f -> !IMPLEMENTATION.contains(f.getClassName()))
                .findFirst().map(f -> f.toStackTraceElement().toString()).orElse("unknown"));
    }
}
