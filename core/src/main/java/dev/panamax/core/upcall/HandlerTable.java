package dev.panamax.core.upcall;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Registration ids to handlers, read without locks or allocation on the dispatch path.
 *
 * <p>An id is {@code generation << 20 | slot}: the slot indexes an array, the generation (1..2047)
 * changes each time the slot is reused, and freed slots are reused oldest first and only once a few
 * hundred are free, so a native thread still holding an unregistered id finds nothing rather than a
 * newer handler. Changes happen under
 * a lock; lookups read the current array through a volatile field.
 */
final class HandlerTable {
    static final int SLOT_BITS = 20;
    static final int MAX_SLOTS = 1 << SLOT_BITS;
    private static final int SLOT_MASK = MAX_SLOTS - 1;
    private static final int MAX_GENERATION = (Integer.MAX_VALUE >>> SLOT_BITS);
    // a freed slot waits until this many others are free before it is reused, so an id comes back
    // only after about MAX_GENERATION * REUSE_AFTER registrations
    private static final int REUSE_AFTER = 256;

    /** One registration. */
    record Entry(int id, Object handler, boolean oneShot) {}

    private volatile AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(64);
    private int[] generations = new int[64];
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private int nextSlot = 1;
    private int size;

    synchronized int add(Object handler, boolean oneShot) {
        int slot;
        if (free.size() > REUSE_AFTER || (!free.isEmpty() && nextSlot == MAX_SLOTS)) {
            slot = free.poll();
        } else {
            if (nextSlot == MAX_SLOTS) {
                throw new IllegalStateException("too many callbacks registered at once: registered=" + size + " max=" + (MAX_SLOTS - 1));
            }
            slot = nextSlot++;
            if (slot >= slots.length()) grow(Math.min(MAX_SLOTS, slots.length() * 2));
        }
        int generation = generations[slot] % MAX_GENERATION + 1;
        generations[slot] = generation;
        int id = generation << SLOT_BITS | slot;
        slots.set(slot, new Entry(id, handler, oneShot));
        size++;
        return id;
    }

    /** The entry registered under {@code id}, or {@code null}. */
    Entry get(long id) {
        if (id <= 0 || id > Integer.MAX_VALUE) return null;
        int slot = (int) id & SLOT_MASK;
        AtomicReferenceArray<Entry> s = slots;
        if (slot >= s.length()) return null;
        Entry e = s.get(slot);
        return e != null && e.id() == id ? e : null;
    }

    /** Removes {@code expected} if it is still registered; true when this call removed it. */
    synchronized boolean remove(Entry expected) {
        int slot = expected.id() & SLOT_MASK;
        if (slot >= slots.length() || slots.get(slot) != expected) return false;
        slots.set(slot, null);
        free.add(slot);
        size--;
        return true;
    }

    synchronized int size() {
        return size;
    }

    private void grow(int capacity) {
        AtomicReferenceArray<Entry> bigger = new AtomicReferenceArray<>(capacity);
        AtomicReferenceArray<Entry> old = slots;
        for (int i = 0; i < old.length(); i++) bigger.set(i, old.get(i));
        generations = Arrays.copyOf(generations, capacity);
        slots = bigger;
    }
}
