package dev.panamax.core.call;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.*;
import static org.junit.jupiter.api.Assertions.*;

/** Every tier on functions of every shape: no arguments, each primitive, pointers, structs in and out. */
class CallShapesTest {
    static final NativeLibrary LIB = Fixtures.library();
    static final StructLayout POINT = MemoryLayout.structLayout(JAVA_FLOAT.withName("x"), JAVA_FLOAT.withName("y"));
    static final StructLayout RECORD = MemoryLayout.structLayout(JAVA_LONG.withName("id"), JAVA_DOUBLE.withName("weight"),
            JAVA_INT.withName("flags"), MemoryLayout.paddingLayout(4));

    private static MethodHandle h(String symbol, FunctionDescriptor d, Tier tier) {
        return LIB.downcall(symbol, d, tier);
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void noArguments(Tier tier) throws Throwable {
        MethodHandle count = h("pmxf_count", FunctionDescriptor.ofVoid(), tier);
        MethodHandle get = h("pmxf_count_get", FunctionDescriptor.of(JAVA_LONG), tier);
        long before = (long) get.invokeExact();
        count.invokeExact();
        count.invokeExact();
        assertEquals(before + 2, (long) get.invokeExact());
        assertEquals(42, (int) h("pmxf_answer", FunctionDescriptor.of(JAVA_INT), tier).invokeExact());
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void primitiveArgumentsAndReturns(Tier tier) throws Throwable {
        assertEquals(7, (int) h("pmxf_add_i32", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), tier).invokeExact(3, 4));
        assertEquals(Integer.MIN_VALUE, (int) h("pmxf_add_i32", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), tier)
                .invokeExact(Integer.MAX_VALUE, 1), "wraps like C");
        assertEquals((byte) 5, (byte) h("pmxf_neg_i8", FunctionDescriptor.of(JAVA_BYTE, JAVA_BYTE), tier).invokeExact((byte) -5));
        assertEquals((short) -300, (short) h("pmxf_neg_i16", FunctionDescriptor.of(JAVA_SHORT, JAVA_SHORT), tier).invokeExact((short) 300));
        assertEquals((char) 0, (char) h("pmxf_next_u16", FunctionDescriptor.of(JAVA_CHAR, JAVA_CHAR), tier).invokeExact((char) 0xFFFF));
        assertEquals(6_000_000_000L * 3, (long) h("pmxf_mul_i64", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), tier)
                .invokeExact(6_000_000_000L, 3L));
        assertEquals(1.5f * 2f + 0.25f, (float) h("pmxf_fma_f32", FunctionDescriptor.of(JAVA_FLOAT, JAVA_FLOAT, JAVA_FLOAT, JAVA_FLOAT), tier)
                .invokeExact(1.5f, 2f, 0.25f));
        assertEquals(1.0 / 3.0, (double) h("pmxf_div_f64", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_DOUBLE, JAVA_DOUBLE), tier)
                .invokeExact(1.0, 3.0));
        assertEquals(1 + 2_000_000_000_000L + 0.5 + 0.25 - 3,
                (double) h("pmxf_mixed", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, JAVA_LONG, JAVA_FLOAT, JAVA_DOUBLE, JAVA_BYTE), tier)
                        .invokeExact(1, 2_000_000_000_000L, 0.5f, 0.25, (byte) -3));
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void pointers(Tier tier) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocate(JAVA_INT);
            h("pmxf_store_i32", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT), tier).invokeExact(cell, 1234);
            assertEquals(1234, cell.get(JAVA_INT, 0));
            cell.set(JAVA_INT, 0, -9);
            assertEquals(-9, (int) h("pmxf_load_i32", FunctionDescriptor.of(JAVA_INT, ADDRESS), tier).invokeExact(cell));
            assertEquals(5L, (long) h("pmxf_strlen", FunctionDescriptor.of(JAVA_LONG, ADDRESS), tier).invokeExact(arena.allocateFrom("hello")));
            MemorySegment greeting = (MemorySegment) h("pmxf_greeting", FunctionDescriptor.of(ADDRESS), tier).invokeExact();
            assertEquals("hello from C", greeting.reinterpret(64).getString(0));
            MemorySegment same = (MemorySegment) h("pmxf_identity_ptr", FunctionDescriptor.of(ADDRESS, ADDRESS), tier).invokeExact(cell);
            assertEquals(cell.address(), same.address());
            MemorySegment nul = (MemorySegment) h("pmxf_identity_ptr", FunctionDescriptor.of(ADDRESS, ADDRESS), tier).invokeExact(MemorySegment.NULL);
            assertEquals(0, nul.address());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void structsByValue(Tier tier) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = point(arena, 1.5f, 2f);
            MemorySegment b = point(arena, 4f, -1f);
            assertEquals(1.5f * 4f + 2f * -1f, (float) h("pmxf_point_dot", FunctionDescriptor.of(JAVA_FLOAT, POINT, POINT), tier).invokeExact(a, b));
            MemorySegment r = arena.allocate(RECORD);
            r.set(JAVA_LONG, RECORD.byteOffset(groupElement("id")), 10L);
            r.set(JAVA_DOUBLE, RECORD.byteOffset(groupElement("weight")), 2.75);
            r.set(JAVA_INT, RECORD.byteOffset(groupElement("flags")), 100);
            assertEquals(10 * 2 + 2 + 100, (long) h("pmxf_record_score", FunctionDescriptor.of(JAVA_LONG, RECORD), tier).invokeExact(r));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void structReturns(Tier tier) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment scaled = (MemorySegment) h("pmxf_point_scale", FunctionDescriptor.of(POINT, POINT, JAVA_FLOAT), tier)
                    .invokeExact((SegmentAllocator) arena, point(arena, 1.5f, -2f), 2f);
            assertEquals(POINT.byteSize(), scaled.byteSize());
            assertEquals(3f, scaled.get(JAVA_FLOAT, 0));
            assertEquals(-4f, scaled.get(JAVA_FLOAT, 4));
            MemorySegment made = (MemorySegment) h("pmxf_record_make", FunctionDescriptor.of(RECORD, JAVA_LONG, JAVA_DOUBLE, JAVA_INT), tier)
                    .invokeExact((SegmentAllocator) arena, -7L, 0.125, 99);
            assertEquals(-7L, made.get(JAVA_LONG, 0));
            assertEquals(0.125, made.get(JAVA_DOUBLE, 8));
            assertEquals(99, made.get(JAVA_INT, 16));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void structReturnIntoScratchFrame(Tier tier) throws Throwable {
        MethodHandle scale = h("pmxf_point_scale", FunctionDescriptor.of(POINT, POINT, JAVA_FLOAT), tier);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            MemorySegment p = frame.allocate(POINT);
            p.set(JAVA_FLOAT, 0, 2f);
            p.set(JAVA_FLOAT, 4, 3f);
            MemorySegment r = (MemorySegment) scale.invokeExact((SegmentAllocator) frame, p, 0.5f);
            assertEquals(1f, r.get(JAVA_FLOAT, 0));
            assertEquals(1.5f, r.get(JAVA_FLOAT, 4));
        }
        assertEquals(0, ScratchStack.used());
    }

    private static MemorySegment point(Arena arena, float x, float y) {
        MemorySegment p = arena.allocate(POINT);
        p.set(JAVA_FLOAT, 0, x);
        p.set(JAVA_FLOAT, 4, y);
        return p;
    }
}
