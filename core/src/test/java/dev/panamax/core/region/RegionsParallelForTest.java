package dev.panamax.core.region;

import dev.panamax.core.fp16.Fp16;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.*;

/** parallelFor: partitioned work over parts owned by worker threads, recombined afterwards. */
class RegionsParallelForTest {
    private static final int N = 96;

    private static double[] random(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] m = new double[N * N];
        for (int i = 0; i < m.length; i++) m[i] = r.nextDouble(-1, 1);
        return m;
    }

    private static double[] serialProduct(double[] a, double[] b) {
        double[] c = new double[N * N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                double sum = 0;
                for (int k = 0; k < N; k++) sum += a[i * N + k] * b[k * N + j];
                c[i * N + j] = sum;
            }
        }
        return c;
    }

    /** Rows of C = A x B held by {@code part}, in the same summation order as the serial product. */
    private static void productRows(Region part, double[] a, double[] b) {
        long rowBytes = (long) N * Double.BYTES;
        int firstRow = (int) (part.offset() / rowBytes);
        int rows = (int) (part.byteSize() / rowBytes);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < N; j++) {
                double sum = 0;
                for (int k = 0; k < N; k++) sum += a[(firstRow + i) * N + k] * b[k * N + j];
                part.setDouble((long) i * N + j, sum);
            }
        }
    }

    @Test
    void rowPartitionedMatrixMultiplyOnTwoThreadsEqualsSerial() throws Exception {
        double[] a = random(1), b = random(2);
        double[] expected = serialProduct(a, b);
        Set<Thread> workers = ConcurrentHashMap.newKeySet();
        CyclicBarrier bothRunning = new CyclicBarrier(2);   // proves the two parts run at the same time
        try (Arena arena = Arena.ofShared(); ExecutorService pool = Executors.newFixedThreadPool(2)) {
            MemorySegment c = arena.allocate(JAVA_DOUBLE, (long) N * N);
            Region region = Region.of(c);
            Regions.parallelFor(region, 2, (long) N * Double.BYTES, pool, part -> {
                assertSame(Thread.currentThread(), part.owner());
                workers.add(Thread.currentThread());
                bothRunning.await(30, TimeUnit.SECONDS);
                productRows(part, a, b);
            });
            assertEquals(2, workers.size());
            assertFalse(workers.contains(Thread.currentThread()));
            assertFalse(region.isSplit());
            assertSame(Thread.currentThread(), region.owner());
            assertArrayEquals(expected, c.toArray(JAVA_DOUBLE));
            for (int i = 0; i < N * N; i += 97) assertEquals(expected[i], region.getDouble(i));
        }
    }

    @Test
    void partsPassTheirZeroCopyViewToNativeCode() {
        int n = 1 << 16;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment floats = arena.allocate(JAVA_FLOAT, n);
            MemorySegment halves = arena.allocate(JAVA_SHORT, n);
            for (int i = 0; i < n; i++) floats.setAtIndex(JAVA_FLOAT, i, i * 0.25f - 3000f);
            Region region = Region.of(floats);
            Regions.parallelFor(region, 2, 64, part -> {
                // the part's own bytes go straight to the native fp16 kernel, no copy
                MemorySegment view = part.segment();
                Fp16.toHalf(view, 0, halves, part.offset() / 2, view.byteSize() / Float.BYTES);
            });
            for (int i = 0; i < n; i++) {
                assertEquals(Float.floatToFloat16(floats.getAtIndex(JAVA_FLOAT, i)), halves.getAtIndex(JAVA_SHORT, i), "index=" + i);
            }
        }
    }

    @Test
    void unevenPartsOnTheSharedPoolCoverEveryRowOnce() {
        double[] a = random(3), b = random(4);
        double[] c = new double[N * N];
        Region region = Region.of(MemorySegment.ofArray(c));
        AtomicInteger rows = new AtomicInteger();
        Regions.parallelFor(region, 7, (long) N * Double.BYTES, part -> {
            assertEquals(0, part.byteSize() % (N * Double.BYTES));
            rows.addAndGet((int) (part.byteSize() / (N * Double.BYTES)));
            productRows(part, a, b);
        });
        assertEquals(N, rows.get());
        assertArrayEquals(serialProduct(a, b), c);
    }

    @Test
    void morePartsThanUnitsAndARemainder() {
        int[] data = new int[5];
        Region region = Region.of(MemorySegment.ofArray(data));
        AtomicInteger parts = new AtomicInteger();
        Regions.parallelFor(region, 64, 8, part -> {   // 20 bytes in 8-byte units: 8, 8, 4
            parts.incrementAndGet();
            for (long i = 0; i < part.byteSize() / 4; i++) part.setInt(i, (int) (part.offset() / 4 + i) * 10);
        });
        assertEquals(3, parts.get());
        assertArrayEquals(new int[] {0, 10, 20, 30, 40}, data);
    }

    @Test
    void firstFailureIsThrownAfterRecombining() {
        Region region = Region.of(MemorySegment.ofArray(new double[64]));
        IllegalStateException e = assertThrows(IllegalStateException.class, () ->
                Regions.parallelFor(region, 4, part -> {
                    if (part.offset() >= 256) throw new IllegalStateException("part failed: offset=" + part.offset());
                    part.setDouble(0, 1);
                }));
        assertTrue(e.getMessage().startsWith("part failed"), e.getMessage());
        assertEquals(1, e.getSuppressed().length);
        assertFalse(region.isSplit());
        assertSame(Thread.currentThread(), region.owner());
        assertEquals(1.0, region.getDouble(0));

        CompletionException checked = assertThrows(CompletionException.class, () ->
                Regions.parallelFor(region, 2, part -> { throw new IOException("disk"); }));
        assertInstanceOf(IOException.class, checked.getCause());
        region.setDouble(1, 2);   // usable again
    }

    @Test
    void aPartLeftSplitCannotBeRecombined() {
        Region region = Region.of(MemorySegment.ofArray(new double[16]));
        IllegalStateException e = assertThrows(IllegalStateException.class, () ->
                Regions.parallelFor(region, 2, part -> part.split(8)));
        assertTrue(e.getMessage().contains("region handed over while split"), e.getMessage());
        assertTrue(region.isSplit());
    }

    @Test
    void callerMustOwnTheRegion() throws Exception {
        Region region = Region.of(MemorySegment.ofArray(new double[16]));
        region.split(64);
        assertThrows(IllegalStateException.class, () -> Regions.parallelFor(region, 2, part -> {}));
        Region other = Region.of(MemorySegment.ofArray(new double[16]));
        other.relinquish();
        assertThrows(WrongThreadException.class, () -> Regions.parallelFor(other, 2, part -> {}));
        other.claim();
        assertThrows(IllegalArgumentException.class, () -> Regions.parallelFor(other, 0, part -> {}));
        assertThrows(IllegalArgumentException.class, () -> Regions.parallelFor(other, 2, 0, part -> {}));
    }

    @Test
    void confinedSegmentPartsComeBackToTheCaller() {
        try (Arena arena = Arena.ofConfined()) {
            Region region = Region.of(arena.allocate(128));
            WrongThreadException e = assertThrows(WrongThreadException.class, () ->
                    Regions.parallelFor(region, 2, part -> fail("a worker cannot own a confined segment")));
            assertTrue(e.getMessage().contains("not accessible by thread="), e.getMessage());
            assertFalse(region.isSplit());
            region.setInt(0, 1);
        }
    }
}
