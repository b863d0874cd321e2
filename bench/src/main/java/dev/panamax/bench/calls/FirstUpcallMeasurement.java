package dev.panamax.bench.calls;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.core.upcall.UpcallStub;
import dev.panamax.core.upcall.Upcalls;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.panamax.bench.calls.UpcallTargets.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The first upcall from a fresh pthread (the JVM attaches the thread then), the second, and the
 * steady state on that thread, timed in C with CLOCK_MONOTONIC. Not a JMH benchmark: the event
 * happens once per thread, so it is repeated on many fresh threads and summarized.
 */
public final class FirstUpcallMeasurement implements Measurement {
    static final int STEADY_CALLS = 1_000;

    @Override
    public String suite() {
        return "calls";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        try {
            return measureAll(quick);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private List<Result> measureAll(boolean quick) throws Throwable {
        int threads = quick ? 30 : 200;
        List<Result> out = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment raw = Linker.nativeLinker().upcallStub(TARGET, CALLBACK, arena);
            UpcallStub panamax = Upcalls.voidStub("bench", TARGET, CALLBACK, arena);
            // compile the target first: the figure is the crossing and the attach, not the interpreter
            for (int i = 0; i < 20; i++) {
                UPCALL_N.invokeExact(raw, MemorySegment.NULL, 1_000);
                UPCALL_N.invokeExact(panamax.address(), MemorySegment.NULL, 1_000);
            }
            out.addAll(measure("raw.upcall.nativeThread", raw, threads, arena, ""));
            out.addAll(measure("upcall.nativeThread", panamax.address(), threads, arena, "raw.upcall.nativeThread"));
        }
        return out;
    }

    private static List<Result> measure(String name, MemorySegment stub, int threads, Arena arena, String baseline) throws Throwable {
        MemorySegment times = arena.allocate(JAVA_LONG, 3);
        double[] first = new double[threads];
        double[] second = new double[threads];
        double[] steady = new double[threads];
        for (int t = 0; t < threads; t++) {
            if ((int) FRESH_THREAD.invokeExact(stub, MemorySegment.NULL, STEADY_CALLS, times) != 0) {
                throw new IllegalStateException("pthread_create failed");
            }
            first[t] = times.getAtIndex(JAVA_LONG, 0);
            second[t] = times.getAtIndex(JAVA_LONG, 1);
            steady[t] = times.getAtIndex(JAVA_LONG, 2) / (double) STEADY_CALLS;
        }
        return List.of(
                summary(name + ".first", first, baseline.isEmpty() ? "" : baseline + ".first"),
                summary(name + ".second", second, baseline.isEmpty() ? "" : baseline + ".second"),
                summary(name + ".freshSteady", steady, baseline.isEmpty() ? "" : baseline + ".freshSteady"));
    }

    private static Result summary(String name, double[] values, String baseline) {
        double[] v = values.clone();
        Arrays.sort(v);
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return new Result(name, "ns", median, v[0], v[v.length - 1], baseline);
    }
}
