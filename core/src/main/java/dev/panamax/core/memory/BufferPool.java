package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.Budget;
import dev.panamax.core.internal.memory.LibC;
import dev.panamax.core.internal.memory.Shadow;
import dev.panamax.core.internal.memory.Tracked;
import dev.panamax.core.internal.memory.TypeCounter;

import java.lang.ref.WeakReference;
import java.util.function.LongSupplier;

/**
 * A pool of native buffers in power-of-two size classes from {@value #MIN_CLASS} bytes to 1 GiB
 * (larger requests are allocated and freed directly), each block aligned to {@value #ALIGNMENT}
 * bytes. A {@link PooledBuffer} whose reference count drops to zero goes back to its class instead
 * of to free(), unless that would pass the cap on idle blocks per class or on idle bytes for the
 * whole pool, in which case it is freed.
 * {@link #trim()} frees idle blocks on demand; the budget also trims pools when it runs short. The
 * size classes, caps, trimming and metrics are a {@link SizeClassPool} of host blocks from the C
 * allocator, the same algorithm a compute device pools its buffers with.
 *
 * <p>Every block has a heap shadow, so the GC sees every native byte the pool holds as it sees a
 * {@link NativeBuffer}'s: a lease holds its block's shadow as its handle's shadow, an idle block
 * holds it in its class. A lease released by code (close, a scope) carries its shadow back with the
 * block, so the next hit allocates none (a fresh shadow costs the JVM a zeroing pass over fresh heap
 * regions, which for large blocks dwarfs the rest of an acquire). A lease the GC found unreachable
 * does not: its shadow was garbage with it (the release action refers to it only weakly), which is
 * what told the GC that native memory was waiting, and the next lease of that block pays for a
 * fresh one. A pool of blocks whose shadows outlived their leases would hold the heap full of
 * shadows no collection can free, and the GC would no longer pace itself to the native memory
 * dropped unclosed.
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
 * buffers still leased are freed when they are released. A pool made by {@link #create} is a
 * resource of its own (reported by leak detection until closed); one made by
 * {@link #createForProcess} lives as long as the process, for a library's process-wide pool.
 */
public final class BufferPool implements AutoCloseable {
    /** Smallest size class in bytes. */
    public static final long MIN_CLASS = 64;
    /** Largest size class in bytes (1 GiB); larger requests are not pooled. */
    public static final long MAX_CLASS = 1L << 30;
    /**
     * Alignment of every pooled block: a cache line, and the widest vector load. (malloc's 16 bytes
     * put large arrays at a page plus 16, which costs OpenBLAS's sgemm 2-3% on a 1024 x 1024 product.)
     */
    public static final long ALIGNMENT = 64;
    /** Default cap on idle blocks per size class. */
    public static final int DEFAULT_MAX_IDLE_PER_CLASS = 64;

    private final PoolState state;
    private final LongSupplier trimHook;
    /** Releases the pool when it is closed or collected; null for a process pool, which is never released. */
    private final PoolTracker tracker;

    private BufferPool(int maxIdlePerClass, long maxIdleBytes, boolean tracked) {
        if (maxIdlePerClass < 0) throw new IllegalArgumentException("bad cap: maxIdlePerClass=" + maxIdlePerClass + " expected=>= 0");
        if (maxIdleBytes < 0) throw new IllegalArgumentException("bad cap: maxIdleBytes=" + maxIdleBytes + " expected=>= 0");
        this.state = new PoolState(maxIdlePerClass, maxIdleBytes);
        this.tracker = tracked ? new PoolTracker(this, state) : null;
        PoolState st = state;
        this.trimHook = () -> st.trim(0);
        Budget.addPressureHook(trimHook);
    }

    /** A pool with the default caps: {@value #DEFAULT_MAX_IDLE_PER_CLASS} idle blocks per class, idle bytes at most 1/8 of the budget. */
    public static BufferPool create() {
        return create(DEFAULT_MAX_IDLE_PER_CLASS, NativeMemory.limitBytes() / 8);
    }

    /** A pool keeping at most {@code maxIdlePerClass} idle blocks per class and {@code maxIdleBytes} idle bytes in all. */
    public static BufferPool create(int maxIdlePerClass, long maxIdleBytes) {
        return new BufferPool(maxIdlePerClass, maxIdleBytes, true);
    }

    /**
     * A pool for the rest of the process, held by a library in a static field: it is not a resource of
     * its own (leak detection does not report it, {@link NativeMemory#outstandingSince} does not list
     * it) and {@link #close()} only trims it. Its idle blocks count as reserved but not as held
     * ({@link NativeMemory#heldBytes()}), and the budget trims it when it runs short, as any pool.
     *
     * <pre>{@code
     * static final BufferPool TENSORS = BufferPool.createForProcess(64, NativeMemory.limitBytes() / 8);
     * }</pre>
     */
    public static BufferPool createForProcess(int maxIdlePerClass, long maxIdleBytes) {
        return new BufferPool(maxIdlePerClass, maxIdleBytes, false);
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
            state.blocks.countUnpooled();
            return NativeBuffer.allocate(bytes, access, false);
        }
        return state.lease(bytes, classSize, access);
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
        return state.blocks.metrics();
    }

    /** Whether the pool still hands out buffers (a process pool always does). */
    public boolean isOpen() {
        return !state.isReleased();
    }

    /**
     * Frees the idle blocks; buffers still leased are freed when released. Idempotent. A process
     * pool ({@link #createForProcess}) stays open: closing it is a {@link #trim()}.
     */
    @Override
    public void close() {
        if (tracker != null) tracker.releaseByCode();
        else state.trim(0);
    }

    /** Releases a closable pool's state when the pool is closed or the GC finds it unreachable; never holds the pool. */
    private static final class PoolTracker extends Tracked {
        private final PoolState state;

        PoolTracker(BufferPool pool, PoolState state) {
            super(pool, TypeCounter.of(BufferPool.class), 0, LeakDetection.recordForNewHandle());
            this.state = state;
        }

        @Override
        public long address() {
            return 0;
        }

        @Override
        protected void free(boolean byGc) {
            state.close();
        }
    }

    /** The pool's state: host blocks in size classes, never the pool itself. */
    private static final class PoolState implements BlockAllocator<HostBlock> {
        /** Blocks this large ask for transparent huge pages, as a {@link NativeBuffer} of that size does. */
        private static final long HUGE_PAGE_THRESHOLD = 4L << 20;
        final SizeClassPool<HostBlock> blocks;

        PoolState(int maxIdlePerClass, long maxIdleBytes) {
            this.blocks = new SizeClassPool<>(this, 1, maxIdlePerClass, maxIdleBytes);
        }

        boolean isReleased() {
            return blocks.isClosed();
        }

        void close() {
            blocks.close();
        }

        void checkOpen() {
            if (isReleased()) throw new IllegalStateException("buffer pool closed: operation=acquire");
        }

        long trim(long keepIdleBytes) {
            return blocks.trim(keepIdleBytes);
        }

        /** A lease of an idle block (with the shadow it came back with), or of a new one reserved, allocated and shadowed. */
        PooledBuffer lease(long bytes, long classSize, SegmentAccess access) {
            HostBlock block = blocks.acquire(classSize, 0);
            Object shadow = block.shadow;
            if (shadow != null) {
                block.shadow = null;
            } else {
                // a new block, or one that came back without its shadow (its last lease was dropped,
                // not closed): this lease tells the GC about its bytes afresh, as a new allocation would
                try {
                    shadow = Shadow.of(classSize);
                } catch (Throwable t) {
                    blocks.release(block, classSize, 0);
                    throw t;
                }
            }
            // the action carries the shadow back with the block when it is still there (released by
            // code); it refers to the shadow weakly and never to the buffer, so a lease the GC finds
            // unreachable takes its shadow with it
            NativeHandle.ReleaseAction giveBack;
            if (shadow == null) {
                giveBack = block;
            } else {
                WeakReference<Object> kept = new WeakReference<>(shadow);
                giveBack = (a, n) -> block.giveBack(kept.get());
            }
            return new PooledBuffer(block.address, bytes, classSize, access, giveBack, shadow);
        }

        @Override
        public HostBlock allocate(long classSize, int variant) {
            Budget.reserve(classSize);
            long a;
            try {
                a = LibC.alignedAlloc(ALIGNMENT, classSize);
            } catch (Throwable t) {
                Budget.unreserve(classSize);
                throw t;
            }
            if (a == 0) {
                Budget.unreserve(classSize);
                throw new OutOfMemoryError("C allocator failed: classSize=" + classSize + " reserved=" + Budget.reserved());
            }
            if (classSize >= HUGE_PAGE_THRESHOLD) LibC.adviseHugePages(a, classSize);
            return new HostBlock(blocks, a, classSize);
        }

        @Override
        public void free(HostBlock block, long classSize, int variant) {
            block.shadow = null;
            try {
                LibC.free(block.address);
            } finally {
                Budget.unreserve(classSize);
            }
        }

        @Override
        public void idleChanged(long deltaBytes) {
            Budget.pooledIdleChanged(deltaBytes);
        }
    }

    /**
     * One block of host memory: its address, and while idle the heap shadow it came back with. It is
     * the release action of its leases that have no shadow (small blocks), so those cost no action of
     * their own.
     */
    private static final class HostBlock implements NativeHandle.ReleaseAction {
        final SizeClassPool<HostBlock> pool;
        final long address;
        final long classSize;
        /** The shadow kept with the block while idle; null while leased. */
        Object shadow;

        HostBlock(SizeClassPool<HostBlock> pool, long address, long classSize) {
            this.pool = pool;
            this.address = address;
            this.classSize = classSize;
        }

        @Override
        public void release(long address, long byteSize) {
            giveBack(null);
        }

        /** Back to the pool with its shadow, or freed when the pool is closed or a cap would be passed. */
        void giveBack(Object keptShadow) {
            shadow = keptShadow;
            pool.release(this, classSize, 0);
        }
    }
}
