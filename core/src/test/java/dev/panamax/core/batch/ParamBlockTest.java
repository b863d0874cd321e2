package dev.panamax.core.batch;

import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.abi.MetaAbi;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Parameter blocks on plain memory: offsets from the plan, type checks, the argument each mode passes. */
class ParamBlockTest {
    static final CType.Struct POINT = new CType.Struct("Point", List.of(new CType.Field("x", CType.F32), new CType.Field("y", CType.F32)));

    @Test
    void structModeWritesAtThePlannedOffsets() {
        var plan = MetaAbi.classify(CFunctionType.of(CType.F64, "a", CType.I8, "b", CType.I64, "p", POINT));
        try (Arena arena = Arena.ofConfined()) {
            ParamBlock b = ParamBlock.allocate(plan, arena);
            b.setByte(0, (byte) 7).setLong(1, -2L);
            b.param(2).set(ValueLayout.JAVA_FLOAT, 4, 9f);
            MemorySegment s = b.segment();
            assertEquals(32, s.byteSize());
            assertEquals(7, s.get(ValueLayout.JAVA_BYTE, 8));
            assertEquals(-2L, s.get(ValueLayout.JAVA_LONG, 16));
            assertEquals(9f, s.get(ValueLayout.JAVA_FLOAT, 28));
            assertEquals(s.address(), b.argument().address());
            s.set(ValueLayout.JAVA_DOUBLE, 0, 1.5);
            assertEquals(1.5, b.returnDouble());
            assertEquals(-2L, b.getLong(1));
        }
    }

    @Test
    void voidPtrModePassesTheCellsValue() {
        try (Arena arena = Arena.ofConfined()) {
            ParamBlock i = ParamBlock.allocate(MetaAbi.classify(CFunctionType.of(CType.VOID, "n", CType.I32)), arena);
            i.setInt(0, -1);
            assertEquals(0xffff_ffffL, i.argument().address(), "the low 4 bytes carry the int");
            ParamBlock p = ParamBlock.allocate(MetaAbi.classify(CFunctionType.of(CType.I32, "p", POINT)), arena);
            MemorySegment point = arena.allocate(8);
            point.set(ValueLayout.JAVA_FLOAT, 0, 1f);
            point.set(ValueLayout.JAVA_FLOAT, 4, 2f);
            p.set(0, point);
            assertEquals(((long) Float.floatToRawIntBits(2f) << 32) | Float.floatToRawIntBits(1f), p.argument().address());
            ParamBlock none = ParamBlock.allocate(MetaAbi.classify(CFunctionType.of(CType.I32)), arena);
            assertEquals(MemorySegment.NULL, none.argument());
            assertEquals(0, none.parameterCount());
        }
    }

    @Test
    void wrongTypesIndexesAndMemoryAreErrors() {
        var plan = MetaAbi.classify(CFunctionType.of(CType.I32, "a", CType.I32, "b", CType.F32));
        try (Arena arena = Arena.ofConfined()) {
            ParamBlock b = ParamBlock.allocate(plan, arena);
            var e = assertThrows(IllegalArgumentException.class, () -> b.setLong(0, 1));
            assertTrue(e.getMessage().contains("index=0 name=a"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> b.setInt(1, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> b.setInt(-1, 1));
            assertThrows(IllegalStateException.class, b::returnSlot);
            assertThrows(IllegalArgumentException.class, () -> ParamBlock.wrap(plan, arena.allocate(4)));
            assertThrows(IllegalArgumentException.class, () -> ParamBlock.wrap(plan, arena.allocate(16, 8).asSlice(1, 8)));
            assertEquals(1, b.indexOf("b"));
        }
    }

    @Test
    void statusRules() {
        assertTrue(StatusRule.successIs(0).isSuccess(0));
        assertFalse(StatusRule.successIs(0).isSuccess(-1));
        assertTrue(StatusRule.successAtLeast(0).isSuccess(Long.MAX_VALUE));
        assertFalse(StatusRule.failureIs(0).isSuccess(0));
        assertTrue(StatusRule.failureIs(0).isSuccess(5));
        assertThrows(IllegalArgumentException.class, () -> StatusRule.successBetween(2, 1));
    }
}
