package dev.panamax.core;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NativeEnvironmentTest {
    private static String cGetenv(String name) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle getenv = linker.downcallHandle(linker.defaultLookup().find("getenv").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = (MemorySegment) getenv.invokeExact(arena.allocateFrom(name));
            return value.equals(MemorySegment.NULL) ? null : value.reinterpret(Long.MAX_VALUE).getString(0);
        }
    }

    @Test
    void setsWhatCReadsAndKeepsAValueAlreadySet() throws Throwable {
        String name = "PANAMAX_NATIVE_ENVIRONMENT_TEST_" + ProcessHandle.current().pid();
        assertNull(cGetenv(name));
        NativeEnvironment.setIfUnset(name, "first");
        assertEquals("first", cGetenv(name));
        NativeEnvironment.setIfUnset(name, "second");
        assertEquals("first", cGetenv(name), "a value already set wins");
    }

    @Test
    void refusesNamesAndValuesCCannotHold() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NativeEnvironment.setIfUnset("A=B", "x"))
                .getMessage().contains("'A=B'"));
        assertThrows(IllegalArgumentException.class, () -> NativeEnvironment.setIfUnset("", "x"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NativeEnvironment.setIfUnset("PANAMAX_X", "a\0b"))
                .getMessage().contains("NUL character at index 1"));
    }
}
