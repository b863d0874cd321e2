package dev.panamax.core.call;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.*;

class ScratchStackTest {
    @Test
    void framesBumpAllocateAndGiveEverythingBackOnClose() {
        assertEquals(0, ScratchStack.used());
        try (ScratchStack.Frame f = ScratchStack.push()) {
            MemorySegment a = f.allocate(JAVA_INT);
            MemorySegment b = f.allocate(JAVA_LONG, 3);
            assertEquals(0, b.address() % 8, "aligned for its layout");
            assertTrue(b.address() >= a.address() + 4, "no overlap");
            assertEquals(24, b.byteSize());
            long used = ScratchStack.used();
            assertTrue(used >= 28, "used=" + used);
            try (ScratchStack.Frame inner = ScratchStack.push()) {
                MemorySegment c = inner.allocate(64, 64);
                assertEquals(0, c.address() % 64);
                assertEquals(2, ScratchStack.depth());
            }
            assertEquals(used, ScratchStack.used(), "inner frame gave its memory back");
            assertEquals(1, ScratchStack.depth());
        }
        assertEquals(0, ScratchStack.used());
        assertEquals(0, ScratchStack.depth());
    }

    @Test
    void memoryIsReusedByTheNextFrame() {
        long first;
        try (ScratchStack.Frame f = ScratchStack.push()) {
            first = f.allocate(JAVA_LONG).address();
        }
        try (ScratchStack.Frame f = ScratchStack.push()) {
            assertEquals(first, f.allocate(JAVA_LONG).address());
        }
    }

    @Test
    void allocationsTooLargeForTheStackComeFromTheFramesArenaAndAreFreedWithIt() {
        MemorySegment big;
        try (ScratchStack.Frame f = ScratchStack.push()) {
            MemorySegment small = f.allocate(16);
            big = f.allocate(ScratchStack.capacity() * 2, 8);
            assertEquals(ScratchStack.capacity() * 2, big.byteSize());
            big.set(JAVA_LONG, big.byteSize() - 8, 42L);
            assertEquals(42L, big.get(JAVA_LONG, big.byteSize() - 8));
            MemorySegment after = f.allocate(16);
            assertEquals(small.address() + 16, after.address(), "the stack keeps serving small allocations");
        }
        assertFalse(big.scope().isAlive(), "the frame's arena closed with it");
    }

    @Test
    void framesMustCloseInnermostFirst() {
        ScratchStack.Frame outer = ScratchStack.push();
        ScratchStack.Frame inner = ScratchStack.push();
        IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
        assertTrue(e.getMessage().contains("innermost first"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> outer.allocate(8));
        inner.close();
        outer.close();
        assertThrows(IllegalStateException.class, outer::close, "closed twice");
        assertEquals(0, ScratchStack.depth());
    }

    @Test
    void aFrameBelongsToItsThread() throws InterruptedException {
        try (ScratchStack.Frame f = ScratchStack.push()) {
            AtomicReference<Throwable> seen = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    f.allocate(8);
                } catch (Throwable e) {
                    seen.set(e);
                }
            });
            t.join();
            assertInstanceOf(IllegalStateException.class, seen.get());
            assertTrue(seen.get().getMessage().contains("another thread"), seen.get().getMessage());
        }
    }

    @Test
    void virtualThreadsUseTheFramesArena() throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try (ScratchStack.Frame f = ScratchStack.push()) {
                MemorySegment s = f.allocate(JAVA_INT, 4);
                s.set(JAVA_INT, 12, 9);
                assertEquals(9, s.get(JAVA_INT, 12));
                assertEquals(0, ScratchStack.used());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join();
        assertNull(failure.get());
    }

    @Test
    void badArgumentsAreRefused() {
        try (ScratchStack.Frame f = ScratchStack.push()) {
            assertThrows(IllegalArgumentException.class, () -> f.allocate(-1, 8));
            assertThrows(IllegalArgumentException.class, () -> f.allocate(8, 3));
        }
    }
}
