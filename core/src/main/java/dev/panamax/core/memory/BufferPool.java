package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.Budget;
import dev.panamax.core.internal.memory.LibC;
import dev.panamax.core.internal.memory.Tracked;
import dev.panamax.core.internal.memory.TypeCounter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A pool of native buffers in power-of-two size classes from {@value #MIN_CLASS} bytes to 1 GiB
 * (larger requests are allocated and freed directly). A {@link PooledBuffer} whose reference count
 * drops to zero goes back to its class instead of to free(), unless that would pass the cap on
 * idle blocks per class or on idle bytes for the whole pool, in which case it is freed.
 * {@link #trim()} frees idle blocks on demand; the budget also trims pools when it runs short.
 *
 * <pre>{@code
 * try (BufferPool pool = BufferPool.create()) {
 *     try (PooledBuffer b = (PooledBuffer) pool.acquire(65536)) {   // confined to this thread
 *         b.segment().fill((byte) 0);
 *     }                                                             // back to the 64 KiB class
 * }
 * }</pre>
 * Thread-safe: each size class has its own lock, held only to push or pop one block. Pooled memory
 * is not zeroed: it holds whatever its last user wrote. Closing the pool frees its idle blocks;
 * buffers still leased are freed when they are released.
 */
public final class BufferPool implements AutoCloseable {
    /** Smallest size class in bytes. */
    public static final long MIN_CLASS = 64;
    /** Largest size class in bytes (1 GiB); larger requests are not pooled. */
    public static final long MAX_CLASS = 1L << 30;
    private static final int MIN_SHIFT = 6;
    private static final int MAX_SHIFT = 30;
    /** Default cap on idle blocks per size class. */
    public static final int DEFAULT_MAX_IDLE_PER_CLASS = 64;

    private final PoolState state;
    private final LongSupplier trimHook;

    private BufferPool(int maxIdlePerClass, long maxIdleBytes) {
        if (maxIdlePerClass < 0) throw new IllegalArgumentException("bad cap: maxIdlePerClass=" + maxIdlePerClass + " expected=>= 0");
        if (maxIdleBytes < 0) throw new IllegalArgumentException("bad cap: maxIdleBytes=" + maxIdleBytes + " expected=>= 0");
        this.state = new PoolState(this, maxIdlePerClass, maxIdleBytes);
        PoolState st = state;
        this.trimHook = () -> st.trim(0);
        Budget.addPressureHook(trimHook);
    }

    /** A pool with the default caps: {@value #DEFAULT_MAX_IDLE_PER_CLASS} idle blocks per class, idle bytes at most 1/8 of the budget. */
    public static BufferPool create() {
        return new BufferPool(DEFAULT_MAX_IDLE_PER_CLASS, NativeMemory.limitBytes() / 8);
    }

    /** A pool keeping at most {@code maxIdlePerClass} idle blocks per class and {@code maxIdleBytes} idle bytes in all. */
    public static BufferPool create(int maxIdlePerClass, long maxIdleBytes) {
        return new BufferPool(maxIdlePerClass, maxIdleBytes);
    }

    /** The size class serving {@code bytes}, or -1 when it is too large to pool. */
    public static long classSizeFor(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative buffer size: byteSize=" + bytes);
        if (bytes > MAX_CLASS) return -1;
        if (bytes <= MIN_CLASS) return MIN_CLASS;
        return Long.highestOneBit(bytes - 1) << 1;
    }

    /**
     * A buffer of {@code bytes} for the calling thread ({@link SegmentAccess#CONFINED}: the cheapest
     * lease; only this thread may use or release it). A {@link PooledBuffer} unless larger than 1 GiB.
     */
    public NativeBuffer acquire(long bytes) {
        return acquire(bytes, SegmentAccess.CONFINED);
    }

    /** A buffer of {@code bytes} that any thread may use and release. */
    public NativeBuffer acquireShared(long bytes) {
        return acquire(bytes, SegmentAccess.SHARED);
    }

    /** A buffer of {@code bytes} with the given access. */
    public NativeBuffer acquire(long bytes, SegmentAccess access) {
        long classSize = classSizeFor(bytes);
        state.checkOpen();
        if (classSize < 0) {
            state.unpooled.increment();
            return NativeBuffer.allocate(bytes, access, false);
        }
        SizeClass c = state.classes[Long.numberOfTrailingZeros(classSize) - MIN_SHIFT];
        long address = c.take();
        return new PooledBuffer(address, bytes, classSize, access, c.giveBack);
    }

    /** Frees every idle block; returns the bytes freed. */
    public long trim() {
        return state.trim(0);
    }

    /** Frees idle blocks, largest classes first, until at most {@code keepIdleBytes} stay idle; returns the bytes freed. */
    public long trim(long keepIdleBytes) {
        return state.trim(keepIdleBytes);
    }

    /** Hits, misses, allocations, frees, bytes in use and idle, in total and per size class. */
    public PoolMetrics metrics() {
        List<SizeClassMetric> classes = new ArrayList<>();
        long hits = 0, misses = state.unpooled.sum(), allocs = 0, frees = 0, inUse = 0, idle = 0;
        for (SizeClass c : state.classes) {
            SizeClassMetric m = c.metric();
            if (m.hits() + m.misses() + m.idle() == 0) continue;
            classes.add(m);
            hits += m.hits();
            misses += m.misses();
            allocs += m.allocations();
            frees += m.frees();
            inUse += m.bytesInUse();
            idle += m.bytesIdle();
        }
        return new PoolMetrics(hits, misses, allocs, frees, inUse, idle, classes);
    }

    /** Whether the pool still hands out buffers. */
    public boolean isOpen() {
        return !state.isReleased();
    }

    /** Frees the idle blocks; buffers still leased are freed when released. Idempotent. */
    @Override
    public void close() {
        state.releaseByCode();
    }

    /** The pool's cleanup state: size classes and idle accounting, never the pool itself. */
    private static final class PoolState extends Tracked {
        final SizeClass[] classes = new SizeClass[MAX_SHIFT - MIN_SHIFT + 1];
        final int maxIdlePerClass;
        final long maxIdleBytes;
        final AtomicLong idleBytes = new AtomicLong();
        final LongAdder unpooled = new LongAdder();

        PoolState(BufferPool pool, int maxIdlePerClass, long maxIdleBytes) {
            super(pool, TypeCounter.of(BufferPool.class), 0, LeakDetection.recordForNewHandle());
            this.maxIdlePerClass = maxIdlePerClass;
            this.maxIdleBytes = maxIdleBytes;
            for (int i = 0; i < classes.length; i++) classes[i] = new SizeClass(this, 1L << (i + MIN_SHIFT));
        }

        void idleChanged(long delta) {
            idleBytes.addAndGet(delta);
            Budget.pooledIdleChanged(delta);
        }

        /** Counts {@code size} more idle bytes unless that passes the global cap. */
        boolean tryAddIdle(long size) {
            while (true) {
                long cur = idleBytes.get();
                if (cur + size > maxIdleBytes) return false;
                if (idleBytes.compareAndSet(cur, cur + size)) {
                    Budget.pooledIdleChanged(size);
                    return true;
                }
            }
        }

        void checkOpen() {
            if (isReleased()) throw new IllegalStateException("buffer pool closed: operation=acquire");
        }

        @Override
        public long address() {
            return 0;
        }

        @Override
        protected void free(boolean byGc) {
            trim(0);
        }

        long trim(long keepIdleBytes) {
            long freed = 0;
            for (int i = classes.length - 1; i >= 0 && idleBytes.get() > keepIdleBytes; i--) {
                freed += classes[i].trim(keepIdleBytes);
            }
            return freed;
        }
    }

    /** One size class: a stack of idle block addresses under its own lock, and its counters. */
    private static final class SizeClass {
        final PoolState pool;
        final long size;
        final NativeHandle.ReleaseAction giveBack;
        private long[] idle = new long[4];
        private int count;
        private long hits, misses, allocations, frees, inUse; // guarded by this

        SizeClass(PoolState pool, long size) {
            this.pool = pool;
            this.size = size;
            this.giveBack = (address, byteSize) -> giveBack(address);
        }

        /** An idle block, or a new one reserved and allocated. */
        long take() {
            synchronized (this) {
                if (count > 0) {
                    hits++;
                    inUse++;
                    long a = idle[--count];
                    pool.idleChanged(-size);
                    return a;
                }
                misses++;
            }
            Budget.reserve(size);
            long a;
            try {
                a = LibC.malloc(size);
            } catch (Throwable t) {
                Budget.unreserve(size);
                throw t;
            }
            if (a == 0) {
                Budget.unreserve(size);
                throw new OutOfMemoryError("C allocator failed: classSize=" + size + " reserved=" + Budget.reserved());
            }
            synchronized (this) {
                allocations++;
                inUse++;
            }
            return a;
        }

        /** Back to the class, or freed when the pool is closed or a cap would be passed. */
        void giveBack(long address) {
            synchronized (this) {
                inUse--;
                if (!pool.isReleased() && count < pool.maxIdlePerClass && pool.tryAddIdle(size)) {
                    if (count == idle.length) idle = java.util.Arrays.copyOf(idle, count * 2);
                    idle[count++] = address;
                    return;
                }
                frees++;
            }
            freeBlock(address);
        }

        long trim(long keepIdleBytes) {
            long freed = 0;
            while (true) {
                long a;
                synchronized (this) {
                    if (count == 0 || pool.idleBytes.get() <= keepIdleBytes) return freed;
                    a = idle[--count];
                    pool.idleChanged(-size);
                    frees++;
                }
                freeBlock(a);
                freed += size;
            }
        }

        private void freeBlock(long address) {
            try {
                LibC.free(address);
            } finally {
                Budget.unreserve(size);
            }
        }

        synchronized SizeClassMetric metric() {
            return new SizeClassMetric(size, hits, misses, allocations, frees, inUse, count);
        }
    }
}
