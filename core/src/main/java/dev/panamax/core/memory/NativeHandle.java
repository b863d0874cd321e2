package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.Budget;
import dev.panamax.core.internal.memory.LeakRecord;
import dev.panamax.core.internal.memory.Shadow;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.util.Locale;
import java.util.Objects;

/**
 * A native object seen from Java: its address, its size when known, whether Java owns it, and for
 * owned ones the action that frees it.
 *
 * <p>An owned handle is released exactly once, by whichever comes first: {@link #close()}, the
 * {@link #release()} that drops its reference count to zero, or the GC when the handle became
 * unreachable (a leak, reported by {@link LeakDetection}). The three race safely: one
 * compare-and-set on the cleanup state decides. After release every access fails with
 * {@link HandleReleasedException}, and a {@link #segment()} handed out earlier fails inside Java
 * ({@link IllegalStateException} from FFM) because it is scoped to an arena the release closes.
 * A borrowed handle frees nothing; closing it only ends its segments. A new handle belongs to its
 * maker alone: it joins a {@link NativeScope} only when handed to one ({@link NativeScope#adopt}).
 *
 * <pre>{@code
 * try (NativeBuffer b = NativeBuffer.allocate(1024)) {
 *     b.segment().set(ValueLayout.JAVA_INT, 0, 42);
 * } // freed here; b.segment() now throws
 * }</pre>
 *
 * <p>Owned handles reserve their bytes against the native memory budget ({@link NativeMemory}) and
 * carry a heap shadow in proportion to them, so that the GC notices native memory.
 */
public abstract class NativeHandle implements AutoCloseable {
    /** Frees an owned native object. Must not refer to the handle (it runs after the handle is gone). */
    @FunctionalInterface
    public interface ReleaseAction {
        void release(long address, long byteSize);
    }

    private static final VarHandle REF_CNT;
    private static final VarHandle SCOPED;
    private static final VarHandle PINS;
    private static final Object CLOSED = new Object();
    /** Marks "make the shadow from the reservation" for the constructor that may be given one. */
    private static final Object SHADOW_OF_RESERVATION = new Object();

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            REF_CNT = l.findVarHandle(NativeHandle.class, "refCnt", int.class);
            SCOPED = l.findVarHandle(NativeHandle.class, "scoped", Object.class);
            PINS = l.findVarHandle(NativeHandle.class, "pins", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A handed-out segment and the arena that ends it. */
    private record Scoped(Arena arena, MemorySegment segment) {}

    private final long address;
    // made once so that passing the handle to a downcall allocates nothing per call
    private final MemorySegment pointer;
    private final long byteSize;
    private final SegmentAccess access;
    private final Thread ownerThread;
    private final HandleState state;
    @SuppressWarnings("unused") // the GC's view of the native bytes; never read
    private final Object shadow;
    @SuppressWarnings("unused") // updated through REF_CNT
    private volatile int refCnt;
    @SuppressWarnings("unused") // null, a Scoped, or CLOSED; updated through SCOPED
    private volatile Object scoped;
    @SuppressWarnings("unused") // updated through PINS
    private volatile int pins;

    /**
     * Adopts a native object. An owned one with a known size is reserved against the budget now
     * (it already exists); if that fails, {@code action} frees it at once and the error is rethrown.
     *
     * @param address  its address (not 0)
     * @param byteSize its size in bytes, or -1 when unknown
     * @param owner    whether this handle frees it
     * @param access   which threads may use its segment
     * @param action   what frees it (ignored for borrowed handles); must not refer to this handle
     */
    // an owned handle registers itself for cleanup (HandleState: a phantom reference to it, counted
    // under its class) before a subclass's constructor runs; nothing there calls a method a subclass
    // could override
    @SuppressWarnings("this-escape")
    protected NativeHandle(long address, long byteSize, boolean owner, SegmentAccess access, ReleaseAction action) {
        this(address, byteSize, access, owner ? Objects.requireNonNull(action, "action") : null,
                owner ? reserveAdopted(address, byteSize, action) : -1);
    }

    /**
     * For handles whose memory Panamax allocated after reserving {@code reservedBytes}; the
     * reservation and the memory are freed at once if registering fails. {@code action == null}
     * means borrowed.
     */
    NativeHandle(long address, long byteSize, SegmentAccess access, ReleaseAction action, long reservedBytes) {
        this(address, byteSize, access, action, reservedBytes, SHADOW_OF_RESERVATION);
    }

    /**
     * As above, holding {@code givenShadow} (null for none) as the heap shadow instead of making one
     * from the reservation: for a pooled block, whose shadow outlives each lease of it.
     */
    NativeHandle(long address, long byteSize, SegmentAccess access, ReleaseAction action, long reservedBytes, Object givenShadow) {
        if (address == 0) throw new IllegalArgumentException("null native address: type=" + getClass().getSimpleName());
        if (byteSize < -1) throw new IllegalArgumentException("bad size: type=" + getClass().getSimpleName() + " byteSize=" + byteSize);
        this.address = address;
        this.pointer = MemorySegment.ofAddress(address);
        this.byteSize = byteSize;
        this.access = Objects.requireNonNull(access, "access");
        this.ownerThread = access == SegmentAccess.CONFINED ? Thread.currentThread() : null;
        this.refCnt = 1;
        if (action == null) {
            this.state = null;
            this.shadow = null;
        } else {
            long reserved = Math.max(0, reservedBytes);
            HandleState st;
            Object sh;
            try {
                sh = givenShadow == SHADOW_OF_RESERVATION ? Shadow.of(reserved) : givenShadow;
                st = new HandleState(this, address, byteSize, reserved, action, LeakDetection.recordForNewHandle());
            } catch (Throwable t) {
                try {
                    action.release(address, byteSize);
                } finally {
                    Budget.unreserve(reserved);
                }
                throw t;
            }
            this.state = st;
            this.shadow = sh;
        }
    }

    private static long reserveAdopted(long address, long byteSize, ReleaseAction action) {
        if (address == 0) throw new IllegalArgumentException("null native address: byteSize=" + byteSize);
        long bytes = Math.max(0, byteSize);
        try {
            Budget.reserve(bytes);
        } catch (Throwable t) {
            Objects.requireNonNull(action, "action").release(address, byteSize);
            throw t;
        }
        return bytes;
    }

    /** The native address. */
    public final long address() {
        if ((int) REF_CNT.getVolatile(this) <= 0) throw HandleReleasedException.released("address", this);
        return address;
    }

    /**
     * The native address as a zero-length segment, for passing to a downcall; the same object on every
     * call, so it costs no allocation. Fails like {@link #address()} once the handle is released.
     */
    public final MemorySegment pointer() {
        if ((int) REF_CNT.getVolatile(this) <= 0) throw HandleReleasedException.released("pointer", this);
        return pointer;
    }

    /** The address even after release, for messages. */
    final long rawAddress() {
        return address;
    }

    /** Size in bytes, or -1 when unknown. */
    public final long byteSize() {
        return byteSize;
    }

    /** Whether this handle frees the native object (owned) or only refers to it (borrowed). */
    public final boolean isOwner() {
        return state != null;
    }

    public final SegmentAccess access() {
        return access;
    }

    /** Whether the handle has been released (by close, its last release, the scope it was handed to, or the GC). */
    public final boolean isReleased() {
        return (int) REF_CNT.getVolatile(this) <= 0;
    }

    /** The current reference count; 0 once released. */
    public final int refCount() {
        return Math.max(0, (int) REF_CNT.getVolatile(this));
    }

    /**
     * The memory as a segment of {@link #byteSize()} bytes (0 when unknown), scoped to this handle:
     * it fails inside Java once the handle is released. A {@link SegmentAccess#CONFINED} handle's
     * segment works on the creating thread only.
     */
    public final MemorySegment segment() {
        Object s = scoped;
        if (s instanceof Scoped sc && (ownerThread == null || ownerThread == Thread.currentThread())) return sc.segment();
        return createSegment(s);
    }

    private MemorySegment createSegment(Object current) {
        if (current == CLOSED || isReleased()) throw HandleReleasedException.released("segment", this);
        checkThread("segment");
        Arena arena = access == SegmentAccess.SHARED ? Arena.ofShared() : Arena.ofConfined();
        // the arena's cleanup list holds the handle, so any live segment keeps the handle (and its
        // memory) from being collected
        MemorySegment seg = MemorySegment.ofAddress(address).reinterpret(Math.max(0, byteSize), arena, keepAlive(this));
        Object witness = SCOPED.compareAndExchange(this, null, new Scoped(arena, seg));
        if (witness == null) return seg;
        arena.close();
        if (witness instanceof Scoped other) return other.segment();
        throw HandleReleasedException.released("segment", this);
    }

    private static java.util.function.Consumer<MemorySegment> keepAlive(NativeHandle h) {
        return seg -> Reference.reachabilityFence(h);
    }

    /** Adds a reference. Fails once the handle is released. */
    public NativeHandle retain() {
        checkThread("retain");
        while (true) {
            int c = (int) REF_CNT.getVolatile(this);
            if (c <= 0) throw HandleReleasedException.released("retain", this);
            if (c == Integer.MAX_VALUE) throw new IllegalStateException("reference count overflow: type="
                    + getClass().getSimpleName() + " refCnt=" + c);
            if (REF_CNT.compareAndSet(this, c, c + 1)) return this;
        }
    }

    /**
     * Adds a reference unless the handle is released: {@link #retain()} for callers that treat a
     * released handle as an answer ("no longer there") rather than an error.
     *
     * @return whether a reference was added
     */
    public final boolean tryRetain() {
        checkThread("retain");
        while (true) {
            int c = (int) REF_CNT.getVolatile(this);
            if (c <= 0) return false;
            if (c == Integer.MAX_VALUE) throw new IllegalStateException("reference count overflow: type="
                    + getClass().getSimpleName() + " refCnt=" + c);
            if (REF_CNT.compareAndSet(this, c, c + 1)) return true;
        }
    }

    /**
     * Drops a reference; the last one releases the handle. Returns whether this call released it.
     * Fails when the handle is already released.
     */
    public final boolean release() {
        checkThread("release");
        while (true) {
            int c = (int) REF_CNT.getVolatile(this);
            if (c <= 0) throw HandleReleasedException.released("release", this);
            if (REF_CNT.compareAndSet(this, c, c - 1)) {
                if (c == 1) {
                    releaseNow();
                    return true;
                }
                return false;
            }
        }
    }

    /** Releases the handle now, whatever its reference count. Idempotent. */
    @Override
    public final void close() {
        if ((int) REF_CNT.getVolatile(this) <= 0) return;
        checkThread("close");
        if ((int) REF_CNT.getAndSet(this, 0) > 0) releaseNow();
    }

    /**
     * Keeps the native object alive until {@link #unpin()}, whatever happens to this handle meanwhile:
     * a {@code close()} or last {@code release()} makes the handle unusable from Java at once, but the
     * object is freed only when the last pin goes. For holders of the address that outlive a call, such
     * as a {@link dev.panamax.core.batch.Batch} that replays it ({@code Batch.keep}).
     *
     * @return the native address the pin keeps valid (usable after the handle's release, until the unpin)
     * @throws HandleReleasedException when the handle is already released
     */
    public final long pin() {
        // counted first, then the state read (both fenced, as the release's swap and its read of the pins
        // are): a release racing this pin either sees the pin and waits for it, or is seen here
        PINS.getAndAdd(this, 1);
        if (isReleased()) {
            unpin();
            throw HandleReleasedException.released("pin", this);
        }
        return address;
    }

    /**
     * Ends one {@link #pin()}; when the last goes and the handle was released meanwhile, the object is freed
     * now (by this thread, or by the deferred-release thread if it got there first).
     */
    public final void unpin() {
        int left = (int) PINS.getAndAdd(this, -1) - 1;
        if (left < 0) {
            PINS.getAndAdd(this, 1);
            throw new IllegalStateException("unpin without a pin: type=" + getClass().getSimpleName());
        }
        if (left == 0 && isReleased()) CallGuard.releaseDeferred();
    }

    /**
     * Whether a {@link #pin()} keeps the native object alive now: a released handle that is pinned
     * still has its object (usable through the address the pin returned, never through this handle).
     */
    public final boolean isPinned() {
        return pinned();
    }

    /** Whether a {@link #pin()} keeps the object alive. */
    final boolean pinned() {
        return (int) PINS.getVolatile(this) > 0;
    }

    /**
     * Records where this handle was last used (kept when leak detection tracks this handle), so a
     * leak report shows its last moves. Returns this handle.
     */
    public NativeHandle touch(Object hint) {
        HandleState st = state;
        if (st != null) {
            LeakRecord r = st.leak();
            if (r != null) r.touch(String.valueOf(hint));
        }
        return this;
    }

    /** The heap shadow this handle holds (null when none), for tests of how shadows are kept. */
    final Object heapShadow() {
        return shadow;
    }

    /** Id of the handle's accounting entry (monotonic), or -1 for borrowed handles. */
    final long trackingId() {
        return state == null ? -1 : state.id();
    }

    private void releaseNow() {
        Object s = SCOPED.getAndSet(this, CLOSED);
        if (s instanceof Scoped sc) {
            try {
                sc.arena().close();
            } catch (IllegalStateException inUse) {
                // a native call on another thread holds the segment: undo, the caller may retry
                SCOPED.setVolatile(this, s);
                REF_CNT.setVolatile(this, 1);
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "handle in use by a native call, not released: type=%s address=0x%x",
                        getClass().getSimpleName(), address), inUse);
            }
        }
        // a native call of any thread may still be using the object: then it is freed when the call returns
        if (state != null) CallGuard.releaseWhenUnused(this, state, address);
        Reference.reachabilityFence(this);
    }

    /** The release {@link CallGuard} deferred while a call was using the object. */
    final void releaseDeferred() {
        state.releaseByCode();
    }

    private void checkThread(String operation) {
        if (ownerThread != null && ownerThread != Thread.currentThread()) {
            throw new WrongThreadException(String.format(Locale.ROOT,
                    "confined handle used from another thread: operation=%s type=%s address=0x%x owner=%s thread=%s",
                    operation, getClass().getSimpleName(), address, ownerThread.getName(), Thread.currentThread().getName()));
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s[address=0x%x byteSize=%d owner=%b access=%s refCnt=%d]",
                getClass().getSimpleName(), address, byteSize, isOwner(), access, refCount());
    }
}
