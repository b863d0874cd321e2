package dev.panamax.compute;

import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.core.memory.SegmentAccess;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** The backend-neutral pieces: reference counts of resources, sizes. */
class ResourceAndSizeTest {
    /** An owned handle whose release only counts (the address is a real allocation it never frees: a test's stand-in object). */
    static final class CountingHandle extends NativeHandle {
        CountingHandle(NativeBuffer object, AtomicInteger frees) {
            super(object.address(), -1, true, SegmentAccess.SHARED, (address, size) -> frees.incrementAndGet());
        }
    }

    static final class Counted extends Resource {
        Counted(NativeHandle handle) {
            super(null, handle);
        }

        @Override
        public String describe() {
            return "counted";
        }
    }

    @Test
    void aResourceIsFreedWhenTheCallerAndEveryCommandBufferAreDone() {
        AtomicInteger frees = new AtomicInteger();
        try (NativeBuffer object = NativeBuffer.allocate(8)) {
            CountingHandle handle = new CountingHandle(object, frees);
            Counted r = new Counted(handle);
            assertTrue(r.acquire());          // a command buffer takes it at commit
            assertEquals(2, handle.refCount(), "one count: the resource's references are its handle's");
            r.close();                        // the caller is done
            r.close();                        // idempotent
            assertTrue(r.isClosed());
            assertEquals(1, handle.refCount());
            assertEquals(0, frees.get(), "still held by the command buffer");
            assertFalse(r.isFreed());
            assertFalse(r.acquire(), "a closed resource cannot be taken again");
            r.releaseReference();             // the command buffer completes
            assertEquals(1, frees.get());
            assertTrue(r.isFreed());
            IllegalStateException e = assertThrows(IllegalStateException.class, r::releaseReference);
            assertTrue(e.getMessage().contains("unbalanced release of counted"), e.getMessage());
        }
    }

    @Test
    void aResourceRefusesABorrowedOrReleasedHandle() {
        try (NativeBuffer object = NativeBuffer.allocate(8)) {
            CountingHandle released = new CountingHandle(object, new AtomicInteger());
            released.close();
            assertThrows(IllegalArgumentException.class, () -> new Counted(released));
        }
    }

    @Test
    void sizesCountTheirThreadsAndDimensions() {
        assertEquals(1, Size.of(5).dimensions());
        assertEquals(2, Size.of(5, 2).dimensions());
        assertEquals(3, Size.of(5, 1, 2).dimensions());
        assertEquals(20, Size.of(5, 2, 2).count());
        assertEquals("5x2", Size.of(5, 2).toString());
        assertThrows(IllegalArgumentException.class, () -> Size.of(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> Size.of(1).get(3));
    }

    @Test
    void aCountThatDoesNotFitALongIsAnErrorNotAWrappedNumber() {
        assertEquals(1L << 62, Size.of(1L << 31, 1L << 31).count());
        ArithmeticException e = assertThrows(ArithmeticException.class, () -> Size.of((1L << 62) + 1, 4).count());
        assertTrue(e.getMessage().contains("width=" + ((1L << 62) + 1) + " height=4 depth=1"), e.getMessage());
    }

    @Test
    void theThreadgroupsCoveringAGridAreRoundedUp() {
        assertEquals(Size.of(4), Size.threadgroupsCovering(Size.of(1000), Size.of(256)));
        assertEquals(Size.of(4), Size.threadgroupsCovering(Size.of(1024), Size.of(256)));
        assertEquals(Size.of(2, 3, 1), Size.threadgroupsCovering(Size.of(17, 33), Size.of(16, 16)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Size.threadgroupsCovering(Size.of(8, 8), Size.of(8, 0)));
        assertTrue(e.getMessage().contains("no threads in dimension 1"), e.getMessage());
    }
}
