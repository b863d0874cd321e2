package dev.panamax.core.call;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
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

    private static final long SIZE = dev.panamax.core.CoreSettings.SCRATCH_STACK_SIZE.get();
    private static final ThreadLocal<ScratchStack> STACKS = ThreadLocal.withInitial(ScratchStack::new);
    // the whole address space, for writes into memory this class has just handed out: its bounds and
    // scope are constants, so a write through it costs what the store costs
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    // Arrays of up to this many elements are copied in with one store per element through a constant
    // layout: for them MemorySegment.copy's checks cost more than the copy (~9 ns for one long), and a
    // store through the caller's layout, when this method is not inlined into the caller, costs the
    // layout's var handle lookup (~25 ns). Longer arrays and foreign byte orders take MemorySegment.copy.
    private static final int STORE_LIMIT = 16;
    private static final ByteOrder NATIVE_ORDER = ByteOrder.nativeOrder();

    private final Thread owner = Thread.currentThread();
    private final MemorySegment block;
    // block.address() and block.byteSize(), read on every allocation
    private final long base;
    private final long limit;
    private long top;
    // the frame push() hands out next: the child of the innermost open frame (the root when none is open)
    private Frame next = new Frame(this, 0);

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
        return STACKS.get().next.index;
    }

    private Frame pushFrame() {
        Frame f = next;
        Frame child = f.child;
        if (child == null) child = f.newChild();
        next = child;
        f.open(top);
        return f;
    }

    // copies of Java arrays into memory this class has just handed out, in native byte order: arrays of up to
    // STORE_LIMIT elements with one store per element, longer ones with one MemorySegment.copy
    private static void copyIn(byte[] elements, long at) {
        if (elements.length <= STORE_LIMIT) {
            for (int i = 0; i < elements.length; i++) EVERYTHING.set(ValueLayout.JAVA_BYTE, at + (long) i * Byte.BYTES, elements[i]);
        } else {
            MemorySegment.copy(elements, 0, EVERYTHING, ValueLayout.JAVA_BYTE, at, elements.length);
        }
    }

    private static void copyIn(short[] elements, long at) {
        if (elements.length <= STORE_LIMIT) {
            for (int i = 0; i < elements.length; i++) EVERYTHING.set(ValueLayout.JAVA_SHORT_UNALIGNED, at + (long) i * Short.BYTES, elements[i]);
        } else {
            MemorySegment.copy(elements, 0, EVERYTHING, ValueLayout.JAVA_SHORT_UNALIGNED, at, elements.length);
        }
    }

    private static void copyIn(char[] elements, long at) {
        if (elements.length <= STORE_LIMIT) {
            for (int i = 0; i < elements.length; i++) EVERYTHING.set(ValueLayout.JAVA_CHAR_UNALIGNED, at + (long) i * Character.BYTES, elements[i]);
        } else {
            MemorySegment.copy(elements, 0, EVERYTHING, ValueLayout.JAVA_CHAR_UNALIGNED, at, elements.length);
        }
    }

    private static void copyIn(int[] elements, long at) {
        if (elements.length <= STORE_LIMIT) {
            for (int i = 0; i < elements.length; i++) EVERYTHING.set(ValueLayout.JAVA_INT_UNALIGNED, at + (long) i * Integer.BYTES, elements[i]);
        } else {
            MemorySegment.copy(elements, 0, EVERYTHING, ValueLayout.JAVA_INT_UNALIGNED, at, elements.length);
        }
    }

    private static void copyIn(float[] elements, long at) {
        if (elements.length <= STORE_LIMIT) {
            for (int i = 0; i < elements.length; i++) EVERYTHING.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at + (long) i * Float.BYTES, elements[i]);
        } else {
            MemorySegment.copy(elements, 0, EVERYTHING, ValueLayout.JAVA_FLOAT_UNALIGNED, at, elements.length);
        }
    }

    private static void copyIn(long[] elements, long at) {
        if (elements.length <= STORE_LIMIT) {
            for (int i = 0; i < elements.length; i++) EVERYTHING.set(ValueLayout.JAVA_LONG_UNALIGNED, at + (long) i * Long.BYTES, elements[i]);
        } else {
            MemorySegment.copy(elements, 0, EVERYTHING, ValueLayout.JAVA_LONG_UNALIGNED, at, elements.length);
        }
    }

    private static void copyIn(double[] elements, long at) {
        if (elements.length <= STORE_LIMIT) {
            for (int i = 0; i < elements.length; i++) EVERYTHING.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at + (long) i * Double.BYTES, elements[i]);
        } else {
            MemorySegment.copy(elements, 0, EVERYTHING, ValueLayout.JAVA_DOUBLE_UNALIGNED, at, elements.length);
        }
    }

    /**
     * A scope of scratch allocations. Reused by the next frame opened at the same depth after it
     * closes, so a frame must not be used after {@link #close()}.
     */
    public static final class Frame implements SegmentAllocator, AutoCloseable {
        private final ScratchStack stack;
        // frames open outside this one
        private final int index;
        // the frame opened inside this one, made on first need and reused
        private Frame child;
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

        private Frame newChild() {
            return child = new Frame(stack, index + 1);
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
            if (byteSize < 0 || byteAlignment <= 0 || (byteAlignment & (byteAlignment - 1)) != 0) {
                throw badRequest(byteSize, byteAlignment);
            }
            ScratchStack s = stack;
            long base = s.base;
            long start = ((base + s.top + byteAlignment - 1) & -byteAlignment) - base;
            if (s.limit - start >= byteSize) {
                s.top = start + byteSize;
                return slice(s.block, start, byteSize);
            }
            return allocateOutside(byteSize, byteAlignment);
        }

        /**
         * Scratch memory of {@code byteSize} bytes aligned to {@code byteAlignment}, as an address: for a
         * downcall that takes the pointer as a 64-bit value. Makes no segment; the memory is valid until
         * this frame closes.
         */
        public long allocateAddress(long byteSize, long byteAlignment) {
            if (!usable()) checkUsable("allocate");
            if (byteSize < 0 || byteAlignment <= 0 || (byteAlignment & (byteAlignment - 1)) != 0) {
                throw badRequest(byteSize, byteAlignment);
            }
            ScratchStack s = stack;
            long base = s.base;
            long start = ((base + s.top + byteAlignment - 1) & -byteAlignment) - base;
            if (s.limit - start >= byteSize) {
                s.top = start + byteSize;
                return base + start;
            }
            return allocateOutside(byteSize, byteAlignment).address();
        }

        /** The address of a copy of {@code elements} in native byte order, 0 for null; see {@link #allocateAddress}. */
        public long addressOfCopy(byte[] elements) {
            if (elements == null) return 0;
            long at = allocateAddress((long) elements.length * Byte.BYTES, Byte.BYTES);
            copyIn(elements, at);
            return at;
        }

        /** The address of a copy of {@code elements} in native byte order, 0 for null; see {@link #allocateAddress}. */
        public long addressOfCopy(short[] elements) {
            if (elements == null) return 0;
            long at = allocateAddress((long) elements.length * Short.BYTES, Short.BYTES);
            copyIn(elements, at);
            return at;
        }

        /** The address of a copy of {@code elements} in native byte order, 0 for null; see {@link #allocateAddress}. */
        public long addressOfCopy(char[] elements) {
            if (elements == null) return 0;
            long at = allocateAddress((long) elements.length * Character.BYTES, Character.BYTES);
            copyIn(elements, at);
            return at;
        }

        /** The address of a copy of {@code elements} in native byte order, 0 for null; see {@link #allocateAddress}. */
        public long addressOfCopy(int[] elements) {
            if (elements == null) return 0;
            long at = allocateAddress((long) elements.length * Integer.BYTES, Integer.BYTES);
            copyIn(elements, at);
            return at;
        }

        /** The address of a copy of {@code elements} in native byte order, 0 for null; see {@link #allocateAddress}. */
        public long addressOfCopy(float[] elements) {
            if (elements == null) return 0;
            long at = allocateAddress((long) elements.length * Float.BYTES, Float.BYTES);
            copyIn(elements, at);
            return at;
        }

        /** The address of a copy of {@code elements} in native byte order, 0 for null; see {@link #allocateAddress}. */
        public long addressOfCopy(long[] elements) {
            if (elements == null) return 0;
            long at = allocateAddress((long) elements.length * Long.BYTES, Long.BYTES);
            copyIn(elements, at);
            return at;
        }

        /** The address of a copy of {@code elements} in native byte order, 0 for null; see {@link #allocateAddress}. */
        public long addressOfCopy(double[] elements) {
            if (elements == null) return 0;
            long at = allocateAddress((long) elements.length * Double.BYTES, Double.BYTES);
            copyIn(elements, at);
            return at;
        }

        // the rare paths live in methods of their own, so that the hot ones stay small enough to inline
        private MemorySegment allocateOutside(long byteSize, long byteAlignment) {
            if (overflow == null) overflow = Arena.ofConfined();
            return overflow.allocate(byteSize, byteAlignment);
        }

        private static IllegalArgumentException badRequest(long byteSize, long byteAlignment) {
            return byteSize < 0 ? new IllegalArgumentException("negative size: byteSize=" + byteSize)
                    : new IllegalArgumentException("alignment is not a power of two: byteAlignment=" + byteAlignment);
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
            MemorySegment copy = allocate(layout, elements.length);
            copyIn(elements, copy.address());
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfByte layout, byte value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            EVERYTHING.set(ValueLayout.JAVA_BYTE, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfShort layout, short... elements) {
            MemorySegment copy = allocate(layout, elements.length);
            if (layout.order() == NATIVE_ORDER) copyIn(elements, copy.address());
            else MemorySegment.copy(elements, 0, EVERYTHING, layout, copy.address(), elements.length);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfShort layout, short value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            if (layout.order() == NATIVE_ORDER) EVERYTHING.set(ValueLayout.JAVA_SHORT_UNALIGNED, room.address(), value);
            else EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfChar layout, char... elements) {
            MemorySegment copy = allocate(layout, elements.length);
            if (layout.order() == NATIVE_ORDER) copyIn(elements, copy.address());
            else MemorySegment.copy(elements, 0, EVERYTHING, layout, copy.address(), elements.length);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfChar layout, char value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            if (layout.order() == NATIVE_ORDER) EVERYTHING.set(ValueLayout.JAVA_CHAR_UNALIGNED, room.address(), value);
            else EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfInt layout, int... elements) {
            MemorySegment copy = allocate(layout, elements.length);
            if (layout.order() == NATIVE_ORDER) copyIn(elements, copy.address());
            else MemorySegment.copy(elements, 0, EVERYTHING, layout, copy.address(), elements.length);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfInt layout, int value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            if (layout.order() == NATIVE_ORDER) EVERYTHING.set(ValueLayout.JAVA_INT_UNALIGNED, room.address(), value);
            else EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfFloat layout, float... elements) {
            MemorySegment copy = allocate(layout, elements.length);
            if (layout.order() == NATIVE_ORDER) copyIn(elements, copy.address());
            else MemorySegment.copy(elements, 0, EVERYTHING, layout, copy.address(), elements.length);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfFloat layout, float value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            if (layout.order() == NATIVE_ORDER) EVERYTHING.set(ValueLayout.JAVA_FLOAT_UNALIGNED, room.address(), value);
            else EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfLong layout, long... elements) {
            MemorySegment copy = allocate(layout, elements.length);
            if (layout.order() == NATIVE_ORDER) copyIn(elements, copy.address());
            else MemorySegment.copy(elements, 0, EVERYTHING, layout, copy.address(), elements.length);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfLong layout, long value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            if (layout.order() == NATIVE_ORDER) EVERYTHING.set(ValueLayout.JAVA_LONG_UNALIGNED, room.address(), value);
            else EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** A copy of {@code elements} (no heap view of the array is made, unlike the inherited method). */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfDouble layout, double... elements) {
            MemorySegment copy = allocate(layout, elements.length);
            if (layout.order() == NATIVE_ORDER) copyIn(elements, copy.address());
            else MemorySegment.copy(elements, 0, EVERYTHING, layout, copy.address(), elements.length);
            return copy;
        }

        /** Room for one value, holding {@code value}. */
        @Override
        public MemorySegment allocateFrom(ValueLayout.OfDouble layout, double value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            if (layout.order() == NATIVE_ORDER) EVERYTHING.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, room.address(), value);
            else EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /** Room for one address, holding {@code value} (a native segment's address). */
        @Override
        public MemorySegment allocateFrom(AddressLayout layout, MemorySegment value) {
            MemorySegment room = allocate(layout.byteSize(), layout.byteAlignment());
            if (layout.order() == NATIVE_ORDER) EVERYTHING.set(ValueLayout.ADDRESS_UNALIGNED, room.address(), value);
            else EVERYTHING.set(layout, room.address(), value);
            return room;
        }

        /**
         * Room for {@code count} elements of {@code elementLayout}, every byte zero: what a call that
         * writes its results through a pointer is given.
         */
        public MemorySegment allocateZeroed(MemoryLayout elementLayout, long count) {
            MemorySegment room = allocate(elementLayout, count);
            long size = room.byteSize();
            // the sizes of nearly every out-parameter (a size_t, a pointer, an int) as one plain store
            if (size == Long.BYTES) EVERYTHING.set(ValueLayout.JAVA_LONG_UNALIGNED, room.address(), 0L);
            else if (size == Integer.BYTES) EVERYTHING.set(ValueLayout.JAVA_INT_UNALIGNED, room.address(), 0);
            else room.fill((byte) 0);
            return room;
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
            s.next = this;
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
         * and innermost exactly while the next frame to hand out is its child: closing it makes it the
         * next itself, opening a frame inside it makes the next one deeper.
         */
        private boolean usable() {
            ScratchStack s = stack;
            return Thread.currentThread() == s.owner && s.next == child;
        }

        /** Throws the error that says why this frame may not be used here. */
        private void checkUsable(String operation) {
            if (Thread.currentThread() != stack.owner) {
                throw new IllegalStateException("scratch frame used from another thread: operation=" + operation
                        + " owner=" + stack.owner + " caller=" + Thread.currentThread());
            }
            int openFrames = stack.next.index;
            if (openFrames <= index) {
                throw new IllegalStateException("scratch frame is closed: operation=" + operation + " depth=" + index);
            }
            if (openFrames != index + 1) {
                throw new IllegalStateException("scratch frames must be used innermost first: operation=" + operation
                        + " frameDepth=" + (index + 1) + " openFrames=" + openFrames);
            }
        }
    }
}
