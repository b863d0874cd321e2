package dev.panamax.core.internal.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;

/**
 * The cleanup state of one native resource, separate from the object the user holds (the
 * referent): it knows how to free the resource and undo its reservation, and it is what the GC
 * enqueues when the referent becomes unreachable. Release happens exactly once: the first of
 * {@link #releaseByCode()} and {@link #releaseByGc()} wins a compare-and-set, the other does nothing.
 *
 * <p>A subclass must not hold the referent (that would keep it reachable forever).
 */
public abstract class Tracked extends PhantomReference<Object> {
    private static final VarHandle RELEASED;

    static {
        try {
            RELEASED = MethodHandles.lookup().findVarHandle(Tracked.class, "released", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    private final long bytes;
    private final TypeCounter type;
    private final LeakRecord leak;
    @SuppressWarnings("unused") // updated through RELEASED
    private volatile int released;

    /**
     * Registers {@code referent}'s cleanup. The caller must already own what this frees; if this
     * constructor throws, nothing was registered and the caller frees at once.
     */
    protected Tracked(Object referent, TypeCounter type, long bytes, LeakRecord leak) {
        super(referent, Registry.QUEUE);
        this.id = Registry.nextId();
        this.bytes = bytes;
        this.type = type;
        this.leak = leak;
        Registry.add(this);
        type.created(bytes);
    }

    /** Monotonic id: resources created later have larger ids. */
    public final long id() {
        return id;
    }

    public final TypeCounter type() {
        return type;
    }

    /** The leak record, or null when leak detection did not track this resource. */
    public final LeakRecord leak() {
        return leak;
    }

    public final boolean isReleased() {
        return released != 0;
    }

    /** Native bytes this resource accounts for (0 when unknown or not native memory). */
    public final long bytes() {
        return bytes;
    }

    /** The native address, for reports. */
    public abstract long address();

    /** Frees the native resource and undoes its reservation. Runs at most once. */
    protected abstract void free(boolean byGc);

    /** Released by code (close, last release, scope). Returns whether this call released it. */
    public final boolean releaseByCode() {
        return release(false);
    }

    /** Released because the referent became unreachable: a leak. */
    final void releaseByGc() {
        if (release(true) && leak != null) {
            LeakReports.report(this);
        }
    }

    private boolean release(boolean byGc) {
        if (!RELEASED.compareAndSet(this, 0, 1)) return false;
        Registry.remove(this);
        clear();
        try {
            free(byGc);
        } finally {
            type.released(bytes, byGc);
            Registry.countRelease(byGc);
        }
        return true;
    }
}
