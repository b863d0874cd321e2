package dev.panamax.opencl.compute;

import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.compute.DeviceMemoryException;
import dev.panamax.compute.StorageMode;
import dev.panamax.core.memory.BufferPool;
import dev.panamax.core.memory.MemoryBudget;
import dev.panamax.core.memory.PoolMetrics;
import dev.panamax.core.memory.SizeClassMetric;
import dev.panamax.opencl.binding.CL;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A device's buffers: power-of-two size classes (64 B to 1 GiB, as core's {@code BufferPool}) of
 * {@code cl_mem} blocks, each reserved against the device's {@link MemoryBudget} with its class size
 * when first made and kept reserved while idle. A released block goes back to its class unless the
 * class or the pool's idle total is full; under budget pressure the idle blocks are freed first.
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

    private static final int CLASSES = 25; // 2^6 .. 2^30
    private static final int MAX_IDLE_PER_CLASS = 16;

    private final OpenClDevice device;
    private final MemoryBudget budget;
    private final long maxIdleBytes;
    private final ArrayDeque<Block>[] idle;
    private final AtomicLong hits = new AtomicLong(), misses = new AtomicLong(), allocations = new AtomicLong(), frees = new AtomicLong();
    private final AtomicLong bytesInUse = new AtomicLong(), bytesIdle = new AtomicLong();
    private final AtomicLongArray classHits = new AtomicLongArray(CLASSES), classMisses = new AtomicLongArray(CLASSES),
            classAllocations = new AtomicLongArray(CLASSES), classFrees = new AtomicLongArray(CLASSES),
            classInUse = new AtomicLongArray(CLASSES), classIdle = new AtomicLongArray(CLASSES);
    private final Set<Live> live = ConcurrentHashMap.newKeySet();

    @SuppressWarnings("unchecked")
    DevicePool(OpenClDevice device, MemoryBudget budget) {
        this.device = device;
        this.budget = budget;
        this.maxIdleBytes = budget.limit() / 4;
        this.idle = new ArrayDeque[CLASSES * 2];
        for (int i = 0; i < idle.length; i++) idle[i] = new ArrayDeque<>();
        budget.addPressureHook(this::trim);
    }

    MemoryBudget budget() {
        return budget;
    }

    /** A block of at least {@code length} bytes: an idle one of its class, or a new one. */
    Block acquire(long length, StorageMode mode) {
        long size = BufferPool.classSizeFor(length);
        boolean pooled = size > 0;
        if (!pooled) size = length;
        int c = pooled ? classIndex(size) : -1;
        if (pooled) {
            ArrayDeque<Block> q = idle[c * 2 + mode.ordinal()];
            Block b;
            synchronized (q) {
                b = q.pollLast();
            }
            if (b != null) {
                hits.incrementAndGet();
                classHits.incrementAndGet(c);
                classIdle.decrementAndGet(c);
                classInUse.incrementAndGet(c);
                bytesIdle.addAndGet(-b.bytes());
                bytesInUse.addAndGet(b.bytes());
                return b;
            }
            misses.incrementAndGet();
            classMisses.incrementAndGet(c);
        }
        if (!budget.reserve(size)) throw exhausted(length, size);
        Block b;
        try {
            b = create(size, mode);
        } catch (Throwable t) {
            budget.unreserve(size);
            throw t;
        }
        allocations.incrementAndGet();
        bytesInUse.addAndGet(size);
        if (c >= 0) {
            classAllocations.incrementAndGet(c);
            classInUse.incrementAndGet(c);
        }
        return b;
    }

    /** Back to its class, or freed when the class or the idle total is full. */
    void giveBack(Block b) {
        bytesInUse.addAndGet(-b.bytes());
        long size = BufferPool.classSizeFor(b.bytes());
        if (size != b.bytes()) {
            free(b, -1);
            return;
        }
        int c = classIndex(size);
        classInUse.decrementAndGet(c);
        ArrayDeque<Block> q = idle[c * 2 + b.mode().ordinal()];
        synchronized (q) {
            long after = bytesIdle.addAndGet(b.bytes());
            if (q.size() < MAX_IDLE_PER_CLASS && after <= maxIdleBytes) {
                q.addLast(b);
                classIdle.incrementAndGet(c);
                return;
            }
            bytesIdle.addAndGet(-b.bytes());
        }
        free(b, c);
    }

    /** Frees every idle block; returns the bytes given back to the budget. */
    long trim() {
        long freed = 0;
        for (int i = 0; i < idle.length; i++) {
            while (true) {
                Block b;
                synchronized (idle[i]) {
                    b = idle[i].pollFirst();
                }
                if (b == null) break;
                bytesIdle.addAndGet(-b.bytes());
                classIdle.decrementAndGet(i / 2);
                free(b, i / 2);
                freed += b.bytes();
            }
        }
        return freed;
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
        List<SizeClassMetric> classes = new ArrayList<>();
        for (int c = 0; c < CLASSES; c++) {
            if (classHits.get(c) + classMisses.get(c) + classAllocations.get(c) == 0) continue;
            classes.add(new SizeClassMetric(64L << c, classHits.get(c), classMisses.get(c), classAllocations.get(c), classFrees.get(c),
                    Math.max(0, classInUse.get(c)), Math.max(0, classIdle.get(c))));
        }
        return new PoolMetrics(hits.get(), misses.get(), allocations.get(), frees.get(), Math.max(0, bytesInUse.get()),
                Math.max(0, bytesIdle.get()), classes);
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

    private void free(Block b, int c) {
        try {
            Cl.check(CL.clReleaseMemObject(MemorySegment.ofAddress(b.mem())), "clReleaseMemObject");
        } finally {
            if (b.host() != null) b.host().close();
            budget.unreserve(b.bytes());
            frees.incrementAndGet();
            if (c >= 0) classFrees.incrementAndGet(c);
        }
    }

    private static int classIndex(long classSize) {
        return Long.numberOfTrailingZeros(classSize) - 6;
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
                .append(Cl.bytes(heldBytes)).append(" in use and ").append(Cl.bytes(Math.max(0, bytesIdle.get()))).append(" idle in the pool");
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
