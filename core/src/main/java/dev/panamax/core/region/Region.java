package dev.panamax.core.region;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;

/**
 * A run-time checked, exclusively owned view of a memory segment that can be split into two
 * disjoint children and combined back: the linear arrays of GHC's split/combine (a region's
 * ownership token is its owner thread), checked when used instead of at compile time.
 *
 * <ul>
 *   <li>A usable region is owned by exactly one thread; only that thread reads, writes, splits or
 *       passes it on ({@link #handOver}, or {@link #relinquish} and a {@link #claim} by another
 *       thread). Anyone else gets a {@link WrongThreadException}.</li>
 *   <li>{@link #split} gives two children over disjoint halves; the parent can then be neither read
 *       nor written nor split again until {@link #combine} takes both children back.</li>
 *   <li>A child that was combined is retired for good; the parent can be split anew.</li>
 * </ul>
 *
 * <pre>{@code
 * Region c = Region.of(matrix);
 * Region.Split halves = c.split(c.byteSize() / 2);
 * halves.right().handOver(worker);           // worker computes the bottom rows
 * ...                                        // this thread computes the top rows
 * c = halves.combine();                      // after the worker handed its half back
 * }</pre>
 *
 * The zero-copy {@link #segment()} view for native calls is checked when it is taken; it must not
 * be used after the region is split or passed on (Java cannot revoke it without losing the
 * segment's own liveness checks, which is what keeps a late use from crashing).
 */
public final class Region {
    private enum State { ACTIVE, SPLIT, RETIRED }

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(Region.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MemorySegment segment;
    private final long offset;
    private final Region parent;
    private volatile Thread owner;
    private volatile State state = State.ACTIVE;
    // the children of the current split; written by the owner before state becomes SPLIT
    private Region left;
    private Region right;

    private Region(MemorySegment segment, long offset, Region parent, Thread owner) {
        this.segment = segment;
        this.offset = offset;
        this.parent = parent;
        this.owner = owner;
    }

    /** A root region over all of {@code segment}, owned by the calling thread. */
    public static Region of(MemorySegment segment) {
        Objects.requireNonNull(segment, "segment");
        Region region = new Region(segment, 0, null, Thread.currentThread());
        if (!segment.isAccessibleBy(Thread.currentThread())) throw RegionErrors.notAccessible(region, Thread.currentThread());
        return region;
    }

    /** The two children of a {@link #split}; {@link #combine()} gives the parent back. */
    public record Split(Region left, Region right) {
        /** Same as {@link Region#combine(Region, Region) Region.combine(left, right)}. */
        public Region combine() {
            return Region.combine(left, right);
        }
    }

    /** Size in bytes. */
    public long byteSize() {
        return segment.byteSize();
    }

    /** Byte offset of this region in its root region (for a row block: which rows it holds). */
    public long offset() {
        return offset;
    }

    /** The owning thread, or null while relinquished. */
    public Thread owner() {
        return owner;
    }

    /** True while split into children. */
    public boolean isSplit() {
        return state == State.SPLIT;
    }

    /** True once combined back into its parent: a retired region can never be used again. */
    public boolean isRetired() {
        return state == State.RETIRED;
    }

    /**
     * Splits this region at byte {@code at} (0 &lt; at &lt; byteSize) into {@code [0, at)} and
     * {@code [at, byteSize)}, both owned by the calling thread. Zero-copy: the children are views.
     */
    public Split split(long at) {
        checkUsable("split");
        if (at <= 0 || at >= byteSize()) throw RegionErrors.splitPoint(this, at);
        Thread me = Thread.currentThread();
        Region l = new Region(segment.asSlice(0, at), offset, this, me);
        Region r = new Region(segment.asSlice(at), offset + at, this, me);
        left = l;
        right = r;
        state = State.SPLIT;
        return new Split(l, r);
    }

    /**
     * Takes both children of one split back (in either order) and returns their parent, usable
     * again and owned by the calling thread, which must own both children. The children retire.
     */
    public static Region combine(Region a, Region b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        if (a == b) throw RegionErrors.sameTwice(a);
        if (a.state == State.RETIRED) throw RegionErrors.retired(a, "combined");
        if (b.state == State.RETIRED) throw RegionErrors.retired(b, "combined");
        Region parent = a.parent;
        if (parent == null) throw RegionErrors.notChild(a);
        if (b.parent == null) throw RegionErrors.notChild(b);
        if (b.parent != parent || parent.state != State.SPLIT
                || !((parent.left == a && parent.right == b) || (parent.left == b && parent.right == a))) {
            throw RegionErrors.foreign(a, b);
        }
        Thread me = Thread.currentThread();
        if (a.owner != me) throw RegionErrors.notOwner(a, "combined");
        if (b.owner != me) throw RegionErrors.notOwner(b, "combined");
        if (a.state == State.SPLIT) throw RegionErrors.split(a, "combined");
        if (b.state == State.SPLIT) throw RegionErrors.split(b, "combined");
        a.state = State.RETIRED;
        b.state = State.RETIRED;
        a.owner = null;
        b.owner = null;
        parent.left = null;
        parent.right = null;
        parent.owner = me;
        parent.state = State.ACTIVE;
        return parent;
    }

    /** Gives this region to {@code next}, which may use it at once; the caller must own it. */
    public void handOver(Thread next) {
        Objects.requireNonNull(next, "next");
        checkUsable("handed over");
        if (!segment.isAccessibleBy(next)) throw RegionErrors.notAccessible(this, next);
        owner = next;
    }

    /** Gives up ownership without naming a successor; the next thread to {@link #claim} it owns it. */
    public void relinquish() {
        checkUsable("relinquished");
        owner = null;
    }

    /** Makes the calling thread the owner of a relinquished region (no-op if it owns it already). */
    public void claim() {
        State s = state;
        if (s == State.SPLIT) throw RegionErrors.split(this, "claimed");
        if (s == State.RETIRED) throw RegionErrors.retired(this, "claimed");
        Thread me = Thread.currentThread();
        if (owner == me) return;
        if (!segment.isAccessibleBy(me)) throw RegionErrors.notAccessible(this, me);
        if (!OWNER.compareAndSet(this, (Thread) null, me)) throw RegionErrors.ownedElsewhere(this);
    }

    /** The zero-copy view of this region's bytes, e.g. for a native call; see the class notes. */
    public MemorySegment segment() {
        checkUsable("viewed");
        return segment;
    }

    /** The float at element {@code index} (byte offset {@code 4 * index}, native order). */
    public float getFloat(long index) {
        checkUsable("read");
        return segment.get(JAVA_FLOAT_UNALIGNED, checkedOffset(index, JAVA_FLOAT_UNALIGNED, "float"));
    }

    /** Writes the float at element {@code index}. */
    public void setFloat(long index, float value) {
        checkUsable("written");
        segment.set(JAVA_FLOAT_UNALIGNED, checkedOffset(index, JAVA_FLOAT_UNALIGNED, "float"), value);
    }

    /** The double at element {@code index} (byte offset {@code 8 * index}, native order). */
    public double getDouble(long index) {
        checkUsable("read");
        return segment.get(JAVA_DOUBLE_UNALIGNED, checkedOffset(index, JAVA_DOUBLE_UNALIGNED, "double"));
    }

    /** Writes the double at element {@code index}. */
    public void setDouble(long index, double value) {
        checkUsable("written");
        segment.set(JAVA_DOUBLE_UNALIGNED, checkedOffset(index, JAVA_DOUBLE_UNALIGNED, "double"), value);
    }

    /** The int at element {@code index} (byte offset {@code 4 * index}, native order). */
    public int getInt(long index) {
        checkUsable("read");
        return segment.get(JAVA_INT_UNALIGNED, checkedOffset(index, JAVA_INT_UNALIGNED, "int"));
    }

    /** Writes the int at element {@code index}. */
    public void setInt(long index, int value) {
        checkUsable("written");
        segment.set(JAVA_INT_UNALIGNED, checkedOffset(index, JAVA_INT_UNALIGNED, "int"), value);
    }

    private long checkedOffset(long index, ValueLayout layout, String type) {
        long size = layout.byteSize();
        if (index < 0 || index >= segment.byteSize() / size) throw RegionErrors.element(this, type, index, size);
        return index * size;
    }

    /** Fails unless this region is active and owned by the calling thread. */
    void checkUsable(String action) {
        State s = state;
        if (s == State.SPLIT) throw RegionErrors.split(this, action);
        if (s == State.RETIRED) throw RegionErrors.retired(this, action);
        if (owner != Thread.currentThread()) throw RegionErrors.notOwner(this, action);
    }

    String describe() {
        Thread o = owner;
        return "offset=" + offset + " byteSize=" + segment.byteSize() + " state=" + state
                + " owner=" + (o == null ? "none" : o.getName()) + " root=" + (parent == null);
    }

    @Override
    public String toString() {
        return "Region[" + describe() + "]";
    }
}
