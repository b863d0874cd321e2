package dev.panamax.core.binding;

import dev.panamax.core.call.ScratchStack;
import dev.panamax.core.memory.CallGuard;
import dev.panamax.core.memory.CallSlot;
import dev.panamax.core.memory.NativeHandle;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * Java arguments of a typed call turned into what C takes, and what C wrote turned back: handles as
 * their addresses, strings and arrays copied into a call's scratch frame, out-arrays copied back. A
 * null argument is NULL in C and touches no memory.
 *
 * <pre>{@code
 * try (ScratchStack.Frame frame = ScratchStack.push()) {
 *     MemorySegment in = Staging.stageIn(frame, floats);       // a copy of the array
 *     MemorySegment out = Staging.stageOut(frame, results);    // zeroed room for the results
 *     call(in, out);
 *     Staging.copyBack(out, results, -1);                      // every element back
 * }
 * }</pre>
 */
@SuppressWarnings("restricted")
public final class Staging {
    private Staging() {}

    /** The handle's address as a segment, NULL for null; fails if the handle was released. */
    public static MemorySegment address(NativeHandle h) {
        return h == null ? MemorySegment.NULL : h.pointer();
    }

    /** The handle's address, 0 for null; fails if the handle was released. */
    public static long addressOf(NativeHandle h) {
        return h == null ? 0L : h.address();
    }

    /** The NUL-terminated UTF-8 string at {@code p}, null for NULL. */
    public static String string(MemorySegment p) {
        return p.address() == 0 ? null : p.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /**
     * A NUL-terminated UTF-8 copy of {@code value}, NULL for null. A C string ends at its first NUL, so
     * a string holding one is refused ({@link IllegalArgumentException} naming {@code parameter} of
     * {@code function}) rather than passed cut short.
     */
    public static MemorySegment cString(SegmentAllocator frame, String value, String function, String parameter) {
        if (value == null) return MemorySegment.NULL;
        int at = value.indexOf('\0');
        if (at >= 0) throw nul(value, at, function, parameter);
        return frame.allocateFrom(value);
    }

    private static IllegalArgumentException nul(String value, int at, String function, String parameter) {
        String shown = value.length() > 60 ? value.substring(0, 60) + "..." : value;
        return new IllegalArgumentException(parameter + " of " + function + " holds a NUL character at index " + at + " (\""
                + shown.replace("\0", "\\0") + "\"); a C string ends at its first NUL, so expected a string without NUL characters");
    }

    /**
     * A {@code char **} of copies of {@code strings} (null elements as NULL), NULL for null; an element
     * holding a NUL is refused as {@link #cString} does, naming {@code parameter[i]}.
     */
    public static MemorySegment strings(SegmentAllocator frame, String[] strings, String function, String parameter) {
        if (strings == null) return MemorySegment.NULL;
        MemorySegment array = frame.allocate(ValueLayout.ADDRESS, Math.max(1, strings.length));
        for (int i = 0; i < strings.length; i++) {
            String s = strings[i];
            int at = s == null ? -1 : s.indexOf('\0');
            if (at >= 0) throw nul(s, at, function, parameter + "[" + i + "]");
            array.setAtIndex(ValueLayout.ADDRESS, i, s == null ? MemorySegment.NULL : frame.allocateFrom(s));
        }
        return array;
    }

    /** The addresses of {@code handles} (null elements as NULL), NULL for null. */
    public static MemorySegment handles(SegmentAllocator frame, NativeHandle[] handles) {
        return handles(frame, null, handles);
    }

    /**
     * The addresses of {@code handles} (null elements as NULL), NULL for null; published in {@code slot}
     * first ({@link CallGuard#hold}), so that a release during the call waits for it.
     */
    public static MemorySegment handles(SegmentAllocator frame, CallSlot slot, NativeHandle[] handles) {
        if (handles == null) return MemorySegment.NULL;
        CallGuard.hold(slot, handles);
        MemorySegment array = frame.allocate(ValueLayout.ADDRESS, Math.max(1, handles.length));
        for (int i = 0; i < handles.length; i++) array.setAtIndex(ValueLayout.ADDRESS, i, address(handles[i]));
        return array;
    }

    /** Zeroed room for as many addresses as {@code handles} has elements, NULL for null. */
    public static MemorySegment slots(ScratchStack.Frame frame, Object[] handles) {
        if (handles == null) return MemorySegment.NULL;
        return frame.allocateZeroed(ValueLayout.ADDRESS, Math.max(1, handles.length));
    }

    /**
     * The handles C wrote into {@code staged}, wrapped by {@code wrap} (a handle class's {@code owned} or
     * {@code borrowed}), into the first {@code count} elements of {@code array} (all when negative); nothing
     * for a null array.
     */
    public static <H> void handlesBack(MemorySegment staged, H[] array, int count, java.util.function.Function<MemorySegment, H> wrap) {
        if (array == null) return;
        int n = count < 0 ? array.length : Math.min(count, array.length);
        for (int i = 0; i < n; i++) array[i] = wrap.apply(staged.getAtIndex(ValueLayout.ADDRESS, i));
    }

    /** A copy of {@code array}, NULL for null. */
    public static MemorySegment stageIn(SegmentAllocator frame, byte[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateFrom(ValueLayout.JAVA_BYTE, array);
    }

    /**
     * A copy of the zero-terminated list {@code array} followed by two 0 elements, NULL for null: the list
     * is terminated whether or not it ends with its own 0, and a key-value list whose last key lacks its
     * value still ends within the copy.
     */
    public static MemorySegment stageTerminated(SegmentAllocator frame, byte[] array) {
        if (array == null) return MemorySegment.NULL;
        MemorySegment copy = frame.allocate(ValueLayout.JAVA_BYTE, array.length + 2L);
        MemorySegment.copy(array, 0, copy, ValueLayout.JAVA_BYTE, 0, array.length);
        copy.asSlice(array.length * ValueLayout.JAVA_BYTE.byteSize()).fill((byte) 0);
        return copy;
    }

    /** Zeroed room for {@code array}'s elements, NULL for null. */
    public static MemorySegment stageOut(ScratchStack.Frame frame, byte[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateZeroed(ValueLayout.JAVA_BYTE, Math.max(1, array.length));
    }

    /** Copies the first {@code count} elements (all when negative) of {@code staged} back into {@code array}; nothing for null. */
    public static void copyBack(MemorySegment staged, byte[] array, int count) {
        if (array != null) MemorySegment.copy(staged, ValueLayout.JAVA_BYTE, 0, array, 0, count < 0 ? array.length : Math.min(count, array.length));
    }

    /** A copy of {@code array}, NULL for null. */
    public static MemorySegment stageIn(SegmentAllocator frame, short[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateFrom(ValueLayout.JAVA_SHORT, array);
    }

    /**
     * A copy of the zero-terminated list {@code array} followed by two 0 elements, NULL for null: the list
     * is terminated whether or not it ends with its own 0, and a key-value list whose last key lacks its
     * value still ends within the copy.
     */
    public static MemorySegment stageTerminated(SegmentAllocator frame, short[] array) {
        if (array == null) return MemorySegment.NULL;
        MemorySegment copy = frame.allocate(ValueLayout.JAVA_SHORT, array.length + 2L);
        MemorySegment.copy(array, 0, copy, ValueLayout.JAVA_SHORT, 0, array.length);
        copy.asSlice(array.length * ValueLayout.JAVA_SHORT.byteSize()).fill((byte) 0);
        return copy;
    }

    /** Zeroed room for {@code array}'s elements, NULL for null. */
    public static MemorySegment stageOut(ScratchStack.Frame frame, short[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateZeroed(ValueLayout.JAVA_SHORT, Math.max(1, array.length));
    }

    /** Copies the first {@code count} elements (all when negative) of {@code staged} back into {@code array}; nothing for null. */
    public static void copyBack(MemorySegment staged, short[] array, int count) {
        if (array != null) MemorySegment.copy(staged, ValueLayout.JAVA_SHORT, 0, array, 0, count < 0 ? array.length : Math.min(count, array.length));
    }

    /** A copy of {@code array}, NULL for null. */
    public static MemorySegment stageIn(SegmentAllocator frame, int[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateFrom(ValueLayout.JAVA_INT, array);
    }

    /**
     * A copy of the zero-terminated list {@code array} followed by two 0 elements, NULL for null: the list
     * is terminated whether or not it ends with its own 0, and a key-value list whose last key lacks its
     * value still ends within the copy.
     */
    public static MemorySegment stageTerminated(SegmentAllocator frame, int[] array) {
        if (array == null) return MemorySegment.NULL;
        MemorySegment copy = frame.allocate(ValueLayout.JAVA_INT, array.length + 2L);
        MemorySegment.copy(array, 0, copy, ValueLayout.JAVA_INT, 0, array.length);
        copy.asSlice(array.length * ValueLayout.JAVA_INT.byteSize()).fill((byte) 0);
        return copy;
    }

    /** Zeroed room for {@code array}'s elements, NULL for null. */
    public static MemorySegment stageOut(ScratchStack.Frame frame, int[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateZeroed(ValueLayout.JAVA_INT, Math.max(1, array.length));
    }

    /** Copies the first {@code count} elements (all when negative) of {@code staged} back into {@code array}; nothing for null. */
    public static void copyBack(MemorySegment staged, int[] array, int count) {
        if (array != null) MemorySegment.copy(staged, ValueLayout.JAVA_INT, 0, array, 0, count < 0 ? array.length : Math.min(count, array.length));
    }

    /** A copy of {@code array}, NULL for null. */
    public static MemorySegment stageIn(SegmentAllocator frame, long[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateFrom(ValueLayout.JAVA_LONG, array);
    }

    /**
     * A copy of the zero-terminated list {@code array} followed by two 0 elements, NULL for null: the list
     * is terminated whether or not it ends with its own 0, and a key-value list whose last key lacks its
     * value still ends within the copy.
     */
    public static MemorySegment stageTerminated(SegmentAllocator frame, long[] array) {
        if (array == null) return MemorySegment.NULL;
        MemorySegment copy = frame.allocate(ValueLayout.JAVA_LONG, array.length + 2L);
        MemorySegment.copy(array, 0, copy, ValueLayout.JAVA_LONG, 0, array.length);
        copy.asSlice(array.length * ValueLayout.JAVA_LONG.byteSize()).fill((byte) 0);
        return copy;
    }

    /** Zeroed room for {@code array}'s elements, NULL for null. */
    public static MemorySegment stageOut(ScratchStack.Frame frame, long[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateZeroed(ValueLayout.JAVA_LONG, Math.max(1, array.length));
    }

    /** Copies the first {@code count} elements (all when negative) of {@code staged} back into {@code array}; nothing for null. */
    public static void copyBack(MemorySegment staged, long[] array, int count) {
        if (array != null) MemorySegment.copy(staged, ValueLayout.JAVA_LONG, 0, array, 0, count < 0 ? array.length : Math.min(count, array.length));
    }

    /** A copy of {@code array}, NULL for null. */
    public static MemorySegment stageIn(SegmentAllocator frame, float[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateFrom(ValueLayout.JAVA_FLOAT, array);
    }

    /** Zeroed room for {@code array}'s elements, NULL for null. */
    public static MemorySegment stageOut(ScratchStack.Frame frame, float[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateZeroed(ValueLayout.JAVA_FLOAT, Math.max(1, array.length));
    }

    /** Copies the first {@code count} elements (all when negative) of {@code staged} back into {@code array}; nothing for null. */
    public static void copyBack(MemorySegment staged, float[] array, int count) {
        if (array != null) MemorySegment.copy(staged, ValueLayout.JAVA_FLOAT, 0, array, 0, count < 0 ? array.length : Math.min(count, array.length));
    }

    /** A copy of {@code array}, NULL for null. */
    public static MemorySegment stageIn(SegmentAllocator frame, double[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateFrom(ValueLayout.JAVA_DOUBLE, array);
    }

    /** Zeroed room for {@code array}'s elements, NULL for null. */
    public static MemorySegment stageOut(ScratchStack.Frame frame, double[] array) {
        return array == null ? MemorySegment.NULL : frame.allocateZeroed(ValueLayout.JAVA_DOUBLE, Math.max(1, array.length));
    }

    /** Copies the first {@code count} elements (all when negative) of {@code staged} back into {@code array}; nothing for null. */
    public static void copyBack(MemorySegment staged, double[] array, int count) {
        if (array != null) MemorySegment.copy(staged, ValueLayout.JAVA_DOUBLE, 0, array, 0, count < 0 ? array.length : Math.min(count, array.length));
    }
}
