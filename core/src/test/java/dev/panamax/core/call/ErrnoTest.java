package dev.panamax.core.call;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.*;
import static org.junit.jupiter.api.Assertions.*;

class ErrnoTest {
    static final NativeLibrary LIB = Fixtures.library();
    static final int EBADF = 9;
    static final int ENOENT = 2;
    static final int EINVAL = 22;

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void libcFailureCarriesErrnoAndItsText(Tier tier) {
        MethodHandle close = NativeLibrary.system().function("close").returns(JAVA_INT).param(JAVA_INT)
                .tier(tier).setsErrno(ErrnoCheck.RETURNS_MINUS_ONE).link();
        ErrnoException e = assertThrows(ErrnoException.class, () -> {
            int ignored = (int) close.invokeExact(-1);
        });
        assertEquals("close", e.function());
        assertEquals(EBADF, e.errno());
        assertEquals("EBADF", e.errnoName());
        assertEquals("Bad file descriptor", e.description());
        assertTrue(e.getMessage().contains("function=close errno=9 (EBADF) message=Bad file descriptor"), e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("dev.panamax.core.call.Fixtures#directTiers")
    void everyConventionRaisesOnlyOnFailure(Tier tier) throws Throwable {
        MethodHandle minusOne = LIB.function("pmxf_errno_minus_one").returns(JAVA_INT).param(JAVA_INT)
                .tier(tier).setsErrno(ErrnoCheck.RETURNS_MINUS_ONE).link();
        MethodHandle negative = LIB.function("pmxf_errno_negative").returns(JAVA_LONG).param(JAVA_INT)
                .tier(tier).setsErrno(ErrnoCheck.RETURNS_NEGATIVE).link();
        MethodHandle nonzero = LIB.function("pmxf_errno_nonzero").returns(JAVA_INT).param(JAVA_INT)
                .tier(tier).setsErrno(ErrnoCheck.RETURNS_NONZERO).link();
        MethodHandle nullPtr = LIB.function("pmxf_errno_null").returns(ADDRESS).param(JAVA_INT)
                .tier(tier).setsErrno(ErrnoCheck.RETURNS_NULL).link();

        assertEquals(7, (int) minusOne.invokeExact(0));
        assertEquals(0L, (long) negative.invokeExact(0));
        assertEquals(0, (int) nonzero.invokeExact(0));
        assertNotEquals(0, ((MemorySegment) nullPtr.invokeExact(0)).address());

        assertEquals(ENOENT, assertThrows(ErrnoException.class, () -> { int r = (int) minusOne.invokeExact(ENOENT); }).errno());
        assertEquals(EINVAL, assertThrows(ErrnoException.class, () -> { long r = (long) negative.invokeExact(EINVAL); }).errno());
        assertEquals(EBADF, assertThrows(ErrnoException.class, () -> { int r = (int) nonzero.invokeExact(EBADF); }).errno());
        ErrnoException e = assertThrows(ErrnoException.class, () -> { MemorySegment r = (MemorySegment) nullPtr.invokeExact(ENOENT); });
        assertEquals(ENOENT, e.errno());
        assertEquals("No such file or directory", e.description());
    }

    @Test
    void errnoLeftSetBySuccessIsIgnored() throws Throwable {
        MethodHandle ok = LIB.function("pmxf_errno_set_but_ok").returns(JAVA_INT).param(JAVA_INT)
                .setsErrno(ErrnoCheck.RETURNS_MINUS_ONE).link();
        assertEquals(0, (int) ok.invokeExact(EINVAL));
    }

    @Test
    void unknownErrnoStillHasAText() {
        String text = Errno.describe(999_999);
        assertFalse(text.isBlank());
        assertTrue(text.contains("999999"), text);
    }

    @Test
    void errnoIsPerThread() throws Throwable {
        MethodHandle minusOne = LIB.function("pmxf_errno_minus_one").returns(JAVA_INT).param(JAVA_INT)
                .setsErrno(ErrnoCheck.RETURNS_MINUS_ONE).link();
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                int r = (int) minusOne.invokeExact(EINVAL);
            } catch (Throwable expected) {
                // EINVAL on that thread
            }
        });
        other.join();
        ErrnoException e = assertThrows(ErrnoException.class, () -> { int r = (int) minusOne.invokeExact(ENOENT); });
        assertEquals(ENOENT, e.errno());
    }

    @Test
    void structResultsCannotBeJudgedByAnErrnoCheck() throws Throwable {
        StructLayout point = MemoryLayout.structLayout(JAVA_FLOAT.withName("x"), JAVA_FLOAT.withName("y"));
        NativeLinkException e = assertThrows(NativeLinkException.class, () -> LIB.function("pmxf_point_or_errno")
                .returns(point).params(JAVA_INT).param(point).setsErrno(ErrnoCheck.RETURNS_NONZERO).link());
        assertTrue(e.getMessage().contains("cannot judge a result of type MemorySegment"), e.getMessage());
        MethodHandle h = LIB.function("pmxf_point_or_errno").returns(point).params(JAVA_INT).param(point).link();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(point);
            p.set(JAVA_FLOAT, 0, 1f);
            MemorySegment r = (MemorySegment) h.invokeExact((SegmentAllocator) arena, 0, p);
            assertEquals(1f, r.get(JAVA_FLOAT, 0));
        }
    }
}
