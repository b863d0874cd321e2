package dev.panamax.compute;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** The backend-neutral pieces: reference counts of resources, sizes. */
class ResourceAndSizeTest {
    static final class Counted extends Resource {
        final AtomicInteger frees = new AtomicInteger();

        Counted() {
            super(null);
        }

        @Override
        public String describe() {
            return "counted";
        }

        @Override
        protected void free() {
            frees.incrementAndGet();
        }
    }

    @Test
    void aResourceIsFreedWhenTheCallerAndEveryCommandBufferAreDone() {
        Counted r = new Counted();
        assertTrue(r.acquire());          // a command buffer takes it at commit
        r.close();                        // the caller is done
        r.close();                        // idempotent
        assertTrue(r.isClosed());
        assertEquals(0, r.frees.get(), "still held by the command buffer");
        assertFalse(r.acquire(), "a closed resource cannot be taken again");
        r.releaseReference();             // the command buffer completes
        assertEquals(1, r.frees.get());
        assertThrows(IllegalStateException.class, r::releaseReference);
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
