package dev.panamax.core.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * One thread's in-call slot: the addresses of the handles its native calls are using now. A call
 * pushes above the {@code base}; its end returns the height to the base. A callback running inside a
 * call (an upcall) raises the base to the height at its start, so the calls it makes push above the
 * outer call's entries and end at them, and lowers it again when it returns. Written only by its
 * thread, with plain and release stores; read by a thread that releases a handle, after an asymmetric
 * fence ({@link CallGuard}). Generated bindings hold it in a local variable for the length of a call and
 * never look inside.
 */
public final class CallSlot {
    private static final VarHandle TOP;
    private static final VarHandle HELD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(CallSlot.class, "top", int.class);
            HELD = l.findVarHandle(CallSlot.class, "held", long[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WeakReference<Thread> owner;
    /** The slot's thread, for the first thread's lookup without a thread-local ({@link CallGuard#enter()}). */
    final Thread thread;
    // written by the owner only: plain stores, then a release store of top
    private long[] held = new long[16];
    private int top;
    // the owner's alone: where its current call level starts, and the bases of the upcalls it is inside
    private int base;
    private int[] outerBases = new int[4];
    private int upcalls;

    CallSlot(Thread owner) {
        this.owner = new WeakReference<>(owner);
        this.thread = owner;
    }

    /** Publishes {@code address} as in use by this thread (no fence: see {@link CallGuard}). */
    void push(long address) {
        int t = top;
        long[] a = held;
        if (t == a.length) a = grow(a);
        a[t] = address;
        TOP.setRelease(this, t + 1);
    }

    /**
     * Publishes the addresses of a call's handles (0 for a null one, which matches no release) with one
     * release store of the height: the addresses first, then the height that covers them.
     */
    void push(long a, long b) {
        int t = top;
        long[] held = room(t, 2);
        held[t] = a;
        held[t + 1] = b;
        TOP.setRelease(this, t + 2);
    }

    /** {@link #push(long, long)} for three. */
    void push(long a, long b, long c) {
        int t = top;
        long[] held = room(t, 3);
        held[t] = a;
        held[t + 1] = b;
        held[t + 2] = c;
        TOP.setRelease(this, t + 3);
    }

    /** The entries array with room for {@code n} more above {@code t}. */
    private long[] room(int t, int n) {
        long[] a = held;
        return t + n <= a.length ? a : grow(a);
    }

    /** Takes back the entry just pushed (its handle turned out released: the call does not happen). */
    void dropLast() {
        TOP.setRelease(this, top - 1);
    }

    /** Takes back the {@code n} entries just pushed together. */
    void dropLast(int n) {
        TOP.setRelease(this, top - n);
    }

    /** Ends the current call: everything above the base, including what an exception left, goes. */
    void endCall() {
        TOP.setRelease(this, base);
    }

    /** A callback starts on this thread: its calls push above what the calls it runs inside hold. */
    void upcallStarts() {
        if (upcalls == outerBases.length) outerBases = Arrays.copyOf(outerBases, upcalls * 2);
        outerBases[upcalls++] = base;
        base = top;
    }

    /** The callback returns: what its calls held goes, and the outer level's base is back. */
    void upcallEnds() {
        TOP.setRelease(this, base);
        base = outerBases[--upcalls];
    }

    private long[] grow(long[] a) {
        long[] bigger = Arrays.copyOf(a, a.length * 2);
        // published before the top that covers its new entries: a reader takes top first, then the array
        HELD.setRelease(this, bigger);
        return bigger;
    }

    /** Whether this thread's calls are using {@code address} now (read by another thread). */
    boolean holds(long address) {
        int t = (int) TOP.getAcquire(this);
        long[] a = (long[]) HELD.getAcquire(this);
        for (int i = Math.min(t, a.length) - 1; i >= 0; i--) {
            if (a[i] == address) return !finished();
        }
        return false;
    }

    /** Whether the slot's thread has ended: none of its calls is running. */
    private boolean finished() {
        Thread t = owner.get();
        return t == null || t.getState() == Thread.State.TERMINATED;
    }

    /** Whether the slot's thread is gone: it can leave the registry. */
    boolean abandoned() {
        return finished();
    }

    /** Whether {@code thread} is this slot's thread. */
    boolean ownedBy(Thread thread) {
        return owner.get() == thread;
    }
}
