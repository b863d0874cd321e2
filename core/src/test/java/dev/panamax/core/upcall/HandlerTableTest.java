package dev.panamax.core.upcall;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class HandlerTableTest {
    private static final int SLOT_MASK = HandlerTable.MAX_SLOTS - 1;

    @Test
    void idsFindTheirEntryUntilRemoved() {
        HandlerTable t = new HandlerTable();
        int a = t.add("a", false);
        int b = t.add("b", true);
        assertNotEquals(a, b);
        assertTrue(a > 0 && b > 0);
        assertEquals("a", t.get(a).handler());
        assertTrue(t.get(b).oneShot());
        assertTrue(t.remove(t.get(a)));
        assertNull(t.get(a));
        assertEquals(1, t.size());
        assertNull(t.get(0));
        assertNull(t.get(-5));
        assertNull(t.get(1L << 40));
    }

    @Test
    void removingTwiceRemovesOnce() {
        HandlerTable t = new HandlerTable();
        HandlerTable.Entry e = t.get(t.add("x", true));
        assertTrue(t.remove(e));
        assertFalse(t.remove(e));
        assertEquals(0, t.size());
    }

    @Test
    void aReusedSlotGetsANewIdSoStaleIdsFindNothing() {
        HandlerTable t = new HandlerTable();
        List<Integer> first = new ArrayList<>();
        for (int i = 0; i < 300; i++) first.add(t.add(i, false));
        for (int id : first) assertTrue(t.remove(t.get(id)));
        int reused = t.add("new", false);
        int oldestFreed = first.getFirst();
        assertEquals(oldestFreed & SLOT_MASK, reused & SLOT_MASK, "oldest freed slot reused first");
        assertNotEquals(oldestFreed, reused, "with a new generation");
        assertNull(t.get(oldestFreed));
        assertEquals("new", t.get(reused).handler());
    }

    @Test
    void growsPastItsFirstCapacity() {
        HandlerTable t = new HandlerTable();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) ids.add(t.add(i, false));
        for (int i = 0; i < ids.size(); i++) assertEquals(i, t.get(ids.get(i)).handler());
        assertEquals(5_000, t.size());
    }
}
