package dev.panamax.core.memory;

import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.*;

/** Exactly-once release under races between close(), the last release() and the GC. */
class ReleaseRaceTest {
    private static final int HANDLES = 2000;

    /** A handle whose release action counts into slot {@code i} (never referring to the handle). */
    static final class Counted extends NativeHandle {
        Counted(long address, AtomicIntegerArray frees, int i) {
            super(address, 8, true, SegmentAccess.SHARED, (a, s) -> frees.incrementAndGet(i));
        }
    }

    @Test
    void closeAndReleaseRacingFromFourThreadsReleaseOnce() throws Exception {
        AtomicIntegerArray frees = new AtomicIntegerArray(HANDLES);
        Counted[] handles = new Counted[HANDLES];
        for (int i = 0; i < HANDLES; i++) {
            handles[i] = new Counted(0x1000 + 16L * i, frees, i);
            handles[i].retain(); // refCnt 2: two release() calls and two close() calls race
        }
        CyclicBarrier start = new CyclicBarrier(4);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            boolean closer = t % 2 == 0;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    for (Counted h : handles) {
                        if (closer) {
                            h.close();
                        } else {
                            try {
                                h.release();
                            } catch (HandleReleasedException expected) {
                                // the closer got there first
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) t.join();
        assertEquals(List.of(), failures);
        for (int i = 0; i < HANDLES; i++) {
            assertEquals(1, frees.get(i), "handle " + i + " released " + frees.get(i) + " times");
            assertTrue(handles[i].isReleased());
        }
    }

    @Test
    @AllowNativeLeaks("half of the handles are dropped on purpose so the GC releases them")
    void gcAndCodeReleaseEachHandleExactlyOnce() throws Exception {
        AtomicIntegerArray frees = new AtomicIntegerArray(HANDLES);
        List<Counted> kept = new ArrayList<>();
        List<WeakReference<Counted>> dropped = new ArrayList<>();
        for (int i = 0; i < HANDLES; i++) {
            Counted h = new Counted(0x1000 + 16L * i, frees, i);
            if (ThreadLocalRandom.current().nextBoolean()) kept.add(h);
            else dropped.add(new WeakReference<>(h));
        }
        // close the kept ones on another thread while the GC finds the dropped ones
        Thread closer = Thread.ofPlatform().start(() -> kept.forEach(NativeHandle::close));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (dropped.stream().anyMatch(r -> r.get() != null) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(5);
        }
        closer.join();
        while (NativeMemory.cleanUnreachable() > 0) {
            Thread.onSpinWait();
        }
        // the cleaner thread may still be finishing the last one it took
        deadline = System.nanoTime() + 5_000_000_000L;
        int missing;
        do {
            missing = 0;
            for (int i = 0; i < HANDLES; i++) if (frees.get(i) == 0) missing++;
            if (missing > 0) Thread.sleep(5);
        } while (missing > 0 && System.nanoTime() < deadline);
        for (int i = 0; i < HANDLES; i++) assertEquals(1, frees.get(i), "handle " + i);
    }
}
