package dev.panamax.opencl.compute;

import dev.panamax.compute.DeviceMemoryException;
import dev.panamax.compute.StorageMode;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.core.memory.BlockAllocator;
import dev.panamax.core.memory.BufferPool;
import dev.panamax.core.memory.MemoryBudget;
import dev.panamax.core.memory.PoolMetrics;
import dev.panamax.core.memory.SizeClassPool;
import dev.panamax.opencl.binding.CL;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A device's buffers: core's {@link SizeClassPool} (the size classes, caps, trimming and metrics of
 * {@code BufferPool}) of {@code cl_mem} blocks, PRIVATE and SHARED apart, each reserved against the
 * device's {@link MemoryBudget} with its class size when first made and kept reserved while idle.
 * A released block goes back to its class unless the class or the pool's idle total is full; under
 * budget pressure the idle blocks are freed first. Requests over 1 GiB get a block of their own size,
 * freed when released. It also tracks the buffers in use, for the message when the budget runs out.
 */
@AllocatesForCaller
final class DevicePool {
    /** One {@code cl_mem} and, for SHARED, the host memory it uses in place. */
    record Block(long mem, long bytes, StorageMode mode, Arena host, long hostAddress) {}

    /** A buffer in use, for the message that says what is held (one per buffer: identity, not value, equality). */
    static final class Live {
        final long bytes;
        final StorageMode mode;
        final String site;

        Live(long bytes, StorageMode mode, String site) {
            this.bytes = bytes;
            this.mode = mode;
            this.site = site;
        }
    }

    private static final int MAX_IDLE_PER_CLASS = 16;

    private final OpenClDevice device;
    private final MemoryBudget budget;
    private final SizeClassPool<Block> blocks;
    private final Set<Live> live = ConcurrentHashMap.newKeySet();

    DevicePool(OpenClDevice device, MemoryBudget budget) {
        this.device = device;
        this.budget = budget;
        this.blocks = new SizeClassPool<>(new ClAllocator(), StorageMode.values().length, MAX_IDLE_PER_CLASS, budget.limit() / 4);
        budget.addPressureHook(this::trim);
    }

    MemoryBudget budget() {
        return budget;
    }

    /** A block of at least {@code length} bytes: an idle one of its class, or a new one. */
    Block acquire(long length, StorageMode mode) {
        long size = BufferPool.classSizeFor(length);
        try {
            if (size > 0) return blocks.acquire(size, mode.ordinal());
            blocks.countUnpooled();
            return allocate(length, mode);
        } catch (OverBudget e) {
            throw exhausted(length, e.size);
        }
    }

    /** Back to its class, or freed when the class or the idle total is full. */
    void giveBack(Block b) {
        if (BufferPool.classSizeFor(b.bytes()) != b.bytes()) release(b);
        else blocks.release(b, b.bytes(), b.mode().ordinal());
    }

    /** Frees every idle block; returns the bytes given back to the budget. */
    long trim() {
        return blocks.trim(0);
    }

    void liveAdded(Live l) {
        live.add(l);
    }

    void liveRemoved(Live l) {
        live.remove(l);
    }

    long liveCount() {
        return live.size();
    }

    PoolMetrics metrics() {
        return blocks.metrics();
    }

    /** Makes and frees the {@code cl_mem} blocks of the pool, each reserved against the device's budget. */
    private final class ClAllocator implements BlockAllocator<Block> {
        @Override
        public Block allocate(long classSize, int variant) {
            return DevicePool.this.allocate(classSize, StorageMode.values()[variant]);
        }

        @Override
        public void free(Block block, long classSize, int variant) {
            release(block);
        }
    }

    /** The budget could not reserve a new block of {@code size} bytes; {@link #acquire} says what was requested. */
    private static final class OverBudget extends RuntimeException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;
        final long size;

        OverBudget(long size) {
            super(null, null, false, false);
            this.size = size;
        }
    }

    /** A new block of {@code size} bytes reserved against the budget. */
    private Block allocate(long size, StorageMode mode) {
        if (!budget.reserve(size)) throw new OverBudget(size);
        try {
            return create(size, mode);
        } catch (Throwable t) {
            budget.unreserve(size);
            throw t;
        }
    }

    private Block create(long size, StorageMode mode) {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment err = scratch.allocate(ValueLayout.JAVA_INT);
            if (mode == StorageMode.PRIVATE) {
                MemorySegment mem = Cl.created(CL.clCreateBuffer(device.context(), CL.CL_MEM_READ_WRITE, size, MemorySegment.NULL, err),
                        err, "clCreateBuffer");
                return new Block(mem.address(), size, mode, null, 0);
            }
            Arena host = Arena.ofShared();
            try {
                MemorySegment memory = host.allocate(size, 4096);
                MemorySegment mem = Cl.created(CL.clCreateBuffer(device.context(), CL.CL_MEM_READ_WRITE | CL.CL_MEM_USE_HOST_PTR, size, memory, err),
                        err, "clCreateBuffer");
                return new Block(mem.address(), size, mode, host, memory.address());
            } catch (Throwable t) {
                host.close();
                throw t;
            }
        }
    }

    private void release(Block b) {
        try {
            Cl.check(CL.clReleaseMemObject(MemorySegment.ofAddress(b.mem())), "clReleaseMemObject");
        } finally {
            if (b.host() != null) b.host().close();
            budget.unreserve(b.bytes());
        }
    }

    private DeviceMemoryException exhausted(long requested, long size) {
        record Site(String where, long[] countBytes) {}
        Map<String, long[]> bySite = new HashMap<>();
        long heldBytes = 0;
        for (Live l : live) {
            long[] cb = bySite.computeIfAbsent(l.mode + " at " + l.site, k -> new long[2]);
            cb[0]++;
            cb[1] += l.bytes;
            heldBytes += l.bytes;
        }
        List<Site> sites = new ArrayList<>();
        bySite.forEach((k, v) -> sites.add(new Site(k, v)));
        sites.sort(Comparator.comparingLong((Site s) -> s.countBytes()[1]).reversed());
        StringBuilder b = new StringBuilder();
        b.append("device '").append(device.info().name()).append("' memory budget exhausted: requested ").append(Cl.bytes(requested))
                .append(size != requested ? " (size class " + Cl.bytes(size) + ")" : "")
                .append(", reserved ").append(Cl.bytes(budget.reserved())).append(" of ").append(Cl.bytes(budget.limit()))
                .append(" after the GC freed what was unreachable; held: ").append(live.size()).append(" buffers, ")
                .append(Cl.bytes(heldBytes)).append(" in use and ").append(Cl.bytes(blocks.idleBytes())).append(" idle in the pool");
        if (!sites.isEmpty()) {
            b.append("; allocated at: ");
            for (int i = 0; i < Math.min(5, sites.size()); i++) {
                Site s = sites.get(i);
                b.append(i == 0 ? "" : ", ").append(s.countBytes()[0]).append("x ").append(Cl.bytes(s.countBytes()[1])).append(' ').append(s.where());
            }
        }
        b.append(" (close buffers you are done with, or raise -D").append(OpenClDevice.MEMORY_LIMIT_PROPERTY).append(')');
        return new DeviceMemoryException(b.toString());
    }
}
