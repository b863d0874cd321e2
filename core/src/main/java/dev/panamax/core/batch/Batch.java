package dev.panamax.core.batch;

import dev.panamax.core.abi.BlockLayout;
import dev.panamax.core.abi.Classification;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.core.memory.SegmentAccess;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Many native calls in one crossing. Calls are recorded (a thunk and its parameter block) into an
 * off-heap command buffer; {@link #run()} executes all of them in a single downcall into
 * libpanamax's batch runner, which stores each returned register in its entry.
 *
 * <p>Record once, replay many: after a run, write new arguments into the entries' blocks and run
 * again; nothing is allocated. An entry marked with a {@link StatusRule} stops the run when its
 * status says failure, and {@link #run()} throws {@link BatchFailedException}; earlier results stay
 * readable.
 *
 * <pre>{@code
 * try (Batch batch = Batch.create(BatchMode.STANDARD)) {
 *     BatchEntry a = batch.add(add);  a.params().setInt(0, 1).setInt(1, 2);
 *     BatchEntry b = batch.add(norm); b.params().set(0, point);
 *     batch.run();
 *     int sum = a.resultInt();
 *     float n = b.params().returnFloat();
 * }
 * }</pre>
 *
 * A batch owns its native memory: a command buffer and an argument area, each an owned
 * {@link dev.panamax.core.memory.NativeBuffer} reserved against the native memory budget
 * ({@link dev.panamax.core.memory.NativeMemory}) and replaced by a larger one as recording grows.
 * {@link #close()} frees both, exactly once; a batch that is never closed is freed by the GC and
 * reported as a leak by {@link dev.panamax.core.memory.LeakDetection}, with the place it was created.
 * Its memory belongs to the batch alone: close the batch itself (try-with-resources). Use a batch
 * from the thread that created it, or create it {@link #createShared shared} to use it from one
 * thread at a time. Handles recorded as arguments are kept alive until the batch is cleared or
 * closed ({@link #keep}): closing one of them before a replay does not free the object the replay
 * uses. A batch dropped unclosed lets them go when the GC finds it.
 */
public final class Batch implements AutoCloseable {
    private static final int ALIGN = BatchRegion.ALIGN;

    private final BatchMode mode;
    private final List<BatchEntry> entries = new ArrayList<>();
    /** Handles recorded as arguments, kept alive until the next clear or the close. */
    private final Pins kept = new Pins();
    /** The entries as the runner reads them. */
    private final BatchRegion commands;
    /** Every entry's parameter block, back to back. */
    private final BatchRegion arguments;
    private MemorySegment buffer;
    /** Every entry's parameter block, back to back: one segment, so a loop writing arguments touches one object. */
    private final ParamBlock.Storage area;
    private long areaUsed;
    private long[] blockOffsets;
    private int ranInLastRun;
    /** Parameter shapes by plan (identity): recording many calls of one function computes its shape once. */
    private final java.util.IdentityHashMap<Classification, ParamBlock.Shape> shapes = new java.util.IdentityHashMap<>();
    private Classification lastPlan;
    private ParamBlock.Shape lastShape;
    private boolean closed;

    private Batch(BatchMode mode, int initialCapacity, SegmentAccess access) {
        this.mode = mode;
        int capacity = Math.max(1, initialCapacity);
        this.commands = new BatchRegion("batch command buffer: mode=" + mode, (long) capacity * BatchNative.ENTRY_SIZE, access);
        try {
            this.arguments = new BatchRegion("batch argument area: mode=" + mode, (long) capacity * 16, access);
        } catch (Throwable t) {
            commands.close();
            throw t;
        }
        this.buffer = commands.segment();
        this.area = new ParamBlock.Storage(arguments.segment());
        this.blockOffsets = new long[capacity];
    }

    /** An empty batch with room for 16 entries (it grows while recording). */
    public static Batch create(BatchMode mode) {
        return create(mode, 16);
    }

    /** An empty batch with room for {@code initialCapacity} entries before it grows. */
    public static Batch create(BatchMode mode, int initialCapacity) {
        if (mode == null) throw new IllegalArgumentException("batch mode is missing");
        if (initialCapacity < 0) throw new IllegalArgumentException("negative capacity: initialCapacity=" + initialCapacity);
        return new Batch(mode, initialCapacity, SegmentAccess.CONFINED);
    }

    /**
     * An empty batch that any thread may use and close, one thread at a time: the caller orders the
     * uses (a lock, or handing the batch over through a concurrent queue). For a pool of batches
     * shared by the threads of a component that records, runs and {@link #clear() clears} them,
     * and closes them all when it closes:
     *
     * <pre>{@code
     * Batch batch = idle.poll();                       // a ConcurrentLinkedDeque<Batch>
     * if (batch == null) batch = Batch.createShared(BatchMode.STANDARD, 64);
     * try {
     *     batch.add(flush).params().setAddress(0, queue);
     *     batch.run();
     * } finally {
     *     batch.clear();
     *     idle.push(batch);
     * }
     * }</pre>
     */
    public static Batch createShared(BatchMode mode, int initialCapacity) {
        if (mode == null) throw new IllegalArgumentException("batch mode is missing");
        if (initialCapacity < 0) throw new IllegalArgumentException("negative capacity: initialCapacity=" + initialCapacity);
        return new Batch(mode, initialCapacity, SegmentAccess.SHARED);
    }

    /** How {@link #run()} crosses. */
    public BatchMode mode() {
        return mode;
    }

    /** Number of recorded entries. */
    public int size() {
        return entries.size();
    }

    /** Entry {@code index}. */
    public BatchEntry entry(int index) {
        return entries.get(index);
    }

    /**
     * Records a call of {@code thunk} with a zeroed parameter block (write the arguments through
     * {@link BatchEntry#params()}); its status rule, if any, is checked at every run.
     *
     * @throws IllegalArgumentException in a CRITICAL batch, when the function is not declared critical
     */
    public BatchEntry add(Thunk thunk) {
        ensureOpen();
        if (mode == BatchMode.CRITICAL && !thunk.critical()) throw BatchErrors.notCritical(thunk.name());
        int index = entries.size();
        long offset = (long) index * BatchNative.ENTRY_SIZE;
        if (offset + BatchNative.ENTRY_SIZE > buffer.byteSize()) grow();
        BlockLayout layout = thunk.plan().block();
        long at = allocateBlock(layout);
        if (index == blockOffsets.length) blockOffsets = java.util.Arrays.copyOf(blockOffsets, index * 2);
        blockOffsets[index] = at;
        ParamBlock block = new ParamBlock(thunk.plan(), area, at, shapeOf(thunk.plan()));
        BatchEntry e = new BatchEntry(this, index, thunk, block);
        buffer.set(ValueLayout.ADDRESS, offset + BatchNative.THUNK, thunk.address());
        buffer.set(ValueLayout.JAVA_LONG, offset + BatchNative.BLOCK, blockAddress(index));
        buffer.set(ValueLayout.JAVA_LONG, offset + BatchNative.RESULT, 0L);
        entries.add(e);
        e.writeFlags(thunk.status());
        return e;
    }

    /**
     * Records a call of {@code thunk} with {@code args}, one per C parameter in order, checked before
     * anything is recorded. Each argument is a boxed value of its parameter's C type: {@code Boolean}
     * (bool); {@code Byte}, {@code Short}, {@code Integer}, {@code Long} for integers of that width
     * (a narrower integer widens; signedness is C's, so pass a u32 as an {@code int}); {@code Float};
     * {@code Double} (or a {@code Float}); a native {@link MemorySegment}, {@code null} or a
     * {@link NativeHandle} (its address; kept alive until the batch is cleared or closed, {@link #keep}) for pointers; a {@code MemorySegment} of exactly the type's size for structs, unions and long
     * double. For a batch replayed with new arguments, write them through {@link BatchEntry#params()}
     * (no boxing).
     *
     * @throws IllegalArgumentException for a wrong count or type (naming the parameter), or a
     *                                  function not declared critical in a CRITICAL batch
     */
    public BatchEntry add(Thunk thunk, Object... args) {
        ensureOpen();
        if (args == null) args = new Object[]{null}; // add(thunk, null): one NULL pointer argument
        ParamBlock.checkArguments(thunk.name(), thunk.plan(), args);
        // handles become the addresses their pins keep valid, all before the entry exists: a handle released
        // meanwhile fails here and records nothing, and none is read again after its pin
        Object[] values = args;
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof NativeHandle h) {
                if (values == args) values = args.clone();
                values[i] = MemorySegment.ofAddress(keep(h));
            }
        }
        args = values;
        BatchEntry e = add(thunk);
        ParamBlock p = e.params();
        for (int i = 0; i < args.length; i++) p.setArgument(i, args[i]);
        return e;
    }

    /**
     * Keeps {@code handle}'s native object alive until this batch is cleared or closed
     * ({@link NativeHandle#pin()}): a {@code close()} or last {@code release()} of the handle meanwhile
     * makes the handle unusable from Java but leaves the object for the batch's replays, and frees it
     * when the batch is cleared or closed (or, dropped unclosed, found by the GC). Recording a handle
     * as an argument ({@link #add(Thunk, Object...)}, the generated typed recorders) keeps it.
     *
     * @return the handle's native address, valid until the batch is cleared or closed
     * @throws dev.panamax.core.memory.HandleReleasedException when the handle is already released
     */
    public long keep(NativeHandle handle) {
        ensureOpen();
        long address = handle.pin();
        try {
            kept.add(this, handle);
        } catch (Throwable t) {
            handle.unpin();
            throw t;
        }
        return address;
    }

    /**
     * Runs every entry in one downcall, in order.
     *
     * @throws BatchFailedException when an entry's status check fails; entries before it ran
     */
    public void run() {
        ensureOpen();
        int n = entries.size();
        if (n == 0) {
            ranInLastRun = 0;
            return;
        }
        long done;
        try {
            done = mode == BatchMode.CRITICAL
                    ? (long) BatchNative.RUN_CRITICAL.invokeExact(buffer, (long) n)
                    : (long) BatchNative.RUN_STANDARD.invokeExact(buffer, (long) n);
        } catch (Throwable t) {
            throw ThunkHandle.rethrow(t);
        }
        if (done == n) {
            ranInLastRun = n;
            return;
        }
        int failed = (int) done;
        ranInLastRun = failed + 1;
        BatchEntry e = entries.get(failed);
        throw new BatchFailedException(failed, e.thunk().name(), e.status(), n);
    }

    /**
     * Forgets every recorded entry and keeps the memory (command buffer and argument area) for the
     * next recording: a recorder that fills, runs and starts over allocates nothing after its first
     * rounds. The used part of the argument area is zeroed, so the next recording's parameter blocks
     * start zeroed as {@link #add(Thunk)} promises. Entries and parameter blocks taken before are unusable after (their reads fail or
     * see the next recording's data); results of the last run go with them. The handles the entries
     * {@linkplain #keep kept} are let go (one closed meanwhile is freed now).
     */
    public void clear() {
        ensureOpen();
        area.segment.asSlice(0, areaUsed).fill((byte) 0); // the next recording's blocks start zeroed, as add promises
        entries.clear();
        kept.unpinAll();
        areaUsed = 0;
        ranInLastRun = 0;
    }

    /**
     * The memory holding every entry's parameter block. With {@link ParamBlock#offsetOf}, a caller
     * can write the arguments of many entries through this one segment (the fastest way to feed a
     * batch fresh arguments). Valid until the next {@link #add}, which may move it.
     */
    public MemorySegment arguments() {
        ensureOpen();
        return area.segment.asSlice(0, areaUsed);
    }

    /**
     * Native bytes this batch holds now (command buffer and argument area), all of them reserved
     * against the native memory budget.
     */
    public long nativeBytes() {
        ensureOpen();
        return commands.nativeBytes() + arguments.nativeBytes();
    }

    /**
     * Frees the command buffer and every parameter block; the batch and its entries are unusable
     * after, and segments taken from them fail. Idempotent.
     *
     * @throws WrongThreadException from a thread other than the creator's (unless created shared); nothing is freed then
     */
    @Override
    public void close() {
        if (closed) return;
        commands.close();   // throws from another thread before freeing anything
        arguments.close();
        closed = true;
        // what the batch kept alive may go now (a handle closed since recording is freed here)
        kept.close();
    }

    // -------------------------------------------------------------- package-private, for BatchEntry

    MemorySegment buffer() {
        ensureOpen();
        return buffer;
    }

    int ranInLastRun() {
        return ranInLastRun;
    }

    private void ensureOpen() {
        if (closed) throw BatchErrors.closed();
    }

    /** Doubles the command buffer; the old one is freed. */
    private void grow() {
        buffer = commands.grow(Math.max(buffer.byteSize() * 2, BatchNative.ENTRY_SIZE * 16L),
                (long) entries.size() * BatchNative.ENTRY_SIZE);
    }

    /** The block's offset in the argument area, grown (and every entry's block pointer moved) when full. */
    private long allocateBlock(BlockLayout layout) {
        int size = layout.size();
        if (size == 0) return -1;
        if (layout.align() > ALIGN) throw new IllegalArgumentException("parameter block alignment above " + ALIGN
                + " is not supported in a batch: align=" + layout.align());
        long at = (areaUsed + layout.align() - 1) & -layout.align();
        if (at + size > area.segment.byteSize()) {
            // recording outgrew the area: move it; blocks keep their offsets, entries get new pointers
            area.segment = arguments.grow(Math.max(area.segment.byteSize() * 2, at + size), areaUsed);
            for (int i = 0; i < entries.size(); i++) {
                buffer.set(ValueLayout.JAVA_LONG, (long) i * BatchNative.ENTRY_SIZE + BatchNative.BLOCK, blockAddress(i));
            }
        }
        areaUsed = at + size;
        return at;
    }

    /** The parameter shape of {@code plan}, worked out once per function in this batch. */
    private ParamBlock.Shape shapeOf(Classification plan) {
        if (plan == lastPlan) return lastShape;
        ParamBlock.Shape shape = shapes.get(plan);
        if (shape == null) {
            shape = ParamBlock.Shape.of(plan);
            shapes.put(plan, shape);
        }
        lastPlan = plan;
        lastShape = shape;
        return shape;
    }

    private long blockAddress(int index) {
        long at = blockOffsets[index];
        return at < 0 ? 0 : area.segment.address() + at;
    }

    /**
     * The handles a batch keeps pinned. A batch dropped unclosed unpins them when the GC finds it
     * (a cleaner registered with the first pin, holding this object and never the batch), so a
     * handle closed meanwhile is freed rather than held forever.
     */
    private static final class Pins implements Runnable {
        private final List<NativeHandle> handles = new ArrayList<>();
        private java.lang.ref.Cleaner.Cleanable cleanable;

        void add(Batch owner, NativeHandle h) {
            if (cleanable == null) cleanable = BatchCleaner.CLEANER.register(owner, this);
            handles.add(h);
        }

        void unpinAll() {
            RuntimeException failure = null;
            for (NativeHandle h : handles) {
                try {
                    h.unpin();
                } catch (RuntimeException e) {
                    if (failure == null) failure = e;
                    else failure.addSuppressed(e);
                }
            }
            handles.clear();
            if (failure != null) throw failure;
        }

        void close() {
            if (cleanable != null) cleanable.clean(); // runs unpinAll once, and never again from the GC
        }

        @Override
        public void run() {
            unpinAll();
        }
    }

    /** One cleaner thread for every batch, started with the first pin. */
    private static final class BatchCleaner {
        static final java.lang.ref.Cleaner CLEANER = java.lang.ref.Cleaner.create(
                Thread.ofPlatform().daemon().name("panamax-batch-cleaner").factory());
    }
}
