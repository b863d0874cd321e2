package dev.panamax.bench.memory;

import dev.panamax.bench.Figure;
import dev.panamax.core.call.ScratchStack;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * The per-call temporary a binding makes to pass a value by pointer: open a thread-local frame,
 * take a few bytes, write the value, close the frame. Panamax's {@link ScratchStack} (what the
 * generated typed layer and the OpenCL helpers stage through) side by side with LWJGL's
 * {@link MemoryStack} (what {@code clSetKernelArg1f} and LWJGL's other conveniences use).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ScratchFrameBench {
    private final long[] workSize = {64};

    /** An empty frame: the thread-local lookup, push and close. */
    @Benchmark
    @Figure(value = "panamax.scratch.pushClose.ns")
    public void pushClose() {
        try (ScratchStack.Frame _ = ScratchStack.push()) {
            // nothing allocated
        }
    }

    /** One float in a frame, as {@code OpenCl.setArg(kernel, i, 1.0f)} stages it. */
    @Benchmark
    @Figure(value = "panamax.scratch.float.ns", baseline = "lwjgl.stack.float.ns")
    public long oneFloat() {
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            return frame.allocateFrom(ValueLayout.JAVA_FLOAT, 1.0f).address();
        }
    }

    /** A one-element {@code long[]} copied into a frame, as the typed layer stages a work size. */
    @Benchmark
    @Figure(value = "panamax.scratch.longArray1.ns", baseline = "lwjgl.stack.longArray1.ns")
    public long longArray() {
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            return frame.allocateFrom(ValueLayout.JAVA_LONG, workSize).address();
        }
    }

    /** LWJGL's stack: push, {@code nmalloc} four bytes, write the float, pop. */
    @Benchmark
    @Figure(value = "lwjgl.stack.float.ns")
    public long lwjglFloat() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            long address = stack.nmalloc(Float.BYTES, Float.BYTES);
            MemoryUtil.memPutFloat(address, 1.0f);
            return address;
        }
    }

    /** LWJGL's stack: push, a one-element pointer buffer filled from the array, pop. */
    @Benchmark
    @Figure(value = "lwjgl.stack.longArray1.ns")
    public long lwjglLongArray() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            return MemoryUtil.memAddress(stack.pointers(workSize));
        }
    }
}
