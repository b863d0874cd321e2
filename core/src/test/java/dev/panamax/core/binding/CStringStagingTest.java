package dev.panamax.core.binding;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/** Strings reach C whole or not at all: an embedded NUL is refused with the function and parameter, never cut short. */
class CStringStagingTest {
    @Test
    void aStringIsCopiedWithItsTerminator() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = Staging.cString(arena, "vadd é", "clCreateKernel", "kernel_name");
            assertEquals("vadd é", s.getString(0));
            assertEquals(8, s.byteSize());   // UTF-8 bytes and the NUL
            assertEquals(MemorySegment.NULL, Staging.cString(arena, null, "f", "p"));
        }
    }

    @Test
    void anEmbeddedNulIsRefusedNamingTheParameter() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Staging.cString(arena, "vadd\0x", "clCreateKernel", "kernel_name"));
            assertEquals("kernel_name of clCreateKernel holds a NUL character at index 4 (\"vadd\\0x\"); a C string ends at its"
                    + " first NUL, so expected a string without NUL characters", e.getMessage());
            IllegalArgumentException last = assertThrows(IllegalArgumentException.class,
                    () -> Staging.cString(arena, "x".repeat(100) + "\0", "f", "p"));
            assertTrue(last.getMessage().startsWith("p of f holds a NUL character at index 100 (\"" + "x".repeat(60) + "...\")"),
                    last.getMessage());
        }
    }

    @Test
    void anElementOfAStringArrayIsNamedByItsIndex() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ok = Staging.strings(arena, new String[] {"a", null, "bc"}, "f", "strings");
            assertEquals("bc", ok.getAtIndex(ValueLayout.ADDRESS, 2).reinterpret(3).getString(0));
            assertEquals(MemorySegment.NULL, ok.getAtIndex(ValueLayout.ADDRESS, 1));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Staging.strings(arena, new String[] {"a", "b\0"}, "clCreateProgramWithSource", "strings"));
            assertTrue(e.getMessage().startsWith("strings[1] of clCreateProgramWithSource holds a NUL character at index 1"), e.getMessage());
        }
    }
}
