package dev.panamax.core.region;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** Split, combine and ownership rules, and every misuse raising in Java. */
class RegionTest {
    private static <T extends Throwable> T fails(Class<T> type, String detail, Executable call) {
        T t = assertThrows(type, call);
        assertTrue(String.valueOf(t.getMessage()).contains(detail), () -> "message '" + t.getMessage() + "' lacks '" + detail + "'");
        return t;
    }

    /** Runs {@code call} on another thread and returns what it threw (or null). */
    private static Throwable onOtherThread(Executable call) throws Exception {
        CompletableFuture<Throwable> f = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().name("intruder").start(() -> {
            try {
                call.execute();
                f.complete(null);
            } catch (Throwable e) {
                f.complete(e);
            }
        });
        t.join();
        return f.get();
    }

    @Test
    void splitGivesDisjointViewsAndCombineRestoresTheParent() {
        float[] data = new float[16];
        Region root = Region.of(MemorySegment.ofArray(data));
        for (int i = 0; i < 16; i++) root.setFloat(i, i);
        Region.Split s = root.split(24);
        assertTrue(root.isSplit());
        assertEquals(24, s.left().byteSize());
        assertEquals(40, s.right().byteSize());
        assertEquals(24, s.right().offset());
        assertEquals(5f, s.left().getFloat(5));
        assertEquals(6f, s.right().getFloat(0));
        s.right().setFloat(0, 60f);
        s.left().setInt(0, 7);
        Region back = Region.combine(s.right(), s.left());   // either order
        assertSame(root, back);
        assertFalse(root.isSplit());
        assertTrue(s.left().isRetired() && s.right().isRetired());
        assertEquals(60f, root.getFloat(6));
        assertEquals(7, root.getInt(0));
        assertEquals(60f, data[6]);
        Region.Split again = root.split(8);   // a combined parent splits anew
        assertSame(root, again.combine());
    }

    @Test
    void nestedSplitsCombineInnermostFirst() {
        Region root = Region.of(MemorySegment.ofArray(new double[8]));
        Region.Split outer = root.split(32);
        Region.Split inner = outer.right().split(16);
        inner.left().setDouble(1, 2.5);
        fails(IllegalStateException.class, "while split", () -> outer.combine());
        inner.combine();
        outer.combine();
        assertEquals(2.5, root.getDouble(5));
    }

    @Test
    void parentCannotBeUsedWhileSplit() {
        Region root = Region.of(MemorySegment.ofArray(new float[8]));
        root.split(16);
        fails(IllegalStateException.class, "region read while split", () -> root.getFloat(0));
        fails(IllegalStateException.class, "region written while split", () -> root.setDouble(0, 1));
        fails(IllegalStateException.class, "region viewed while split", root::segment);
        fails(IllegalStateException.class, "region handed over while split", () -> root.handOver(Thread.currentThread()));
        fails(IllegalStateException.class, "state=SPLIT", root::relinquish);
    }

    @Test
    void splittingTwiceOrOutOfRangeRaises() {
        Region root = Region.of(MemorySegment.ofArray(new int[8]));
        // a second split of the same region would hand out overlapping children
        root.split(8);
        fails(IllegalStateException.class, "region split while split", () -> root.split(16));
        Region other = Region.of(MemorySegment.ofArray(new int[8]));
        fails(IndexOutOfBoundsException.class, "split point out of range: at=0 byteSize=32", () -> other.split(0));
        fails(IndexOutOfBoundsException.class, "at=32 byteSize=32", () -> other.split(32));
        fails(IndexOutOfBoundsException.class, "at=-4", () -> other.split(-4));
        fails(IndexOutOfBoundsException.class, "int index out of range: index=8 count=8", () -> other.getInt(8));
        fails(IndexOutOfBoundsException.class, "double index out of range: index=-1 count=4", () -> other.setDouble(-1, 0));
    }

    @Test
    void combineRejectsForeignChildrenAndChildrenTwice() {
        Region a = Region.of(MemorySegment.ofArray(new float[8]));
        Region b = Region.of(MemorySegment.ofArray(new float[8]));
        Region.Split sa = a.split(16);
        Region.Split sb = b.split(16);
        fails(IllegalArgumentException.class, "children of different splits", () -> Region.combine(sa.left(), sb.right()));
        fails(IllegalArgumentException.class, "the same child twice", () -> Region.combine(sa.left(), sa.left()));
        fails(IllegalArgumentException.class, "not a child", () -> Region.combine(a, sa.left()));
        Region.Split nested = sa.right().split(8);
        fails(IllegalArgumentException.class, "children of different splits", () -> Region.combine(sa.left(), nested.left()));
        nested.combine();
        sa.combine();
        fails(IllegalStateException.class, "after it was combined back", sa::combine);
        fails(IllegalStateException.class, "region read after it was combined back", () -> sa.left().getFloat(0));
        // children of an earlier split cannot be combined into the parent's new split
        Region.Split second = a.split(8);
        fails(IllegalStateException.class, "after it was combined back", () -> Region.combine(sa.left(), second.right()));
        second.combine();
    }

    @Test
    void onlyTheOwnerMayUseARegion() throws Exception {
        Region root = Region.of(MemorySegment.ofArray(new float[8]));
        assertInstanceOf(WrongThreadException.class, onOtherThread(() -> root.getFloat(0)));
        assertInstanceOf(WrongThreadException.class, onOtherThread(() -> root.setFloat(0, 1f)));
        assertInstanceOf(WrongThreadException.class, onOtherThread(() -> root.split(4)));
        assertInstanceOf(WrongThreadException.class, onOtherThread(root::segment));
        assertInstanceOf(WrongThreadException.class, onOtherThread(root::claim));
        assertInstanceOf(WrongThreadException.class, onOtherThread(() -> root.handOver(Thread.currentThread())));
        Throwable t = onOtherThread(root::relinquish);
        assertTrue(t.getMessage().contains("thread=intruder"), t.getMessage());

        Region.Split s = root.split(16);
        Thread me = Thread.currentThread();
        // a child handed to another thread: this thread loses it, the other gains it and hands it back
        try (ExecutorService worker = Executors.newSingleThreadExecutor()) {
            Thread workerThread = worker.submit(Thread::currentThread).get();
            s.right().handOver(workerThread);
            assertSame(workerThread, s.right().owner());
            fails(WrongThreadException.class, "does not own it", () -> s.right().setFloat(0, 1f));
            fails(WrongThreadException.class, "combined by a thread that does not own it", s::combine);
            Future<?> done = worker.submit(() -> {
                s.right().setFloat(0, 42f);
                s.right().handOver(me);
            });
            done.get(10, TimeUnit.SECONDS);
        }
        s.combine();
        assertEquals(42f, root.getFloat(4));
    }

    @Test
    void relinquishedRegionIsClaimedByExactlyOneThread() throws Exception {
        Region root = Region.of(MemorySegment.ofArray(new int[4]));
        root.relinquish();
        assertNull(root.owner());
        fails(WrongThreadException.class, "does not own it", () -> root.getInt(0));
        assertNull(onOtherThread(() -> {
            root.claim();
            root.setInt(0, 9);
            root.relinquish();
        }));
        root.claim();
        root.claim();   // already mine: no-op
        assertEquals(9, root.getInt(0));
        assertInstanceOf(WrongThreadException.class, onOtherThread(root::claim));
    }

    @Test
    void confinedSegmentCannotChangeThreads() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Region root = Region.of(arena.allocate(64));
            Thread other = Thread.ofPlatform().unstarted(() -> {});
            fails(WrongThreadException.class, "not accessible by thread=", () -> root.handOver(other));
            assertSame(Thread.currentThread(), root.owner());
            root.setInt(0, 1);
            assertEquals(64, root.segment().byteSize());
        }
    }
}
