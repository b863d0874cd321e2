package dev.panamax.core.upcall;

import dev.panamax.core.call.Fixtures;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static java.lang.foreign.ValueLayout.*;
import static java.lang.invoke.MethodType.methodType;
import static org.junit.jupiter.api.Assertions.*;

class UpcallsTest {
    static final NativeLibrary LIB = Fixtures.library();
    static final FunctionDescriptor INT_FN = FunctionDescriptor.of(JAVA_INT, JAVA_INT);
    static final MethodHandle APPLY_N = LIB.downcall("pmxf_apply_n", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT), Tier.STANDARD);
    static final MethodHandle COMPLETE = LIB.downcall("pmxf_complete",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG), Tier.STANDARD);

    static int square(int x) {
        return x * x;
    }

    static int squareButThrowOnThree(int x) {
        if (x == 3) throw new IllegalStateException("three is not allowed");
        return x * x;
    }

    static MethodHandle find(String name, Class<?> ret, Class<?>... params) throws ReflectiveOperationException {
        return MethodHandles.lookup().findStatic(UpcallsTest.class, name, methodType(ret, params));
    }

    @AfterEach
    void restoreDefaultHandler() {
        Upcalls.setDefaultExceptionHandler(null);
    }

    @Test
    void stubCallsItsTarget() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            UpcallStub stub = Upcalls.stub("square", find("square", int.class, int.class), INT_FN, -1, arena);
            assertEquals(0 + 1 + 4 + 9 + 16, (long) APPLY_N.invokeExact(stub.address(), 5));
            assertEquals(0, stub.exceptionCount());
            assertEquals("square", stub.name());
        }
    }

    @Test
    void exceptionIsCaughtCountedHandledAndTheFallbackReturned() throws Throwable {
        List<String> seen = new CopyOnWriteArrayList<>();
        long totalBefore = Upcalls.exceptionCount();
        try (Arena arena = Arena.ofConfined()) {
            UpcallStub stub = Upcalls.builder("squareNoThree", find("squareButThrowOnThree", int.class, int.class), INT_FN)
                    .fallback(-1000)
                    .onException((name, error) -> seen.add(name + ":" + error.getMessage()))
                    .build(arena);
            // 0 + 1 + 4 + (fallback -1000) + 16
            assertEquals(0 + 1 + 4 - 1000 + 16, (long) APPLY_N.invokeExact(stub.address(), 5));
            assertEquals(1, stub.exceptionCount());
            assertEquals(List.of("squareNoThree:three is not allowed"), seen);
        }
        assertEquals(totalBefore + 1, Upcalls.exceptionCount());
    }

    @Test
    void defaultHandlerIsUsedWhenTheStubHasNone() throws Throwable {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        Upcalls.setDefaultExceptionHandler((name, error) -> seen.add(error));
        try (Arena arena = Arena.ofConfined()) {
            UpcallStub stub = Upcalls.stub("noThree", find("squareButThrowOnThree", int.class, int.class), INT_FN, 0, arena);
            assertEquals(0 + 1 + 4 + 0, (long) APPLY_N.invokeExact(stub.address(), 4));
        }
        assertEquals(1, seen.size());
        assertInstanceOf(IllegalStateException.class, seen.getFirst());
    }

    @Test
    void aThrowingHandlerDoesNotEscapeEither() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            UpcallStub stub = Upcalls.builder("noThree", find("squareButThrowOnThree", int.class, int.class), INT_FN)
                    .fallback(5)
                    .onException((name, error) -> { throw new RuntimeException("handler broken too"); })
                    .build(arena);
            assertEquals(0 + 1 + 4 + 5, (long) APPLY_N.invokeExact(stub.address(), 4));
            assertEquals(1, stub.exceptionCount());
        }
    }

    @Test
    void errorsAreCaughtToo() throws Throwable {
        MethodHandle overflow = MethodHandles.dropArguments(
                MethodHandles.throwException(int.class, StackOverflowError.class).bindTo(new StackOverflowError("deep")), 0, int.class);
        try (Arena arena = Arena.ofConfined()) {
            UpcallStub stub = Upcalls.builder("overflow", overflow, INT_FN).fallback(1).onException((n, e) -> {}).build(arena);
            assertEquals(3, (long) APPLY_N.invokeExact(stub.address(), 3));
            assertEquals(3, stub.exceptionCount());
        }
    }

    @Test
    void voidUpcallNeedsNoFallback() throws Throwable {
        long[] got = new long[1];
        MethodHandle target = MethodHandles.lookup().findStatic(UpcallsTest.class, "record",
                methodType(void.class, long[].class, MemorySegment.class, long.class)).bindTo(got);
        try (Arena arena = Arena.ofConfined()) {
            UpcallStub stub = Upcalls.voidStub("record", target, FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG), arena);
            COMPLETE.invokeExact(stub.address(), MemorySegment.NULL, 77L);
        }
        assertEquals(77L, got[0]);
    }

    static void record(long[] into, MemorySegment userData, long value) {
        into[0] = value;
    }

    @Test
    void nonVoidUpcallWithoutFallbackIsRefused() throws Exception {
        MethodHandle square = find("square", int.class, int.class);
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Upcalls.builder("square", square, INT_FN).build(arena));
            assertTrue(e.getMessage().contains("declares no fallback"), e.getMessage());
            IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
                    () -> Upcalls.stub("square", square, INT_FN, "zero", arena));
            assertTrue(wrongType.getMessage().contains("fallback has the wrong type"), wrongType.getMessage());
        }
    }

    @Test
    void targetThatDoesNotFitTheDescriptorIsRefused() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Upcalls.stub("square", find("square", int.class, int.class),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), 0, arena));
            assertTrue(e.getMessage().contains("does not fit its native signature"), e.getMessage());
        }
    }
}
