package dev.panamax.core.memory;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** A budget of its own: reservations within the limit, pressure hooks and the wait over it, shadows in proportion. */
class MemoryBudgetTest {
    @Test
    void reservesWithinTheLimitAndGivesBack() {
        MemoryBudget b = MemoryBudget.create("test device", 1000, 0);
        assertTrue(b.reserve(600));
        assertTrue(b.reserve(400));
        assertEquals(1000, b.reserved());
        assertEquals(1000, b.peak());
        b.unreserve(600);
        assertEquals(400, b.reserved());
        assertEquals(1000, b.peak());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.unreserve(401));
        assertTrue(e.getMessage().contains("test device"), e.getMessage());
    }

    @Test
    void overTheLimitItTrimsThenWaitsThenSaysNo() {
        MemoryBudget b = MemoryBudget.create("full device", 1000, 20);
        AtomicInteger trims = new AtomicInteger();
        assertTrue(b.reserve(900));
        b.addPressureHook(() -> {
            trims.incrementAndGet();
            return 0;
        });
        long start = System.nanoTime();
        assertFalse(b.reserve(200));
        assertTrue(System.nanoTime() - start >= 20_000_000L, "waited for the GC before saying no");
        assertTrue(trims.get() >= 2, "trimmed before the wait and again after each round: " + trims.get());
        assertEquals(1, b.waits());
        assertEquals(900, b.reserved());
        assertFalse(b.reserve(2000), "more than the whole limit is refused at once");
        // a hook that frees enough lets the reservation through without waiting
        MemoryBudget c = MemoryBudget.create("pooled device", 1000, 5000);
        assertTrue(c.reserve(1000));
        c.addPressureHook(() -> {
            c.unreserve(500);
            return 500;
        });
        assertTrue(c.reserve(300));
        assertEquals(0, c.waits());
        // memory the GC frees during the wait may go back to a pool idle (still reserved): the hooks
        // run again after each round of the wait, so the pool gives it back and the reservation passes
        MemoryBudget d = MemoryBudget.create("pool refilled while waiting", 1000, 5000);
        assertTrue(d.reserve(1000));
        AtomicInteger calls = new AtomicInteger();
        d.addPressureHook(() -> {
            if (calls.incrementAndGet() != 3) return 0;
            d.unreserve(500);
            return 500;
        });
        assertTrue(d.reserve(300));
        assertEquals(1, d.waits());
        assertEquals(800, d.reserved());
    }

    @Test
    void shadowsAreInProportionToTheBudget() {
        long heap = Runtime.getRuntime().maxMemory();
        MemoryBudget b = MemoryBudget.create("shadowed", heap);
        Object half = b.shadow(heap / 4);
        assertInstanceOf(byte[].class, half);
        long len = ((byte[]) half).length;
        // shadowFraction 0.5: a quarter of the budget weighs an eighth of the heap (rounded to G1 regions)
        assertTrue(Math.abs(len - heap / 8) <= 32L << 20, "shadow " + len + " for heap " + heap);
        assertNull(b.shadow(16), "tiny reservations carry no shadow");
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.create("zero", 0));
    }
}
