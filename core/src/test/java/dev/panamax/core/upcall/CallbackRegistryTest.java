package dev.panamax.core.upcall;

import dev.panamax.core.call.Fixtures;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.*;
import static org.junit.jupiter.api.Assertions.*;

class CallbackRegistryTest {
    static final NativeLibrary LIB = Fixtures.library();
    static final MethodHandle COMPLETE = LIB.downcall("pmxf_complete",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG), Tier.STANDARD);
    static final MethodHandle RUN_THREADS = LIB.downcall("pmxf_run_threads",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), Tier.STANDARD);
    static final MethodHandle HAMMER_START = LIB.downcall("pmxf_hammer_start",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), Tier.STANDARD);
    static final MethodHandle HAMMER_STOP = LIB.downcall("pmxf_hammer_stop", FunctionDescriptor.of(JAVA_LONG), Tier.STANDARD);
    static final FunctionDescriptor COMPLETION = FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG);

    private static CallbackRegistry<CompletionHandler> inline(Arena arena) {
        return CallbackRegistry.builder(CompletionHandler.class, COMPLETION, 0).inline().build(arena);
    }

    private static void complete(CallbackRegistry<?> r, int id, long value) throws Throwable {
        COMPLETE.invokeExact(r.stub(), CallbackRegistry.userData(id), value);
    }

    @Test
    void oneShotHandlerRunsOnceThenTheIdIsGone() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            var registry = inline(arena);
            List<Long> got = new ArrayList<>();
            int id = registry.registerOnce(got::add);
            assertNotEquals(0, id);
            assertTrue(registry.isRegistered(id));
            complete(registry, id, 5);
            complete(registry, id, 6);
            assertEquals(List.of(5L), got);
            assertFalse(registry.isRegistered(id));
            assertEquals(1, registry.dispatched());
            assertEquals(1, registry.missed());
            assertFalse(registry.unregister(id));
        }
    }

    @Test
    void persistentHandlerStaysUntilUnregistered() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            var registry = inline(arena);
            List<Long> got = new ArrayList<>();
            int id = registry.register(got::add);
            complete(registry, id, 1);
            complete(registry, id, 2);
            assertTrue(registry.unregister(id));
            complete(registry, id, 3);
            assertEquals(List.of(1L, 2L), got);
            assertEquals(1, registry.missed());
            assertEquals(0, registry.size());
        }
    }

    @Test
    void unknownIdsAreDroppedAndCounted() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            var registry = inline(arena);
            complete(registry, 0, 1);
            complete(registry, 123_456, 1);
            COMPLETE.invokeExact(registry.stub(), MemorySegment.ofAddress(-1L), 1L);
            assertEquals(3, registry.missed());
            assertEquals(0, registry.dispatched());
        }
    }

    @Test
    void idsAreDistinctAndNotReusedRightAway() {
        try (Arena arena = Arena.ofConfined()) {
            var registry = inline(arena);
            java.util.Set<Integer> ids = new java.util.HashSet<>();
            for (int i = 0; i < 5_000; i++) {
                int id = registry.register(v -> {});
                assertTrue(ids.add(id), "id reused: " + id);
                assertTrue(registry.unregister(id));
            }
        }
    }

    @Test
    void completionFromANativeThreadIsHandedToAVirtualThreadAndTheNativeThreadReturnsAtOnce() throws Throwable {
        try (Arena arena = Arena.ofShared()) {
            var registry = CallbackRegistry.builder(CompletionHandler.class, COMPLETION, 0).build(arena);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Long> result = new CompletableFuture<>();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            int id = registry.registerOnce(status -> {
                ranOn.set(Thread.currentThread());
                started.countDown();
                try {
                    if (!release.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("never released");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                result.complete(status);
            });
            // one pthread, one callback; returns after joining the thread: with inline dispatch this
            // would wait for the handler, which waits for `release` below
            assertEquals(0, (int) RUN_THREADS.invokeExact(1, 1, registry.stub(), CallbackRegistry.userData(id)));
            assertTrue(started.await(30, TimeUnit.SECONDS));
            assertFalse(result.isDone(), "the handler is still blocked while the native thread has already returned");
            release.countDown();
            assertEquals(0L, result.get(30, TimeUnit.SECONDS));
            assertTrue(ranOn.get().isVirtual(), ranOn.get().toString());
        }
    }

    @Test
    void sharedCompletionsRegistry() throws Throwable {
        CompletableFuture<Long> done = new CompletableFuture<>();
        var completions = CallbackRegistry.completions();
        int id = completions.registerOnce(done::complete);
        COMPLETE.invokeExact(completions.stub(), CallbackRegistry.userData(id), 42L);
        assertEquals(42L, done.get(30, TimeUnit.SECONDS));
        assertSame(completions, CallbackRegistry.completions());
    }

    @Test
    void unregisteringWhileNativeThreadsAreCallingIsSafe() throws Throwable {
        try (Arena arena = Arena.ofShared()) {
            var registry = inline(arena);
            AtomicLong handled = new AtomicLong();
            int id = registry.register(v -> handled.incrementAndGet());
            int threads = (int) HAMMER_START.invokeExact(2, registry.stub(), CallbackRegistry.userData(id));
            assertEquals(2, threads);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (handled.get() < 2_000 && System.nanoTime() < deadline) Thread.onSpinWait();
            assertTrue(registry.unregister(id));
            long handledAtUnregister = handled.get();
            while (registry.missed() < 2_000 && System.nanoTime() < deadline) Thread.onSpinWait();
            long calls = (long) HAMMER_STOP.invokeExact();
            // every native call either reached the handler or was dropped as a miss
            assertEquals(calls, registry.dispatched() + registry.missed());
            assertEquals(registry.dispatched(), handled.get());
            // after unregister returned, only dispatches already past the lookup (one per thread) could still run
            assertTrue(handled.get() <= handledAtUnregister + threads,
                    "handled=" + handled.get() + " atUnregister=" + handledAtUnregister);
            assertTrue(registry.missed() >= 2_000);
        }
    }

    /** A native shape with the user data last and more arguments: {@code void cb(int32 status, double value, void *user_data)}. */
    public interface StatusAndValue {
        void on(int status, double value);
    }

    @Test
    void customShapeWithUserDataElsewhere() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            var registry = CallbackRegistry.builder(StatusAndValue.class,
                    FunctionDescriptor.ofVoid(JAVA_INT, JAVA_DOUBLE, ADDRESS), 2).inline().build(arena);
            List<String> got = new CopyOnWriteArrayList<>();
            int id = registry.register((status, value) -> got.add(status + "/" + value));
            MethodHandle call = java.lang.foreign.Linker.nativeLinker().downcallHandle(registry.stub(),
                    FunctionDescriptor.ofVoid(JAVA_INT, JAVA_DOUBLE, ADDRESS));
            call.invokeExact(7, 2.5, CallbackRegistry.userData(id));
            assertEquals(List.of("7/2.5"), got);
        }
    }

    interface NotPublic {
        void on(long v);
    }

    @Test
    void mismatchedShapesAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException wrongArgs = assertThrows(IllegalArgumentException.class, () -> CallbackRegistry
                    .builder(StatusAndValue.class, COMPLETION, 0).build(arena));
            assertTrue(wrongArgs.getMessage().contains("expected void on[long]"), wrongArgs.getMessage());
            assertThrows(IllegalArgumentException.class, () -> CallbackRegistry
                    .builder(CompletionHandler.class, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), 0).build(arena));
            assertThrows(IllegalArgumentException.class, () -> CallbackRegistry
                    .builder(CompletionHandler.class, COMPLETION, 2).build(arena));
            assertThrows(IllegalArgumentException.class, () -> CallbackRegistry
                    .builder(CompletionHandler.class, FunctionDescriptor.ofVoid(JAVA_DOUBLE, JAVA_LONG), 0).build(arena));
            IllegalArgumentException hidden = assertThrows(IllegalArgumentException.class, () -> CallbackRegistry
                    .builder(NotPublic.class, COMPLETION, 0).build(arena));
            assertTrue(hidden.getMessage().contains("pass a lookup"), hidden.getMessage());
            var ok = CallbackRegistry.builder(NotPublic.class, COMPLETION, 0)
                    .lookup(java.lang.invoke.MethodHandles.lookup()).inline().build(arena);
            assertNotNull(ok.stub());
        }
    }
}
