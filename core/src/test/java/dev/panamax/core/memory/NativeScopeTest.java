package dev.panamax.core.memory;

import org.junit.jupiter.api.Test;

import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.*;

class NativeScopeTest {
    @Test
    void closesEverythingHandedToItExceptWhatIsKept() {
        NativeBuffer kept;
        NativeBuffer temp;
        NativeBuffer adopted;
        try (NativeScope scope = NativeScope.open()) {
            temp = scope.allocate(64);
            adopted = scope.adopt(NativeBuffer.allocateConfined(64));
            kept = scope.keep(scope.allocate(64));
            assertTrue(scope.holds(temp));
            assertTrue(scope.holds(adopted));
            assertFalse(scope.holds(kept));
        }
        assertTrue(temp.isReleased());
        assertTrue(adopted.isReleased());
        assertFalse(kept.isReleased());
        kept.close();
        assertNull(NativeScope.current());
    }

    /** The old model took every handle made on the thread: an object that owns its handles lost them when the scope closed. */
    @Test
    void aHandleMadeWhileAScopeIsOpenBelongsToItsMakerNotToTheScope() {
        NativeBuffer mine;
        try (NativeScope scope = NativeScope.open()) {
            mine = NativeBuffer.allocate(64);
            assertFalse(scope.holds(mine));
        }
        assertFalse(mine.isReleased(), "outlives the scope it was made in");
        mine.segment().set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 42);
        assertEquals(42, mine.segment().get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        mine.close();
    }

    @Test
    void scopesNestAndKeepMovesToTheEnclosingScope() {
        NativeBuffer movedUp;
        NativeBuffer inner;
        try (NativeScope outer = NativeScope.open()) {
            try (NativeScope nested = NativeScope.open()) {
                assertEquals(1, nested.depth());
                assertSame(nested, NativeScope.current());
                inner = nested.allocate(32);
                movedUp = nested.keep(nested.allocate(32));
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
            for (int i = 0; i < 10_000; i++) scope.adopt(NativeBuffer.allocateConfined(16)).close();
            NativeBuffer last = scope.allocate(16);
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
            }
        });
    }

    /** addOrCleanupIfFail: a handle the scope cannot take is closed at once, never left without an owner. */
    @Test
    void aHandleAClosedOrForeignScopeCannotTakeIsClosedAtOnce() throws Exception {
        NativeScope closed = NativeScope.open();
        closed.close();
        NativeBuffer late = NativeBuffer.allocate(8);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> closed.adopt(late));
        assertTrue(e.getMessage().contains("operation=adopt"), e.getMessage());
        assertTrue(late.isReleased());

        try (NativeScope scope = NativeScope.open(); var ex = Executors.newSingleThreadExecutor()) {
            NativeBuffer foreign = ex.submit(() -> {
                NativeBuffer b = NativeBuffer.allocate(8);
                assertThrows(WrongThreadException.class, () -> scope.adopt(b));
                return b;
            }).get();
            assertTrue(foreign.isReleased());
            assertFalse(scope.holds(foreign));
        }
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
