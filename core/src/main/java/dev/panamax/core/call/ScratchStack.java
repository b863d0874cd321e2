package dev.panamax.core.call;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Thread-local scratch memory for per-call temporaries, in try-with-resources frames.
 *
 * <p>Each platform thread owns one block of native memory ({@value #DEFAULT_SIZE} bytes unless
 * {@code -Dpanamax.scratchStack.size} says otherwise). {@link #push()} opens a frame; allocations
 * bump a pointer inside the block and closing the frame gives all of them back at once, so a call
 * that stages a Java array allocates nothing from the system. An allocation that does not fit in
 * what is left of the block comes from a confined arena owned by the frame and freed when it closes.
 * Virtual threads get no block (thousands of them would each pin one): every allocation in their
 * frames takes the arena path.
 *
 * <pre>{@code
 * try (ScratchStack.Frame frame = ScratchStack.push()) {
 *     MemorySegment point = frame.allocate(POINT_LAYOUT);
 *     ...
 * }   // everything allocated in the frame is released here
 * }</pre>
 *
 * <p>Frames are closed in the reverse order they were opened, on the thread that opened them; only
 * the innermost open frame may allocate. Memory handed out is not zeroed. The block itself is freed
 * by the garbage collector once its thread has ended.
 */
public final class ScratchStack {
    /** Bytes of scratch memory per platform thread, unless {@code -Dpanamax.scratchStack.size} is set. */
    public static final long DEFAULT_SIZE = 64 * 1024;

    private static final long SIZE = Long.getLong("panamax.scratchStack.size", DEFAULT_SIZE);
    private static final ThreadLocal<ScratchStack> STACKS = ThreadLocal.withInitial(ScratchStack::new);
    // the whole address space, for writes into memory this class has just handed out: its bounds and
    // scope are constants, so a write through it costs what the store costs
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    // up to this many elements a loop of single stores beats the set-up of a bulk copy or fill
    private static final int SMALL = 8;

    private final Thread owner = Thread.currentThread();
    private final MemorySegment block;
    // block.address() and block.byteSize(), read on every allocation
    private final long base;
    private final long limit;
    private long top;
    private Frame[] frames = new Frame[8];
    private int depth;

    private ScratchStack() {
        this.block = owner.isVirtual() || SIZE <= 0 ? MemorySegment.NULL : Arena.ofAuto().allocate(SIZE, 64);
        this.base = block.address();
        this.limit = block.byteSize();
    }

    /** Opens a frame on the calling thread's stack. */
    public static Frame push() {
        return STACKS.get().pushFrame();
    }

    /** Bytes of stack memory each platform thread gets. */
    public static long capacity() {
        return SIZE;
    }

    /** Bytes in use on the calling thread's stack (0 when no frame has allocated from it). */
    public static long used() {
        return STACKS.get().top;
    }

    /** Frames open on the calling thread. */
    public static int depth() {
        return STACKS.get().depth;
    }

    private Frame pushFrame() {
        int d = depth;
        Frame[] fs = frames;
        Frame f;
        if (d >= fs.length || (f = fs[d]) == null) f = newFrame(d);
        depth = d + 1;
        f.open(top);
        return f;
    }

    private Frame newFrame(int d) {
        if (d == frames.length) frames = Arrays.copyOf(frames, d * 2);
        return frames[d] = new Frame(this, d);
    }

    /**
     * A scope of scratch allocations. Reused by the next frame opened at the same depth after it
     * closes, so a frame must not be used after {@link #close()}.
     */
    public static final class Frame implements SegmentAllocator, AutoCloseable {
        private final ScratchStack stack;
        private final int index;
        private long mark;
        private Arena overflow;
        // arrays staged for an out/inout parameter, copied back by copyBack()
        private Object[] pendingArrays = new Object[4];
        private MemorySegment[] pendingCopies = new MemorySegment[4];
        private ArrayType[] pendingTypes = new ArrayType[4];
        private int pending;
        // the slices handed out by the last use of this frame, by order of allocation: a call made again
        // with the same sizes gets the same segment objects back and allocates nothing on the Java heap
        private final MemorySegment[] slices = new MemorySegment[8];
        private int allocations;

        private Frame(ScratchStack stack, int index) {
            this.stack = stack;
            this.index = index;
        }

        private void open(long top) {
            this.mark = top;
            this.pending = 0;
            this.allocations = 0;
        }

        /** Scratch memory of {@code byteSize} bytes aligned to {@code byteAlignment}, valid until this frame closes. */
        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            if (!usable()) checkUsable("allocate");
            ScratchStack s = stack;
            if (byteSize < 0) throw new IllegalArgumentException("negative size: byteSize=" + byteSize);
            if (byteAlignment <= 0 || (byteAlignment & (byteAlignment - 1)) != 0) {
                throw new IllegalArgumentException("alignment is not a power of two: byteAlignment=" + byteAlignment);
            }
            long base = s.base;
            long start = ((base + s.top + byteAlignment - 1) & -byteAlignment) - base;
            if (s.limit - start >= byteSize) {
                s.top = start + byteSize;
                return slice(s.block, start, byteSize);
            }
            if (overflow == null) overflow = Arena.ofConfined();
            return overflow.allocate(byteSize, byteAlignment);
        }

        /**
         * Room for {@code count} elements of {@code elementLayout}; unlike the inherited method, builds
         * no sequence layout, so a call that stages an array allocates nothing on the Java heap.
         */
        @Override
        public MemorySegment allocate(MemoryLayout elementLayout, long count) {
            if (count < 0) throw new IllegalArgumentException("negative count: count=" + count);
            return allocate(Math.multiplyExact(elementLayout.byteSize(), count), elementLayout.byteAlignment());
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfByte layout, byte... elements) {
            int n = elements.length;
            if (n > SMALL) return copyOf(layout, elements, n);
            MemorySegment copy = allocate(layout, n);
            long at = copy.address();
            for (int i = 0; i < n; i++) EVERYTHING.set(layout, at + i * layout.byteSize(), elements[i]);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfByte layout, byte value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfShort layout, short... elements) {
            int n = elements.length;
            if (n > SMALL) return copyOf(layout, elements, n);
            MemorySegment copy = allocate(layout, n);
            long at = copy.address();
            for (int i = 0; i < n; i++) EVERYTHING.set(layout, at + i * layout.byteSize(), elements[i]);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfShort layout, short value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfChar layout, char... elements) {
            int n = elements.length;
            if (n > SMALL) return copyOf(layout, elements, n);
            MemorySegment copy = allocate(layout, n);
            long at = copy.address();
            for (int i = 0; i < n; i++) EVERYTHING.set(layout, at + i * layout.byteSize(), elements[i]);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfChar layout, char value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfInt layout, int... elements) {
            int n = elements.length;
            if (n > SMALL) return copyOf(layout, elements, n);
            MemorySegment copy = allocate(layout, n);
            long at = copy.address();
            for (int i = 0; i < n; i++) EVERYTHING.set(layout, at + i * layout.byteSize(), elements[i]);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfInt layout, int value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfFloat layout, float... elements) {
            int n = elements.length;
            if (n > SMALL) return copyOf(layout, elements, n);
            MemorySegment copy = allocate(layout, n);
            long at = copy.address();
            for (int i = 0; i < n; i++) EVERYTHING.set(layout, at + i * layout.byteSize(), elements[i]);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfFloat layout, float value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfLong layout, long... elements) {
            int n = elements.length;
            if (n > SMALL) return copyOf(layout, elements, n);
            MemorySegment copy = allocate(layout, n);
            long at = copy.address();
            for (int i = 0; i < n; i++) EVERYTHING.set(layout, at + i * layout.byteSize(), elements[i]);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfLong layout, long value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfDouble layout, double... elements) {
            int n = elements.length;
            if (n > SMALL) return copyOf(layout, elements, n);
            MemorySegment copy = allocate(layout, n);
            long at = copy.address();
            for (int i = 0; i < n; i++) EVERYTHING.set(layout, at + i * layout.byteSize(), elements[i]);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfDouble layout, double value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** Room for one address, holding {@code value} (a native segment's address). */
        @Override
        public MemorySegment allocateFrom(AddressLayout layout, MemorySegment value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /**
         * Room for {@code count} elements of {@code elementLayout}, every byte zero: what a call that
         * writes its results through a pointer is given.
         */
        public MemorySegment allocateZeroed(MemoryLayout elementLayout, long count) {
            MemorySegment room = allocate(elementLayout, count);
            long size = room.byteSize();
            if (size > SMALL * Long.BYTES) return room.fill((byte) 0);
            long at = room.address();
            long i = 0;
            for (; i + Long.BYTES <= size; i += Long.BYTES) EVERYTHING.set(ValueLayout.JAVA_LONG_UNALIGNED, at + i, 0L);
            for (; i < size; i++) EVERYTHING.set(ValueLayout.JAVA_BYTE, at + i, (byte) 0);
            return room;
        }

        private MemorySegment copyOf(ValueLayout layout, Object array, int length) {
            MemorySegment copy = allocate(layout, length);
            MemorySegment.copy(array, 0, copy, layout, 0, length);
            return copy;
        }

        private MemorySegment slice(MemorySegment block, long start, long byteSize) {
            int i = allocations++;
            if (i >= slices.length) return block.asSlice(start, byteSize);
            MemorySegment cached = slices[i];
            if (cached != null && cached.address() == stack.base + start && cached.byteSize() == byteSize) return cached;
            return slices[i] = block.asSlice(start, byteSize);
        }

        /** Releases everything allocated in this frame. */
        @Override
        public void close() {
            if (!usable()) checkUsable("close");
            ScratchStack s = stack;
            s.top = mark;
            s.depth = index;
            if (pending != 0) forgetPending();
            if (overflow != null) closeOverflow();
        }

        private void forgetPending() {
            for (int i = 0; i < pending; i++) {
                pendingArrays[i] = null;
                pendingCopies[i] = null;
            }
            pending = 0;
        }

        private void closeOverflow() {
            Arena a = overflow;
            overflow = null;
            a.close();
        }

        /** Copies {@code array} (or room for it) into this frame; out/inout arrays are remembered for {@link #copyBack()}. */
        MemorySegment stage(Object array, ArrayType type, Direction direction) {
            if (array == null) return MemorySegment.NULL;
            int length = java.lang.reflect.Array.getLength(array);
            MemorySegment copy;
            if (direction.copiesIn()) {
                copy = allocate(type.elementLayout(), length);
                MemorySegment.copy(array, 0, copy, type.elementLayout(), 0, length);
            } else {
                copy = allocateZeroed(type.elementLayout(), length);
            }
            if (direction.copiesOut()) remember(array, copy, type);
            return copy;
        }

        /** Writes every staged out/inout copy back into its array. */
        void copyBack() {
            for (int i = 0; i < pending; i++) {
                MemorySegment copy = pendingCopies[i];
                ArrayType type = pendingTypes[i];
                MemorySegment.copy(copy, type.elementLayout(), 0, pendingArrays[i], 0,
                        (int) (copy.byteSize() / type.elementLayout().byteSize()));
            }
        }

        /** The cleanup of a staged call: copy back when it returned normally, then close. */
        static void closeAfterCall(Throwable failure, Frame frame) {
            try {
                if (failure == null) frame.copyBack();
            } finally {
                frame.close();
            }
        }

        private void remember(Object array, MemorySegment copy, ArrayType type) {
            if (pending == pendingArrays.length) {
                pendingArrays = Arrays.copyOf(pendingArrays, pending * 2);
                pendingCopies = Arrays.copyOf(pendingCopies, pending * 2);
                pendingTypes = Arrays.copyOf(pendingTypes, pending * 2);
            }
            pendingArrays[pending] = array;
            pendingCopies[pending] = copy;
            pendingTypes[pending] = type;
            pending++;
        }

        /**
         * Open, innermost, and on its owner's thread: the one branch of the fast paths. A frame is open
         * exactly while the stack's depth reaches it and no deeper frame is open, so the depth alone tells
         * an open innermost frame from a closed or an outer one.
         */
        private boolean usable() {
            return Thread.currentThread() == stack.owner && stack.depth == index + 1;
        }

        /** Throws the error that says why this frame may not be used here. */
        private void checkUsable(String operation) {
            if (Thread.currentThread() != stack.owner) {
                throw new IllegalStateException("scratch frame used from another thread: operation=" + operation
                        + " owner=" + stack.owner + " caller=" + Thread.currentThread());
            }
            if (stack.depth <= index) {
                throw new IllegalStateException("scratch frame is closed: operation=" + operation + " depth=" + index);
            }
            if (stack.depth != index + 1) {
                throw new IllegalStateException("scratch frames must be used innermost first: operation=" + operation
                        + " frameDepth=" + (index + 1) + " openFrames=" + stack.depth);
            }
        }
    }
}
