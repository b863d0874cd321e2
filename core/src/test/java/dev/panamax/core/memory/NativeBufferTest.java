package dev.panamax.core.memory;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

class NativeBufferTest {
    @Test
    void allocatesZeroedMemoryAndFreesOnClose() {
        long before = NativeMemory.reservedBytes();
        NativeBuffer b = NativeBuffer.allocate(4096);
        assertEquals(before + 4096, NativeMemory.reservedBytes());
        MemorySegment s = b.segment();
        assertEquals(4096, s.byteSize());
        for (long i = 0; i < 4096; i += 8) assertEquals(0L, s.get(ValueLayout.JAVA_LONG, i));
        s.set(ValueLayout.JAVA_INT, 12, 42);
        assertEquals(42, b.segment().get(ValueLayout.JAVA_INT, 12));
        assertSame(s, b.segment(), "one segment per handle");
        b.close();
        assertEquals(before, NativeMemory.reservedBytes());
        assertTrue(b.isReleased());
        assertEquals(0, b.refCount());
    }

    @Test
    void segmentHandedOutBeforeReleaseFailsInsideJavaAfterIt() {
        NativeBuffer b = NativeBuffer.allocate(64);
        MemorySegment s = b.segment();
        MemorySegment slice = s.asSlice(8, 8);
        b.close();
        assertThrows(IllegalStateException.class, () -> s.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> slice.set(ValueLayout.JAVA_LONG, 0, 1L));
    }

    @Test
    void useAfterReleaseRaisesWithKeyValueDetails() {
        NativeBuffer b = NativeBuffer.allocate(64);
        long address = b.address();
        b.close();
        HandleReleasedException e = assertThrows(HandleReleasedException.class, b::segment);
        assertTrue(e.getMessage().contains("operation=segment"), e.getMessage());
        assertTrue(e.getMessage().contains("type=NativeBuffer"), e.getMessage());
        assertTrue(e.getMessage().contains("address=0x" + Long.toHexString(address)), e.getMessage());
        assertTrue(e.getMessage().contains("refCnt=0"), e.getMessage());
        assertThrows(HandleReleasedException.class, b::address);
        assertThrows(HandleReleasedException.class, b::retain);
        assertThrows(HandleReleasedException.class, b::release);
        b.close(); // idempotent
    }

    @Test
    void refcountReleasesOnLastRelease() {
        NativeBuffer b = NativeBuffer.allocate(128);
        assertEquals(1, b.refCount());
        assertSame(b, b.retain());
        b.retain();
        assertEquals(3, b.refCount());
        assertFalse(b.release());
        assertFalse(b.release());
        assertFalse(b.isReleased());
        assertTrue(b.release());
        assertTrue(b.isReleased());
        assertThrows(HandleReleasedException.class, b::retain, "retain after release fails");
    }

    @Test
    void closeReleasesWhateverTheRefcount() {
        NativeBuffer b = NativeBuffer.allocate(128).retain();
        b.close();
        assertTrue(b.isReleased());
        assertThrows(HandleReleasedException.class, b::release);
    }

    @Test
    void confinedBufferRejectsOtherThreads() throws Exception {
        try (NativeBuffer b = NativeBuffer.allocateConfined(256)) {
            b.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 7);
            try (var ex = Executors.newSingleThreadExecutor()) {
                var f = ex.submit(() -> {
                    assertThrows(WrongThreadException.class, b::segment);
                    WrongThreadException e = assertThrows(WrongThreadException.class, b::close);
                    assertTrue(e.getMessage().contains("operation=close"), e.getMessage());
                    assertThrows(WrongThreadException.class, () -> b.segment().get(ValueLayout.JAVA_BYTE, 0));
                    return null;
                });
                f.get();
            }
            assertFalse(b.isReleased());
            assertEquals(7, b.segment().get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void sharedSegmentWorksFromAnyThread() throws Exception {
        try (NativeBuffer b = NativeBuffer.allocate(256); var ex = Executors.newSingleThreadExecutor()) {
            ex.submit(() -> b.segment().set(ValueLayout.JAVA_INT, 0, 99)).get();
            assertEquals(99, b.segment().get(ValueLayout.JAVA_INT, 0));
        }
    }

    @Test
    void rejectsNegativeSizes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NativeBuffer.allocate(-1));
        assertTrue(e.getMessage().contains("byteSize=-1"), e.getMessage());
    }

    @Test
    void zeroByteBufferHasEmptySegment() {
        try (NativeBuffer b = NativeBuffer.allocate(0)) {
            assertEquals(0, b.segment().byteSize());
        }
    }

    /** A handle type of its own, adopting memory with a counting release action. */
    static final class Adopted extends NativeHandle {
        Adopted(long address, long size, boolean owner, ReleaseAction action) {
            super(address, size, owner, SegmentAccess.SHARED, action);
        }
    }

    @Test
    void adoptedObjectIsFreedByItsActionExactlyOnce() {
        AtomicInteger frees = new AtomicInteger();
        NativeBuffer backing = NativeBuffer.allocate(32);
        long before = NativeMemory.reservedBytes();
        Adopted a = new Adopted(backing.address(), 32, true, (addr, size) -> frees.incrementAndGet());
        assertTrue(a.isOwner());
        assertEquals(before + 32, NativeMemory.reservedBytes(), "adopted objects are accounted too");
        a.retain();
        a.close();
        a.close();
        assertThrows(HandleReleasedException.class, a::release);
        assertEquals(1, frees.get());
        assertEquals(before, NativeMemory.reservedBytes());
        backing.close();
    }

    @Test
    void borrowedHandleFreesNothingButStillEndsItsSegment() {
        try (NativeBuffer backing = NativeBuffer.allocate(16)) {
            Adopted borrowed = new Adopted(backing.address(), 16, false, null);
            assertFalse(borrowed.isOwner());
            MemorySegment s = borrowed.segment();
            s.set(ValueLayout.JAVA_BYTE, 0, (byte) 3);
            borrowed.close();
            assertThrows(IllegalStateException.class, () -> s.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(3, backing.segment().get(ValueLayout.JAVA_BYTE, 0), "borrowed close leaves the memory alone");
        }
    }

    @Test
    void statsCountReleasesByCodeAndLiveHandlesByType() {
        MemoryStats before = NativeMemory.stats();
        NativeBuffer a = NativeBuffer.allocate(1000);
        MemoryStats during = NativeMemory.stats();
        assertEquals(before.byType().getOrDefault("NativeBuffer", new TypeStats(0, 0, 0, 0)).liveHandles() + 1,
                during.byType().get("NativeBuffer").liveHandles());
        assertTrue(during.peakBytes() >= during.reservedBytes());
        a.close();
        MemoryStats after = NativeMemory.stats();
        assertEquals(before.releasedByCode() + 1, after.releasedByCode());
        assertEquals(1000, during.byType().get("NativeBuffer").liveBytes() - after.byType().get("NativeBuffer").liveBytes());
    }
}
