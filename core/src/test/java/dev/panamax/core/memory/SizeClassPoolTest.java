package dev.panamax.core.memory;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/** The size-class algorithm over an allocator that only counts: which hooks run, when, with what. */
class SizeClassPoolTest {
    /** A block: which allocation it was, its class and variant. */
    record Block(long id, long classSize, int variant) {}

    /** Counts its calls and the bytes it holds; fails allocations on demand. */
    static final class CountingAllocator implements BlockAllocator<Block> {
        final AtomicLong ids = new AtomicLong(), allocations = new AtomicLong(), frees = new AtomicLong(), held = new AtomicLong(), idle = new AtomicLong();
        final Set<Long> live = ConcurrentHashMap.newKeySet();
        volatile boolean failing;

        @Override
        public Block allocate(long classSize, int variant) {
            if (failing) throw new IllegalStateException("out of test memory: classSize=" + classSize);
            allocations.incrementAndGet();
            held.addAndGet(classSize);
            Block b = new Block(ids.incrementAndGet(), classSize, variant);
            live.add(b.id());
            return b;
        }

        @Override
        public void free(Block block, long classSize, int variant) {
            assertEquals(block.classSize(), classSize, "freed with the class it was made for");
            assertEquals(block.variant(), variant, "freed with the variant it was made for");
            assertTrue(live.remove(block.id()), "freed once: " + block);
            frees.incrementAndGet();
            held.addAndGet(-classSize);
        }

        @Override
        public void idleChanged(long deltaBytes) {
            idle.addAndGet(deltaBytes);
        }
    }

    @Test
    void missAllocatesAndReleasedBlockIsReusedWithoutTheAllocator() {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 1, 4, 1 << 20);
        Block a = pool.acquire(1024, 0);
        assertEquals(new Block(1, 1024, 0), a);
        pool.release(a, 1024, 0);
        assertEquals(1024, alloc.idle.get(), "the allocator is told of idle bytes");
        assertSame(a, pool.acquire(1024, 0), "the idle block is handed out again");
        assertEquals(1, alloc.allocations.get());
        assertEquals(0, alloc.idle.get());
        PoolMetrics m = pool.metrics();
        assertEquals(1, m.hits());
        assertEquals(1, m.misses());
        assertEquals(1, m.allocations());
        assertEquals(1024, m.bytesInUse());
        assertEquals(List.of(new SizeClassMetric(1024, 1, 1, 1, 0, 1, 0)), m.classes());
        pool.release(a, 1024, 0);
        pool.close();
        assertEquals(1, alloc.frees.get(), "close frees the idle block");
        assertEquals(0, alloc.held.get());
    }

    @Test
    void variantsNeverStandInForOneAnotherButShareTheirClassMetric() {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 2, 4, 1 << 20);
        Block priv = pool.acquire(4096, 0);
        pool.release(priv, 4096, 0);
        Block shared = pool.acquire(4096, 1);
        assertNotSame(priv, shared, "an idle variant-0 block does not serve variant 1");
        assertEquals(1, shared.variant());
        assertSame(priv, pool.acquire(4096, 0));
        PoolMetrics m = pool.metrics();
        assertEquals(List.of(new SizeClassMetric(4096, 1, 2, 2, 0, 2, 0)), m.classes(), "one metric per class, variants added");
        pool.release(priv, 4096, 0);
        pool.release(shared, 4096, 1);
        assertEquals(8192, pool.trim(0));
        assertEquals(0, alloc.held.get());
    }

    @Test
    void capsPerClassAndOnIdleBytesFreeWhatWouldPassThem() {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 1, 2, 3 * 1024);
        List<Block> small = new ArrayList<>();
        for (int i = 0; i < 3; i++) small.add(pool.acquire(512, 0));
        small.forEach(b -> pool.release(b, 512, 0));
        assertEquals(1, alloc.frees.get(), "third idle block of a class passes the per-class cap of 2");
        assertEquals(1024, pool.idleBytes());
        Block big = pool.acquire(4096, 0);
        pool.release(big, 4096, 0);
        assertEquals(2, alloc.frees.get(), "4 KiB more idle would pass the 3 KiB idle cap");
        assertEquals(1024, pool.idleBytes());
        assertEquals(alloc.idle.get(), pool.idleBytes());
        pool.close();
        assertEquals(0, alloc.held.get());
    }

    @Test
    void trimFreesLargestClassesFirstDownToWhatItKeeps() {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 1, 8, 1 << 20);
        Block small = pool.acquire(1024, 0), large = pool.acquire(65536, 0);
        pool.release(small, 1024, 0);
        pool.release(large, 65536, 0);
        assertEquals(65536, pool.trim(1024));
        assertFalse(alloc.live.contains(large.id()));
        assertTrue(alloc.live.contains(small.id()));
        assertEquals(1024, pool.trim(0));
        assertEquals(0, pool.idleBytes());
        assertEquals(0, alloc.idle.get());
        assertEquals(2, pool.metrics().frees());
    }

    @Test
    void closedPoolFreesEachReleasedBlock() {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 1, 8, 1 << 20);
        Block b = pool.acquire(64, 0);
        pool.close();
        assertTrue(pool.isClosed());
        pool.release(b, 64, 0);
        assertEquals(1, alloc.frees.get());
        assertEquals(0, pool.idleBytes());
    }

    @Test
    void failedAllocationCountsAMissAndLeavesNothingInUse() {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 1, 8, 1 << 20);
        alloc.failing = true;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.acquire(2048, 0));
        assertTrue(e.getMessage().contains("classSize=2048"), e.getMessage());
        PoolMetrics m = pool.metrics();
        assertEquals(1, m.misses());
        assertEquals(0, m.allocations());
        assertEquals(0, m.bytesInUse());
        pool.countUnpooled();
        assertEquals(2, pool.metrics().misses(), "a request too large to pool is a miss");
    }

    @Test
    void badArgumentsAreNamed() {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 2, 8, 1 << 20);
        IllegalArgumentException notClass = assertThrows(IllegalArgumentException.class, () -> pool.acquire(1000, 0));
        assertTrue(notClass.getMessage().contains("classSize=1000"), notClass.getMessage());
        assertThrows(IllegalArgumentException.class, () -> pool.acquire(2L << 30, 0));
        IllegalArgumentException variant = assertThrows(IllegalArgumentException.class, () -> pool.acquire(1024, 2));
        assertTrue(variant.getMessage().contains("variant=2"), variant.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SizeClassPool<>(alloc, 0, 8, 0));
        assertThrows(IllegalArgumentException.class, () -> new SizeClassPool<>(alloc, 1, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SizeClassPool<>(null, 1, 1, 0));
        assertEquals(0, alloc.allocations.get());
    }

    @Test
    void concurrentAcquireAndReleaseKeepTheCountsExact() throws Exception {
        CountingAllocator alloc = new CountingAllocator();
        SizeClassPool<Block> pool = new SizeClassPool<>(alloc, 2, 4, 1 << 20);
        int threads = 4, rounds = 2000;
        CyclicBarrier start = new CyclicBarrier(threads);
        Set<Long> leased = ConcurrentHashMap.newKeySet();
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            int variant = t % 2;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        long size = 64L << (i % 5);
                        Block b = pool.acquire(size, variant);
                        assertTrue(leased.add(b.id()), "a block leased twice at once: " + b);
                        assertEquals(size, b.classSize());
                        assertEquals(variant, b.variant());
                        leased.remove(b.id());
                        pool.release(b, size, variant);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) w.join();
        assertEquals(List.of(), failures);
        PoolMetrics m = pool.metrics();
        assertEquals(threads * rounds, m.hits() + m.misses());
        assertEquals(0, m.bytesInUse());
        assertEquals(m.allocations() - m.frees(), alloc.live.size());
        assertEquals(alloc.held.get(), m.bytesIdle());
        pool.close();
        assertEquals(0, alloc.held.get());
        assertEquals(0, alloc.idle.get());
    }
}
