package dev.panamax.core.upcall;

import dev.panamax.core.call.Fixtures;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.*;
import static java.lang.invoke.MethodType.methodType;
import static org.junit.jupiter.api.Assertions.*;

/**
 * 8 pthreads created in C, each calling back into Java 10,000 times, 1% of the calls throwing:
 * the JVM survives, every call arrives exactly once, and exactly the thrown exceptions are counted.
 */
class NativeThreadCallbacksTest {
    static final int THREADS = 8;
    static final int CALLS = 10_000;
    static final int TOTAL = THREADS * CALLS;
    static final int THROWING = TOTAL / 100;
    static final NativeLibrary LIB = Fixtures.library();
    static final MethodHandle RUN_THREADS = LIB.downcall("pmxf_run_threads",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), Tier.STANDARD);
    static final FunctionDescriptor COMPLETION = FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG);

    /** Counts each value it sees; throws on every hundredth. */
    static final class Recorder {
        final AtomicIntegerArray seen = new AtomicIntegerArray(TOTAL);
        final AtomicLong handlerReports = new AtomicLong();
        final CountDownLatch all = new CountDownLatch(TOTAL);

        void accept(long value) {
            seen.incrementAndGet((int) value);
            all.countDown();
            if (value % 100 == 0) throw new IllegalStateException("planned failure at " + value);
        }

        void acceptWithUserData(MemorySegment userData, long value) {
            accept(value);
        }

        void assertEachValueExactlyOnce() {
            for (int i = 0; i < TOTAL; i++) {
                if (seen.get(i) != 1) fail("value " + i + " arrived " + seen.get(i) + " times");
            }
        }
    }

    @Test
    void upcallStubFromEightPthreads() throws Throwable {
        Recorder r = new Recorder();
        MethodHandle target = MethodHandles.lookup().findVirtual(Recorder.class, "acceptWithUserData",
                methodType(void.class, MemorySegment.class, long.class)).bindTo(r);
        try (Arena arena = Arena.ofShared()) {
            UpcallStub stub = Upcalls.builder("recorder", target, COMPLETION)
                    .onException((name, e) -> r.handlerReports.incrementAndGet()).build(arena);
            assertEquals(0, (int) RUN_THREADS.invokeExact(THREADS, CALLS, stub.address(), MemorySegment.NULL));
            r.assertEachValueExactlyOnce();
            assertEquals(THROWING, stub.exceptionCount());
            assertEquals(THROWING, r.handlerReports.get());
        }
    }

    @Test
    void registryDispatchingInlineFromEightPthreads() throws Throwable {
        Recorder r = new Recorder();
        try (Arena arena = Arena.ofShared()) {
            CallbackRegistry<CompletionHandler> registry = CallbackRegistry.builder(CompletionHandler.class, COMPLETION, 0)
                    .name("inline").inline().onException((name, e) -> r.handlerReports.incrementAndGet()).build(arena);
            int id = registry.register(r::accept);
            assertEquals(0, (int) RUN_THREADS.invokeExact(THREADS, CALLS, registry.stub(), CallbackRegistry.userData(id)));
            r.assertEachValueExactlyOnce();
            assertEquals(THROWING, registry.exceptionCount());
            assertEquals(THROWING, r.handlerReports.get());
            assertEquals(TOTAL, registry.dispatched());
            assertEquals(0, registry.missed());
        }
    }

    @Test
    void registryHandingOffToVirtualThreadsFromEightPthreads() throws Throwable {
        Recorder r = new Recorder();
        try (Arena arena = Arena.ofShared()) {
            CallbackRegistry<CompletionHandler> registry = CallbackRegistry.builder(CompletionHandler.class, COMPLETION, 0)
                    .name("async").onException((name, e) -> r.handlerReports.incrementAndGet()).build(arena);
            int id = registry.register(r::accept);
            assertEquals(0, (int) RUN_THREADS.invokeExact(THREADS, CALLS, registry.stub(), CallbackRegistry.userData(id)));
            assertTrue(r.all.await(60, TimeUnit.SECONDS), "handlers still pending: " + r.all.getCount());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (registry.exceptionCount() < THROWING && System.nanoTime() < deadline) Thread.sleep(5);
            r.assertEachValueExactlyOnce();
            assertEquals(THROWING, registry.exceptionCount());
            assertEquals(THROWING, r.handlerReports.get());
            assertEquals(TOTAL, registry.dispatched());
        }
    }
}
