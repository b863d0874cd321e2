package dev.panamax.core.memory;

import org.junit.jupiter.api.Test;

import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.*;

class NativeScopeTest {
    @Test
    void closesEverythingCreatedInsideExceptWhatIsKept() {
        NativeBuffer kept;
        NativeBuffer temp;
        try (NativeScope scope = NativeScope.open()) {
            temp = NativeBuffer.allocate(64);
            kept = scope.keep(NativeBuffer.allocate(64));
            assertTrue(scope.holds(temp));
            assertFalse(scope.holds(kept));
        }
        assertTrue(temp.isReleased());
        assertFalse(kept.isReleased());
        kept.close();
        assertNull(NativeScope.current());
    }

    @Test
    void scopesNestAndKeepMovesToTheEnclosingScope() {
        NativeBuffer movedUp;
        NativeBuffer inner;
        try (NativeScope outer = NativeScope.open()) {
            try (NativeScope nested = NativeScope.open()) {
                assertEquals(1, nested.depth());
                assertSame(nested, NativeScope.current());
                inner = NativeBuffer.allocate(32);
                movedUp = nested.keep(NativeBuffer.allocate(32));
            }
            assertTrue(inner.isReleased());
            assertFalse(movedUp.isReleased(), "kept: belongs to the outer scope now");
            assertTrue(outer.holds(movedUp));
            assertSame(outer, NativeScope.current());
        }
        assertTrue(movedUp.isReleased(), "closed with the outer scope");
    }

    @Test
    void alreadyReleasedHandlesAreSkippedAndLoopsDoNotGrowTheScope() {
        try (NativeScope scope = NativeScope.open()) {
            for (int i = 0; i < 10_000; i++) NativeBuffer.allocateConfined(16).close();
            NativeBuffer last = NativeBuffer.allocate(16);
            assertTrue(scope.holds(last));
        }
    }

    @Test
    void outOfOrderCloseAndForeignThreadsAreRejected() throws Exception {
        NativeScope outer = NativeScope.open();
        NativeScope nested = NativeScope.open();
        IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
        assertTrue(e.getMessage().contains("innermost"), e.getMessage());
        try (var ex = Executors.newSingleThreadExecutor()) {
            ex.submit(() -> assertThrows(WrongThreadException.class, nested::close)).get();
        }
        nested.close();
        outer.close();
        assertThrows(IllegalArgumentException.class, () -> {
            try (NativeScope s = NativeScope.open(); NativeBuffer elsewhere = NativeBuffer.allocate(8)) {
                s.keep(elsewhere);
                s.keep(elsewhere);
            }
        });
    }

    @Test
    void handlesCreatedOnOtherThreadsAreNotTaken() throws Exception {
        try (NativeScope scope = NativeScope.open(); var ex = Executors.newSingleThreadExecutor()) {
            NativeBuffer other = ex.submit(() -> NativeBuffer.allocate(8)).get();
            assertFalse(scope.holds(other));
            other.close();
        }
    }
}
