package dev.panamax.bench.calls;

import dev.panamax.core.call.Tier;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.invoke.MethodType.methodType;

/** The Java side of the upcall benchmarks: one trivial target and the C functions that call it. */
final class UpcallTargets {
    /** {@code void cb(void *user_data, int64_t value)}. */
    static final FunctionDescriptor CALLBACK = FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG);
    static final MethodHandle TARGET;
    static final MethodHandle UPCALL_N = BenchLibrary.PANAMAX.downcall("bench_upcall_n",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT), Tier.STANDARD);
    static final MethodHandle WORKER_START = BenchLibrary.PANAMAX.downcall("bench_worker_start",
            FunctionDescriptor.of(JAVA_INT), Tier.STANDARD);
    static final MethodHandle WORKER_RUN = BenchLibrary.PANAMAX.downcall("bench_worker_run",
            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT), Tier.STANDARD);
    static final MethodHandle WORKER_STOP = BenchLibrary.PANAMAX.downcall("bench_worker_stop",
            FunctionDescriptor.ofVoid(), Tier.STANDARD);
    static final MethodHandle FRESH_THREAD = BenchLibrary.PANAMAX.downcall("bench_fresh_thread_upcalls",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS), Tier.STANDARD);

    static long sink;

    static {
        try {
            TARGET = MethodHandles.lookup().findStatic(UpcallTargets.class, "onCall",
                    methodType(void.class, MemorySegment.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private UpcallTargets() {}

    static void onCall(MemorySegment userData, long value) {
        sink += value;
    }

    /** The registry handler: the same work. */
    static void onCompletion(long value) {
        sink += value;
    }
}
