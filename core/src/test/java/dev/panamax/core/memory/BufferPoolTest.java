package dev.panamax.core.memory;

import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.*;

class BufferPoolTest {
    @Test
    void sizeClassesArePowersOfTwoFrom64BytesTo1GiB() {
        assertEquals(64, BufferPool.classSizeFor(0));
        assertEquals(64, BufferPool.classSizeFor(64));
        assertEquals(128, BufferPool.classSizeFor(65));
        assertEquals(65536, BufferPool.classSizeFor(65536));
        assertEquals(1L << 30, BufferPool.classSizeFor(1L << 30));
        assertEquals(-1, BufferPool.classSizeFor((1L << 30) + 1), "larger than 1 GiB is not pooled");
        assertThrows(IllegalArgumentException.class, () -> BufferPool.classSizeFor(-5));
    }

    @Test
    void releasedBufferGoesBackToItsClassAndIsReused() {
        try (BufferPool pool = BufferPool.create()) {
            NativeBuffer a = pool.acquire(1000);
            assertInstanceOf(PooledBuffer.class, a);
            assertEquals(1000, a.byteSize());
            assertEquals(1024, ((PooledBuffer) a).classSize());
            long address = a.address();
            a.segment().set(ValueLayout.JAVA_INT, 0, 5);
            a.retain();
            assertFalse(a.release());
            assertEquals(0, pool.metrics().bytesIdle(), "still referenced: not back yet");
            assertTrue(a.release());
            assertEquals(1024, pool.metrics().bytesIdle());
            NativeBuffer b = pool.acquire(900);
            assertEquals(address, b.address(), "same block reused");
            PoolMetrics m = pool.metrics();
            assertEquals(1, m.hits());
            assertEquals(1, m.misses());
            assertEquals(1, m.allocations());
            assertEquals(0, m.frees());
            assertEquals(1024, m.bytesInUse());
            assertEquals(1, m.classes().size());
            assertEquals(1024, m.classes().getFirst().classSize());
            b.close();
        }
    }

    @Test
    void oldLeaseSegmentFailsAfterTheBlockIsLeasedAgain() {
        try (BufferPool pool = BufferPool.create()) {
            NativeBuffer a = pool.acquire(64);
            MemorySegment stale = a.segment();
            a.close();
            try (NativeBuffer b = pool.acquire(64)) {
                assertEquals(stale.address(), b.segment().address());
                assertThrows(IllegalStateException.class, () -> stale.set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
            }
        }
    }

    @Test
    void capsFreeInsteadOfPooling() {
        try (BufferPool pool = BufferPool.create(2, 1 << 20)) {
            List<NativeBuffer> held = new ArrayList<>();
            for (int i = 0; i < 4; i++) held.add(pool.acquire(4096));
            held.forEach(NativeBuffer::close);
            PoolMetrics m = pool.metrics();
            assertEquals(2 * 4096, m.bytesIdle(), "per-class cap of 2 idle blocks");
            assertEquals(2, m.frees());
        }
        try (BufferPool pool = BufferPool.create(100, 3 * 4096)) {
            List<NativeBuffer> held = new ArrayList<>();
            for (int i = 0; i < 5; i++) held.add(pool.acquire(4096));
            held.forEach(NativeBuffer::close);
            assertEquals(3 * 4096, pool.metrics().bytesIdle(), "global cap on idle bytes");
        }
    }

    @Test
    void trimFreesIdleMemoryAndUnreservesIt() {
        try (BufferPool pool = BufferPool.create()) {
            long reserved = NativeMemory.reservedBytes();
            pool.acquire(1 << 16).close();
            pool.acquire(1 << 10).close();
            assertEquals(reserved + (1 << 16) + (1 << 10), NativeMemory.reservedBytes());
            assertEquals((1 << 16) + (1 << 10), NativeMemory.stats().pooledIdleBytes() - 0, "idle pooled bytes counted apart");
            assertEquals(1 << 16, pool.trim(1 << 10), "largest classes go first");
            assertEquals(1 << 10, pool.trim());
            assertEquals(reserved, NativeMemory.reservedBytes());
        }
    }

    @Test
    void closingThePoolFreesIdleBlocksAndLaterReleasesFreeToo() {
        long reserved = NativeMemory.reservedBytes();
        BufferPool pool = BufferPool.create();
        NativeBuffer leased = pool.acquireShared(100);
        pool.acquire(100).close();
        pool.close();
        assertFalse(pool.isOpen());
        assertThrows(IllegalStateException.class, () -> pool.acquire(1));
        assertEquals(reserved + 128, NativeMemory.reservedBytes(), "only the leased block is left");
        leased.close();
        assertEquals(reserved, NativeMemory.reservedBytes());
    }

    @Test
    void hugeRequestsAreNotPooled() {
        try (BufferPool pool = BufferPool.create()) {
            // pool semantics for > 1 GiB without allocating 1 GiB: classSizeFor says so, acquire falls back
            assertEquals(-1, BufferPool.classSizeFor(BufferPool.MAX_CLASS + 1));
            assertEquals(0, pool.metrics().misses());
        }
    }

    @Test
    void sixteenThreadsNeverGetTheSameBlockAtOnce() throws Exception {
        int threads = 16;
        int rounds = 3000;
        Set<Long> leased = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        try (BufferPool pool = BufferPool.create(8, 1 << 20)) {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Thread> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                byte mark = (byte) (t + 1);
                all.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        ThreadLocalRandom rnd = ThreadLocalRandom.current();
                        for (int i = 0; i < rounds; i++) {
                            long size = 64L << rnd.nextInt(4);
                            NativeBuffer b = rnd.nextBoolean() ? pool.acquire(size) : pool.acquireShared(size);
                            if (!leased.add(b.address())) throw new AssertionError("block handed out twice: address=0x" + Long.toHexString(b.address()));
                            MemorySegment s = b.segment();
                            s.fill(mark);
                            Thread.yield();
                            for (long k = 0; k < size; k++) {
                                if (s.get(ValueLayout.JAVA_BYTE, k) != mark) throw new AssertionError("block written by another thread while leased");
                            }
                            leased.remove(b.address());
                            if (rnd.nextInt(4) == 0) {
                                b.retain();
                                b.release();
                            }
                            b.close();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : all) t.join();
            assertEquals(List.of(), failures);
            PoolMetrics m = pool.metrics();
            assertEquals((long) threads * rounds, m.hits() + m.misses());
            assertEquals(0, m.bytesInUse());
            assertEquals(m.allocations() - m.frees(), m.classes().stream().mapToLong(SizeClassMetric::idle).sum());
        }
    }

    @Test
    void aReusedBlockKeepsTheShadowItWasAllocatedWith() {
        try (BufferPool pool = BufferPool.create()) {
            NativeBuffer first = pool.acquire(4 << 20);
            Object shadow = first.heapShadow();
            assertNotNull(shadow, "a fresh 4 MiB block is shadowed, as a NativeBuffer of its size");
            first.close();
            NativeBuffer second = pool.acquire((4 << 20) - 100);
            assertSame(shadow, second.heapShadow(), "a hit makes no new shadow");
            second.close();
            NativeBuffer bigger = pool.acquire(8 << 20);
            assertNotSame(shadow, bigger.heapShadow(), "another class, another block");
            bigger.close();
            pool.trim();
            NativeBuffer fresh = pool.acquire(4 << 20);
            assertNotNull(fresh.heapShadow());
            assertNotSame(shadow, fresh.heapShadow(), "a trimmed block took its shadow with it");
            fresh.close();
        }
    }

    @Test
    void blocksAreAlignedToACacheLine() {
        try (BufferPool pool = BufferPool.create()) {
            List<NativeBuffer> held = new ArrayList<>();
            for (long size = 1; size <= 8 << 20; size *= 4) {
                NativeBuffer b = pool.acquire(size);
                assertEquals(0, b.address() % BufferPool.ALIGNMENT, "size " + size + " at 0x" + Long.toHexString(b.address()));
                held.add(b);
            }
            held.forEach(NativeBuffer::close);
        }
    }

    @Test
    void hitRateCountsAcquiresServedFromIdleBlocks() {
        try (BufferPool pool = BufferPool.create()) {
            assertTrue(Double.isNaN(pool.metrics().hitRate()), "no acquires yet");
            pool.acquire(256).close();
            PoolMetrics afterFirst = pool.metrics();
            assertEquals(0.0, afterFirst.hitRate());
            for (int i = 0; i < 3; i++) pool.acquire(200).close();
            PoolMetrics m = pool.metrics();
            assertEquals(0.75, m.hitRate());
            assertEquals(1.0, m.hitRateSince(afterFirst));
            assertTrue(Double.isNaN(m.hitRateSince(m)));
        }
    }

    @Test
    @AllowNativeLeaks("drops a lease on purpose for the GC to release")
    void aLeaseTheGcReleasesGoesBackToItsClassWithoutItsShadow() throws InterruptedException {
        try (BufferPool pool = BufferPool.create()) {
            WeakReference<Object> dropped = leaseAndDrop(pool);
            for (int i = 0; i < 50 && pool.metrics().bytesIdle() == 0; i++) {
                System.gc();
                Thread.sleep(10);
                NativeMemory.cleanUnreachable();
            }
            assertEquals(1 << 20, pool.metrics().bytesIdle(), "the collected lease's block is idle in its class");
            assertNull(dropped.get(), "the shadow was garbage with its lease: that is what paced the GC");
            try (NativeBuffer again = pool.acquire(1 << 20)) {
                assertEquals(1, pool.metrics().hits());
                assertNotNull(again.heapShadow(), "the next lease of the block is shadowed afresh, as a new allocation would be");
            }
        }
    }

    /** Leases a block, drops it unclosed, and says where its shadow went. */
    private static WeakReference<Object> leaseAndDrop(BufferPool pool) {
        NativeBuffer b = pool.acquireShared(1 << 20);
        b.segment().fill((byte) 1);
        assertNotNull(b.heapShadow());
        return new WeakReference<>(b.heapShadow());
    }

    @Test
    void aProcessPoolIsNoResourceOfItsOwnAndClosingItTrims() {
        long checkpoint = NativeMemory.checkpoint();
        BufferPool pool = BufferPool.createForProcess(4, 1 << 20);
        assertEquals(List.of(), NativeMemory.outstandingSince(checkpoint), "not reported as outstanding");
        long reserved = NativeMemory.reservedBytes();
        NativeBuffer b = pool.acquire(4096);
        assertEquals(1, NativeMemory.outstandingSince(checkpoint).size(), "its leases are");
        b.close();
        assertEquals(4096, pool.metrics().bytesIdle());
        assertEquals(reserved + 4096, NativeMemory.reservedBytes());
        pool.close();
        assertTrue(pool.isOpen(), "still serves");
        assertEquals(0, pool.metrics().bytesIdle());
        assertEquals(reserved, NativeMemory.reservedBytes());
        pool.acquire(4096).close();
        pool.trim();
    }
}
