package dev.panamax.core.fp16;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.*;

/** Bad arguments fail in Java, before any memory is touched, with key=value details. */
class Fp16ArgumentsTest {
    private static void fails(Class<? extends Throwable> type, String detail, Executable call) {
        Throwable t = assertThrows(type, call);
        assertTrue(String.valueOf(t.getMessage()).contains(detail), () -> "message '" + t.getMessage() + "' lacks '" + detail + "'");
    }

    @Test
    void arrayBounds() {
        float[] f = new float[4];
        short[] h = new short[4];
        fails(IndexOutOfBoundsException.class, "fp16 src out of bounds: index=2 count=3 length=4", () -> Fp16.toHalf(f, 2, h, 0, 3));
        fails(IndexOutOfBoundsException.class, "fp16 dst out of bounds: index=-1 count=1 length=4", () -> Fp16.toHalf(f, 0, h, -1, 1));
        fails(IllegalArgumentException.class, "fp16 count=-1", () -> Fp16.toFloat(h, 0, f, 0, -1));
        fails(IndexOutOfBoundsException.class, "fp16 dst out of bounds: index=0 count=4 length=3", () -> Fp16.toFloat(h, 0, new float[3], 0, 4));
        fails(NullPointerException.class, "src", () -> Fp16.toHalf((float[]) null, 0, h, 0, 1));
        Fp16.toHalf(f, 4, h, 4, 0);   // an empty range at the very end is fine
    }

    @Test
    void segmentBounds() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(64);
            MemorySegment d = arena.allocate(64);
            fails(IndexOutOfBoundsException.class, "fp16 src out of bounds: offset=8 count=15 elementBytes=4 byteSize=64",
                    () -> Fp16.toHalf(s, 8, d, 0, 15));
            fails(IndexOutOfBoundsException.class, "fp16 dst out of bounds: offset=4 count=16 elementBytes=4 byteSize=64",
                    () -> Fp16.toFloat(s, 0, d, 4, 16));
            fails(IndexOutOfBoundsException.class, "offset=-2", () -> Fp16.toFloat(s, -2, d, 0, 1));
            fails(IndexOutOfBoundsException.class, "count=" + Long.MAX_VALUE, () -> Fp16.toHalf(s, 0, d, 0, Long.MAX_VALUE));
            fails(IndexOutOfBoundsException.class, "fp16 dst out of bounds: index=0 count=16 length=8",
                    () -> Fp16.toHalf(s, 0, new short[8], 0, 16));
        }
    }

    @Test
    void readOnlyDestination() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(64);
            MemorySegment d = arena.allocate(64).asReadOnly();
            fails(IllegalArgumentException.class, "fp16 dst is read-only", () -> Fp16.toHalf(s, 0, d, 0, 8));
            fails(IllegalArgumentException.class, "fp16 dst is read-only", () -> Fp16.toHalf(new float[8], 0, d, 0, 8));
        }
    }

    @Test
    void overlappingOperands() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(256);
            fails(IllegalArgumentException.class, "fp16 src and dst overlap", () -> Fp16.toFloat(s, 0, s, 16, 32));
            Fp16.toHalf(s, 0, s, 128, 32);   // [0, 128) and [128, 192) are disjoint: fine
        }
        float[] f = new float[64];
        fails(IllegalArgumentException.class, "fp16 src and dst overlap",
                () -> Fp16.toHalf(f, 0, MemorySegment.ofArray(f), 4, 8));
    }

    @Test
    void closedOrForeignSegmentsFailInJava() throws Exception {
        MemorySegment closed;
        try (Arena arena = Arena.ofConfined()) {
            closed = arena.allocate(4096);
        }
        for (Fp16Converter c : new Fp16Converter[] {Fp16Converter.auto(), Fp16Converter.of(Fp16Strategy.JAVA, 1)}) {
            assertThrows(IllegalStateException.class, () -> c.toHalf(closed, 0, new short[1024], 0, 1024), c::toString);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mine = arena.allocate(4096);
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> Fp16.toFloat(mine, 0, new float[1024], 0, 1024));
            ExecutionException e = assertThrows(ExecutionException.class, other::get);
            assertInstanceOf(WrongThreadException.class, e.getCause());
        }
    }

    @Test
    void converterSettings() {
        fails(IllegalArgumentException.class, "strategy=JAVA threads=2", () -> Fp16Converter.of(Fp16Strategy.JAVA, 2));
        fails(IllegalArgumentException.class, "fp16 threads=0", () -> Fp16Converter.of(Fp16Strategy.NATIVE, 0));
        fails(IllegalArgumentException.class, "fp16 threads=65", () -> Fp16Converter.of(Fp16Strategy.NATIVE, 65));
        assertThrows(NullPointerException.class, () -> Fp16Converter.of(null, 1));
        Fp16Converter c = Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 2);
        assertEquals(Fp16Strategy.NATIVE_STREAMING, c.strategy());
        assertEquals(2, c.threads());
        assertEquals(Fp16Strategy.AUTO, Fp16Converter.auto().strategy());
    }
}
