package dev.panamax.core.call;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Java arrays of every primitive type, in, out and inout, at every tier: in place at CRITICAL_HEAP,
 * staged through the scratch stack (and past its end, through the frame's arena) at the others.
 */
class ArrayParamsTest {
    static final NativeLibrary LIB = Fixtures.library();
    static final int SMALL = 37;
    static final int LARGE = 100_003; // 800 KB as long[]: more than the scratch stack holds

    static Stream<Arguments> tiersTypesSizes() {
        return Fixtures.directTiers().flatMap(tier -> Stream.of(ArrayType.values())
                .flatMap(type -> Stream.of(SMALL, LARGE).map(n -> Arguments.of(tier, type, n))));
    }

    private static String suffix(ArrayType t) {
        return switch (t) {
            case BYTE -> "i8";
            case SHORT -> "i16";
            case CHAR -> "u16";
            case INT -> "i32";
            case LONG -> "i64";
            case FLOAT -> "f32";
            case DOUBLE -> "f64";
        };
    }

    /** Element i as a long (chars unsigned, floats truncated: the test values are small integers). */
    private static long element(Object array, int i) {
        Object v = Array.get(array, i);
        return v instanceof Character c ? c : ((Number) v).longValue();
    }

    private static Object arrayOf(ArrayType t, int n, int first) {
        Object a = Array.newInstance(t.arrayClass().componentType(), n);
        for (int i = 0; i < n; i++) {
            long v = (first + i) % 100; // fits every type
            switch (t) {
                case BYTE -> Array.setByte(a, i, (byte) v);
                case SHORT -> Array.setShort(a, i, (short) v);
                case CHAR -> Array.setChar(a, i, (char) v);
                case INT -> Array.setInt(a, i, (int) v);
                case LONG -> Array.setLong(a, i, v);
                case FLOAT -> Array.setFloat(a, i, v);
                case DOUBLE -> Array.setDouble(a, i, v);
            }
        }
        return a;
    }

    @ParameterizedTest(name = "{0} {1}[{2}]")
    @MethodSource("tiersTypesSizes")
    void inArraysAreRead(Tier tier, ArrayType type, int n) throws Throwable {
        MethodHandle sum = LIB.function("pmxf_sum_" + suffix(type)).returns(JAVA_DOUBLE)
                .params(Param.in(type.arrayClass()), Param.of(JAVA_INT)).tier(tier).link();
        Object a = arrayOf(type, n, 3);
        Object before = copy(a);
        double expected = 0;
        for (int i = 0; i < n; i++) expected += element(a, i);
        assertEquals(expected, (double) sum.invoke(a, n));
        assertArrayEqualsAny(before, a);
        assertEquals(0, ScratchStack.depth());
        assertEquals(0, ScratchStack.used());
    }

    @ParameterizedTest(name = "{0} {1}[{2}]")
    @MethodSource("tiersTypesSizes")
    void outArraysAreWritten(Tier tier, ArrayType type, int n) throws Throwable {
        MethodHandle fill = LIB.function("pmxf_fill_" + suffix(type))
                .params(Param.out(type.arrayClass()), Param.of(JAVA_INT), Param.of(JAVA_INT)).tier(tier).link();
        Object a = arrayOf(type, n, 50);
        fill.invoke(a, n, 7);
        for (int i = 0; i < n; i += Math.max(1, n / 1000)) {
            assertEquals(castLike(type, 7 + i), element(a, i), "element " + i);
        }
        assertEquals(castLike(type, 7 + n - 1), element(a, n - 1));
        assertEquals(0, ScratchStack.depth());
    }

    @ParameterizedTest(name = "{0} {1}[{2}]")
    @MethodSource("tiersTypesSizes")
    void inoutArraysAreReadAndWritten(Tier tier, ArrayType type, int n) throws Throwable {
        MethodHandle twice = LIB.function("pmxf_twice_" + suffix(type))
                .params(Param.inout(type.arrayClass()), Param.of(JAVA_INT)).tier(tier).link();
        Object a = arrayOf(type, n, 11);
        Object original = copy(a);
        twice.invoke(a, n);
        for (int i = 0; i < n; i++) {
            long expected = castLike(type, element(original, i) * 2 + 1);
            if (element(a, i) != expected) fail("element " + i + " is " + element(a, i) + ", expected " + expected);
        }
        assertEquals(0, ScratchStack.depth());
    }

    /** The value C computes for {@code v} cast to the element type (byte wraps at 128). */
    private static long castLike(ArrayType t, long v) {
        return switch (t) {
            case BYTE -> (byte) v;
            case SHORT -> (short) v;
            case CHAR -> (char) v;
            case INT -> (int) v;
            case LONG -> v;
            case FLOAT -> (long) (float) v;
            case DOUBLE -> (long) (double) v;
        };
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void invokeExactWithArraysAndSeveralArrayParameters(Tier tier) throws Throwable {
        MethodHandle scale = LIB.function("pmxf_scale_into_i32").returns(JAVA_INT)
                .params(Param.out(int[].class), Param.in(int[].class), Param.of(JAVA_INT), Param.of(JAVA_INT))
                .tier(tier).link();
        int[] src = {1, 2, 3, 4};
        int[] dst = new int[4];
        assertEquals(4, (int) scale.invokeExact(dst, src, 4, 10));
        assertArrayEquals(new int[]{10, 20, 30, 40}, dst);
        assertArrayEquals(new int[]{1, 2, 3, 4}, src);
        // a null array is a NULL pointer
        assertEquals(-1, (int) scale.invokeExact(dst, (int[]) null, 4, 10));
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void failedCallClosesItsFrameAndCopiesNothingBack(Tier tier) throws Throwable {
        MethodHandle fill = LIB.function("pmxf_fill_then_fail_i32").returns(JAVA_INT)
                .params(Param.out(int[].class), Param.of(JAVA_INT), Param.of(JAVA_INT))
                .tier(tier).setsErrno(ErrnoCheck.RETURNS_MINUS_ONE).link();
        int[] a = {-1, -1, -1};
        ErrnoException e = assertThrows(ErrnoException.class, () -> {
            int ignored = (int) fill.invokeExact(a, 3, 22);
        });
        assertEquals(22, e.errno());
        assertEquals(0, ScratchStack.depth());
        assertEquals(0, ScratchStack.used());
        // staged: nothing copied back after a failure; in place: native code wrote the array itself
        int[] expected = tier.acceptsHeapMemory() ? new int[]{1, 2, 3} : new int[]{-1, -1, -1};
        assertArrayEquals(expected, a);
        assertEquals(3, (int) fill.invokeExact(a, 3, 0));
        assertArrayEquals(new int[]{1, 2, 3}, a);
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void stagedCallsNestInsideAnOpenFrame(Tier tier) throws Throwable {
        MethodHandle twice = LIB.function("pmxf_twice_i32").params(Param.inout(int[].class), Param.of(JAVA_INT)).tier(tier).link();
        try (ScratchStack.Frame outer = ScratchStack.push()) {
            MemorySegment mine = outer.allocate(JAVA_INT, 4);
            mine.fill((byte) 0x7f);
            long used = ScratchStack.used();
            int[] a = {1, 2};
            twice.invokeExact(a, 2);
            assertArrayEquals(new int[]{3, 5}, a);
            assertEquals(used, ScratchStack.used());
            assertEquals(1, ScratchStack.depth());
            assertEquals(0x7f7f7f7f, mine.get(JAVA_INT, 12));
        }
    }

    @Test
    void heapSegmentAtATierThatCannotTakeItIsAClearError() throws Throwable {
        int[] cell = {0};
        MemorySegment heap = MemorySegment.ofArray(cell);
        for (Tier tier : Fixtures.directTiers().toList()) {
            MethodHandle store = LIB.downcall("pmxf_store_i32", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT), tier);
            if (tier.acceptsHeapMemory()) {
                store.invokeExact(heap, 5);
            } else {
                HeapMemoryException e = assertThrows(HeapMemoryException.class, () -> {
                    store.invokeExact(heap, 6);
                }, tier.name());
                assertTrue(e.getMessage().contains("symbol=pmxf_store_i32"), e.getMessage());
                assertTrue(e.getMessage().contains("parameter=0"), e.getMessage());
                assertTrue(e.getMessage().contains("tier=" + tier), e.getMessage());
                assertTrue(e.getMessage().contains("CRITICAL_HEAP"), e.getMessage());
                assertEquals(0, cell[0], "nothing was called");
            }
        }
        assertEquals(5, cell[0]);
    }

    @Test
    void nativeSegmentsStillPassAtEveryTier() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(JAVA_INT);
            for (Tier tier : Fixtures.directTiers().toList()) {
                LIB.downcall("pmxf_store_i32", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT), tier).invokeExact(cell, tier.ordinal() + 1);
                assertEquals(tier.ordinal() + 1, cell.get(JAVA_INT, 0));
            }
        }
    }

    private static Object copy(Object array) {
        int n = Array.getLength(array);
        Object c = Array.newInstance(array.getClass().componentType(), n);
        System.arraycopy(array, 0, c, 0, n);
        return c;
    }

    private static void assertArrayEqualsAny(Object expected, Object actual) {
        assertTrue(Arrays.deepEquals(new Object[]{expected}, new Object[]{actual}), "array changed by an in-only call");
    }
}
