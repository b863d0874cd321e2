package dev.panamax.core.call;

import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.WrongMethodTypeException;

import static java.lang.foreign.ValueLayout.*;
import static org.junit.jupiter.api.Assertions.*;

/** Mistakes in a declaration or a call are clear exceptions raised before any native code runs. */
class LinkErrorsTest {
    static final NativeLibrary LIB = Fixtures.library();

    @Test
    void wrongArityAtTheCallSiteIsRefusedBeforeTheCall() {
        MethodHandle add = LIB.downcall("pmxf_add_i32", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), Tier.CRITICAL);
        WrongMethodTypeException e = assertThrows(WrongMethodTypeException.class, () -> {
            int r = (int) add.invokeExact(1);
        });
        assertTrue(e.getMessage().contains("(int,int)int"), e.getMessage());
        assertThrows(WrongMethodTypeException.class, () -> add.invoke(1, 2, 3));
    }

    @Test
    void wrongTypesAtTheCallSiteAreRefusedBeforeTheCall() {
        MethodHandle add = LIB.downcall("pmxf_add_i32", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), Tier.STANDARD);
        assertThrows(WrongMethodTypeException.class, () -> {
            long r = (long) add.invokeExact(1L, 2L);
        });
        assertThrows(WrongMethodTypeException.class, () -> add.invoke("1", 2));
        MethodHandle sum = LIB.function("pmxf_sum_f32").returns(JAVA_DOUBLE)
                .params(Param.in(float[].class), Param.of(JAVA_INT)).link();
        assertThrows(WrongMethodTypeException.class, () -> {
            double r = (double) sum.invokeExact(new int[4], 4);
        });
        assertThrows(ClassCastException.class, () -> sum.invoke(new int[4], 4));
    }

    @Test
    void unsupportedArrayTypeIsRefusedAtDeclaration() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Param.in(boolean[].class));
        assertTrue(e.getMessage().contains("boolean[]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Param.out(Integer[].class));
        assertThrows(IllegalArgumentException.class, () -> Param.inout(String.class));
    }

    @Test
    void layoutsTheLinkerCannotPassAreRefusedAtDeclaration() {
        NativeLinkException e = assertThrows(NativeLinkException.class, () -> LIB.function("pmxf_nop")
                .param(MemoryLayout.sequenceLayout(4, JAVA_INT)).link());
        assertTrue(e.getMessage().contains("symbol=pmxf_nop"), e.getMessage());
        assertTrue(e.getMessage().contains("parameter 0"), e.getMessage());
        assertThrows(NativeLinkException.class, () -> LIB.function("pmxf_nop").returns(MemoryLayout.paddingLayout(8)).link());
    }

    @Test
    void errnoCheckThatCannotJudgeTheResultIsRefusedAtDeclaration() {
        NativeLinkException onVoid = assertThrows(NativeLinkException.class,
                () -> LIB.function("pmxf_nop").setsErrno(ErrnoCheck.RETURNS_MINUS_ONE).link());
        assertTrue(onVoid.getMessage().contains("cannot judge a result of type void"), onVoid.getMessage());
        assertThrows(NativeLinkException.class,
                () -> LIB.function("pmxf_answer").returns(JAVA_INT).setsErrno(ErrnoCheck.RETURNS_NULL).link());
        assertThrows(NativeLinkException.class,
                () -> LIB.function("pmxf_greeting").returns(ADDRESS).setsErrno(ErrnoCheck.RETURNS_NEGATIVE).link());
        assertThrows(NativeLinkException.class,
                () -> LIB.function("pmxf_div_f64").returns(JAVA_DOUBLE).params(JAVA_DOUBLE, JAVA_DOUBLE)
                        .setsErrno(ErrnoCheck.RETURNS_NONZERO).link());
    }

    @Test
    void descriptorTheLinkerRejectsIsANativeLinkExceptionNamingTheFunction() {
        MethodHandle bigEndian = LIB.downcall("pmxf_add_i32",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT.withOrder(java.nio.ByteOrder.BIG_ENDIAN), JAVA_INT), Tier.STANDARD);
        NativeLinkException e = assertThrows(NativeLinkException.class, () -> {
            int r = (int) bigEndian.invokeExact(1, 2);
        });
        assertTrue(e.getMessage().contains("symbol=pmxf_add_i32"), e.getMessage());
        assertTrue(e.getMessage().contains("tier=STANDARD"), e.getMessage());
    }

    @Test
    void emptySymbolIsRefused() {
        assertThrows(NativeLinkException.class, () -> LIB.function(" ").link());
    }
}
