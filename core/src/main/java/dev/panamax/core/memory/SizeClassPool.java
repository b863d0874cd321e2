package dev.panamax.core.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The size-class algorithm behind every Panamax pool, over any kind of memory: power-of-two classes
 * from {@link BufferPool#MIN_CLASS} to {@link BufferPool#MAX_CLASS}, each a stack of idle blocks under
 * its own lock, a cap on idle blocks per class and on idle bytes in all, trimming largest classes
 * first, and {@link PoolMetrics}. How a block is made and freed is the {@link BlockAllocator}'s:
 * {@link BufferPool} pools host memory with it, a compute device its buffers.
 *
 * <p>Blocks come in {@code variants} (for a device: device-private or host-shared memory): a block is
 * only handed out again for its own variant; each (class, variant) has its own stack and per-class
 * cap, the idle-bytes cap is the pool's, and metrics add the variants of a class together.
 *
 * <pre>{@code
 * SizeClassPool<Block> pool = new SizeClassPool<>(allocator, 1, 16, limit / 4);
 * long classSize = BufferPool.classSizeFor(bytes);      // -1: too large, allocate it directly
 * Block b = pool.acquire(classSize, 0);                 // an idle block, or allocator.allocate(...)
 * ...
 * pool.release(b, classSize, 0);                        // idle again, or allocator.free(...) past a cap
 * }</pre>
 * Thread-safe. The pool does not track leases: a block acquired and never released stays counted
 * as in use.
 *
 * @param <B> a block, as its {@link BlockAllocator} makes it
 */
public final class SizeClassPool<B> {
    private static final int MIN_SHIFT = Long.numberOfTrailingZeros(BufferPool.MIN_CLASS);
    private static final int CLASSES = Long.numberOfTrailingZeros(BufferPool.MAX_CLASS) - MIN_SHIFT + 1;

    private final BlockAllocator<B> allocator;
    private final int variants;
    private final int maxIdlePerClass;
    private final long maxIdleBytes;
    /** One stack per (class, variant): index {@code class * variants + variant}. */
    private final Stack<B>[] stacks;
    private final AtomicLong idleBytes = new AtomicLong();
    private final LongAdder unpooled = new LongAdder();
    private volatile boolean closed;

    /**
     * A pool of {@code allocator}'s blocks in {@code variants} variants, keeping at most
     * {@code maxIdlePerClass} idle blocks per class and variant and {@code maxIdleBytes} idle bytes in all.
     */
    @SuppressWarnings("unchecked")
    public SizeClassPool(BlockAllocator<B> allocator, int variants, int maxIdlePerClass, long maxIdleBytes) {
        if (allocator == null) throw new IllegalArgumentException("no block allocator: allocator=null");
        if (variants < 1) throw new IllegalArgumentException("bad variant count: variants=" + variants + " expected=>= 1");
        if (maxIdlePerClass < 0) throw new IllegalArgumentException("bad cap: maxIdlePerClass=" + maxIdlePerClass + " expected=>= 0");
        if (maxIdleBytes < 0) throw new IllegalArgumentException("bad cap: maxIdleBytes=" + maxIdleBytes + " expected=>= 0");
        this.allocator = allocator;
        this.variants = variants;
        this.maxIdlePerClass = maxIdlePerClass;
        this.maxIdleBytes = maxIdleBytes;
        this.stacks = (Stack<B>[]) new Stack<?>[CLASSES * variants];
        for (int i = 0; i < stacks.length; i++) stacks[i] = new Stack<>(this, 1L << (i / variants + MIN_SHIFT), i % variants);
    }

    /**
     * A block of {@code classSize} bytes (a size class, as {@link BufferPool#classSizeFor} gives) of
     * the given variant: an idle one, or a new one from the allocator.
     */
    public B acquire(long classSize, int variant) {
        return stack(classSize, variant).acquire();
    }

    /**
     * Gives back a block {@link #acquire acquired} with the same {@code classSize} and {@code variant}:
     * it goes idle, or to the allocator's {@code free} when the pool is closed or a cap would be passed.
     */
    public void release(B block, long classSize, int variant) {
        stack(classSize, variant).release(block);
    }

    /** Counts a request too large to pool (the caller allocated it directly) as a miss. */
    public void countUnpooled() {
        unpooled.increment();
    }

    /** Frees idle blocks, largest classes first, until at most {@code keepIdleBytes} stay idle; returns the bytes freed. */
    public long trim(long keepIdleBytes) {
        long freed = 0;
        for (int i = stacks.length - 1; i >= 0 && idleBytes.get() > keepIdleBytes; i--) {
            freed += stacks[i].trim(keepIdleBytes);
        }
        return freed;
    }

    /** Bytes of the blocks idle in the pool now. */
    public long idleBytes() {
        return idleBytes.get();
    }

    /** Stops keeping blocks: frees the idle ones, and frees each block released from now on. Idempotent. */
    public void close() {
        closed = true;
        trim(0);
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Hits, misses, allocations, frees, bytes in use and idle, in total and per size class (variants added together). */
    public PoolMetrics metrics() {
        List<SizeClassMetric> classes = new ArrayList<>();
        long hits = 0, misses = unpooled.sum(), allocs = 0, frees = 0, inUse = 0, idle = 0;
        for (int c = 0; c < CLASSES; c++) {
            long ch = 0, cm = 0, ca = 0, cf = 0, cu = 0, ci = 0;
            for (int v = 0; v < variants; v++) {
                Stack<B> s = stacks[c * variants + v];
                synchronized (s) {
                    ch += s.hits;
                    cm += s.misses;
                    ca += s.allocations;
                    cf += s.frees;
                    cu += s.inUse;
                    ci += s.count;
                }
            }
            if (ch + cm + ci == 0) continue;
            SizeClassMetric m = new SizeClassMetric(1L << (c + MIN_SHIFT), ch, cm, ca, cf, cu, ci);
            classes.add(m);
            hits += ch;
            misses += cm;
            allocs += ca;
            frees += cf;
            inUse += m.bytesInUse();
            idle += m.bytesIdle();
        }
        return new PoolMetrics(hits, misses, allocs, frees, inUse, idle, classes);
    }

    private Stack<B> stack(long classSize, int variant) {
        if (classSize < BufferPool.MIN_CLASS || classSize > BufferPool.MAX_CLASS || Long.bitCount(classSize) != 1) {
            throw new IllegalArgumentException("not a size class: classSize=" + classSize
                    + " expected=a power of two from " + BufferPool.MIN_CLASS + " to " + BufferPool.MAX_CLASS);
        }
        if (variant < 0 || variant >= variants) {
            throw new IllegalArgumentException("no such variant: variant=" + variant + " expected=0.." + (variants - 1));
        }
        return stacks[(Long.numberOfTrailingZeros(classSize) - MIN_SHIFT) * variants + variant];
    }

    private void idleChanged(long delta) {
        idleBytes.addAndGet(delta);
        allocator.idleChanged(delta);
    }

    /** Counts {@code size} more idle bytes unless that passes the idle-bytes cap. */
    private boolean tryAddIdle(long size) {
        while (true) {
            long cur = idleBytes.get();
            if (cur + size > maxIdleBytes) return false;
            if (idleBytes.compareAndSet(cur, cur + size)) {
                allocator.idleChanged(size);
                return true;
            }
        }
    }

    /** One size class of one variant: a stack of idle blocks under its own lock, and its counters. */
    private static final class Stack<B> {
        final SizeClassPool<B> pool;
        final long size;
        final int variant;
        private Object[] idle = new Object[4];
        int count;
        long hits, misses, allocations, frees, inUse; // guarded by this

        Stack(SizeClassPool<B> pool, long size, int variant) {
            this.pool = pool;
            this.size = size;
            this.variant = variant;
        }

        @SuppressWarnings("unchecked")
        B acquire() {
            synchronized (this) {
                if (count > 0) {
                    hits++;
                    inUse++;
                    B b = (B) idle[--count];
                    idle[count] = null;
                    pool.idleChanged(-size);
                    return b;
                }
                misses++;
            }
            B b = pool.allocator.allocate(size, variant);
            if (b == null) throw new IllegalStateException("block allocator returned null: classSize=" + size + " variant=" + variant);
            synchronized (this) {
                allocations++;
                inUse++;
            }
            return b;
        }

        void release(B block) {
            synchronized (this) {
                inUse--;
                if (!pool.closed && count < pool.maxIdlePerClass && pool.tryAddIdle(size)) {
                    if (count == idle.length) idle = Arrays.copyOf(idle, count * 2);
                    idle[count++] = block;
                    return;
                }
                frees++;
            }
            pool.allocator.free(block, size, variant);
        }

        @SuppressWarnings("unchecked")
        long trim(long keepIdleBytes) {
            long freed = 0;
            while (true) {
                B b;
                synchronized (this) {
                    if (count == 0 || pool.idleBytes.get() <= keepIdleBytes) return freed;
                    b = (B) idle[--count];
                    idle[count] = null;
                    pool.idleChanged(-size);
                    frees++;
                }
                pool.allocator.free(b, size, variant);
                freed += size;
            }
        }
    }
}
