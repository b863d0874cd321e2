package dev.panamax.core.memory;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frames of classes marked {@link AllocatesForCaller} are left out of the recorded allocation site, and only those. */
class AllocatesForCallerTest {
    /** A library's helper that makes buffers on its caller's behalf, through a nested class too. */
    @AllocatesForCaller
    static final class Helper {
        static NativeBuffer make() {
            return Nested.make();
        }

        static final class Nested {
            static NativeBuffer make() {
                return NativeBuffer.allocate(64);
            }
        }
    }

    /** The same without the mark: its frame is the site. */
    static final class Unmarked {
        static NativeBuffer make() {
            return NativeBuffer.allocate(64);
        }
    }

    @Test
    void theSiteIsTheCallerOfAMarkedClass() {
        assertEquals(LeakLevel.PARANOID, LeakDetection.level(), "tests run with every handle tracked");
        long checkpoint = NativeMemory.checkpoint();
        try (NativeBuffer b = Helper.make()) {
            List<StackTraceElement> stack = only(checkpoint);
            assertEquals(AllocatesForCallerTest.class.getName(), stack.getFirst().getClassName(), stack.toString());
            assertEquals("theSiteIsTheCallerOfAMarkedClass", stack.getFirst().getMethodName());
            assertTrue(b.byteSize() == 64);
        }
    }

    @Test
    void anUnmarkedClassIsTheSite() {
        long checkpoint = NativeMemory.checkpoint();
        try (NativeBuffer _ = Unmarked.make()) {
            List<StackTraceElement> stack = only(checkpoint);
            assertEquals(Unmarked.class.getName(), stack.getFirst().getClassName(), stack.toString());
            assertEquals("make", stack.getFirst().getMethodName());
        }
    }

    private static List<StackTraceElement> only(long checkpoint) {
        List<Outstanding> mine = NativeMemory.outstandingSince(checkpoint);
        assertEquals(1, mine.size(), mine.toString());
        return mine.getFirst().allocation();
    }
}
