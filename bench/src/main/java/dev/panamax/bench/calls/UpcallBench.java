package dev.panamax.bench.calls;

import dev.panamax.bench.Figure;
import dev.panamax.core.upcall.CallbackRegistry;
import dev.panamax.core.upcall.CompletionHandler;
import dev.panamax.core.upcall.UpcallStub;
import dev.panamax.core.upcall.Upcalls;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static dev.panamax.bench.calls.UpcallTargets.*;

/**
 * The cost of one upcall (ns per call): from C called by Java (a loop of upcalls inside one
 * downcall), and from a long-lived native thread (steady state; its first upcall is
 * {@link FirstUpcallMeasurement}). Raw FFM stubs are the floor; Panamax stubs add the exception
 * guard; the registry adds the lookup by id.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class UpcallBench {
    static final int FROM_JAVA = 1_000;
    static final int FROM_THREAD = 10_000; // amortizes the hand-off to the worker thread

    Arena arena;
    MemorySegment rawStub;
    UpcallStub panamaxStub;
    CallbackRegistry<CompletionHandler> registry;
    MemorySegment registryId;

    @Setup
    public void setup() throws Throwable {
        arena = Arena.ofShared();
        rawStub = Linker.nativeLinker().upcallStub(TARGET, CALLBACK, arena);
        panamaxStub = Upcalls.voidStub("bench", TARGET, CALLBACK, arena);
        registry = CallbackRegistry.builder(CompletionHandler.class, CALLBACK, 0).name("bench").inline().build(arena);
        registryId = CallbackRegistry.userData(registry.register(UpcallTargets::onCompletion));
        if ((int) WORKER_START.invokeExact() != 0) throw new IllegalStateException("cannot start the worker thread");
    }

    @TearDown
    public void tearDown() throws Throwable {
        WORKER_STOP.invokeExact();
        arena.close();
    }

    @Benchmark
    @OperationsPerInvocation(FROM_JAVA)
    @Figure("raw.upcall.java")
    public void rawUpcallJava() throws Throwable {
        UPCALL_N.invokeExact(rawStub, MemorySegment.NULL, FROM_JAVA);
    }

    @Benchmark
    @OperationsPerInvocation(FROM_JAVA)
    @Figure(value = "upcall.java", baseline = "raw.upcall.java")
    public void panamaxUpcallJava() throws Throwable {
        UPCALL_N.invokeExact(panamaxStub.address(), MemorySegment.NULL, FROM_JAVA);
    }

    @Benchmark
    @OperationsPerInvocation(FROM_JAVA)
    @Figure(value = "registry.java", baseline = "raw.upcall.java")
    public void registryUpcallJava() throws Throwable {
        UPCALL_N.invokeExact(registry.stub(), registryId, FROM_JAVA);
    }

    @Benchmark
    @OperationsPerInvocation(FROM_JAVA)
    @Figure(value = "jni.upcall.java", baseline = "raw.upcall.java")
    public void jniUpcallJava() {
        JniCalls.upcallN(FROM_JAVA);
    }

    @Benchmark
    @OperationsPerInvocation(FROM_THREAD)
    @Figure("raw.upcall.nativeThread")
    public void rawUpcallNativeThread() throws Throwable {
        WORKER_RUN.invokeExact(rawStub, MemorySegment.NULL, FROM_THREAD);
    }

    @Benchmark
    @OperationsPerInvocation(FROM_THREAD)
    @Figure(value = "upcall.nativeThread", baseline = "raw.upcall.nativeThread")
    public void panamaxUpcallNativeThread() throws Throwable {
        WORKER_RUN.invokeExact(panamaxStub.address(), MemorySegment.NULL, FROM_THREAD);
    }

    @Benchmark
    @OperationsPerInvocation(FROM_THREAD)
    @Figure(value = "registry.nativeThread", baseline = "raw.upcall.nativeThread")
    public void registryUpcallNativeThread() throws Throwable {
        WORKER_RUN.invokeExact(registry.stub(), registryId, FROM_THREAD);
    }
}
