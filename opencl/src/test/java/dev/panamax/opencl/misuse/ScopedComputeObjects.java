package dev.panamax.opencl.misuse;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.NativeScope;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.lang.foreign.ValueLayout;

/**
 * A queue, a library, a pipeline and a buffer made inside a scope ({@code native}: a NativeScope;
 * {@code tensor}: a TensorScope with a tensor of its own), used for twenty dispatches after the scope
 * closed, then a new buffer of the same size written: the scope took none of them (a scope that did
 * freed the kernel under the next dispatch, a SIGSEGV in clSetKernelArg, and handed the buffer's
 * block to the next buffer). Ends with nothing outstanding.
 */
public final class ScopedComputeObjects {
    static final int N = 1024;

    public static void main(String[] args) throws Exception {
        boolean tensor = args.length > 0 && args[0].equals("tensor");
        long checkpoint = NativeMemory.checkpoint();
        ComputeDevice device = ComputeDevice.systemDefault();
        CommandQueue queue;
        Library library;
        ComputePipeline scale;
        Buffer x;
        Tensor scoped = null;
        try (AutoCloseable _ = tensor ? TensorScope.open() : NativeScope.open()) {
            if (tensor) scoped = Tensor.ones(8).mul(3);
            queue = device.newCommandQueue(2);
            library = device.newLibrary(Device.KERNEL);
            scale = library.newPipeline("scale");
            x = device.newBuffer(N * 4L, StorageMode.SHARED);
            for (int i = 0; i < N; i++) x.contents().setAtIndex(ValueLayout.JAVA_FLOAT, i, 1f);
        }
        if (tensor && !scoped.isFreed()) throw new AssertionError("the TensorScope did not free its own tensor");
        for (int round = 1; round <= 20; round++) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                e.setPipeline(scale).setBuffer(0, x).dispatchThreads(Size.of(N), Size.of(64));
            }
            cb.commit();
            if (cb.waitUntilCompleted() != CommandBufferStatus.COMPLETED) throw new AssertionError("round " + round + ": " + cb.error());
            check(x, 1 << round, "after round " + round);
        }
        try (Buffer next = device.newBuffer(N * 4L, StorageMode.SHARED)) {
            next.contents().fill((byte) 0x7f);
            check(x, 1 << 20, "after a new buffer of its size was written");
        }
        x.close();
        scale.close();
        library.close();
        queue.close();
        Device.awaitNoneOutstanding(checkpoint);
    }

    static void check(Buffer x, float expected, String when) {
        for (int i = 0; i < N; i++) {
            float v = x.contents().getAtIndex(ValueLayout.JAVA_FLOAT, i);
            if (v != expected) throw new AssertionError(x.describe() + " " + when + ": element=" + i + " value=" + v + " expected=" + expected);
        }
    }
}
