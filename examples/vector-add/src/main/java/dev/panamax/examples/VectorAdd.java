package dev.panamax.examples;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;

import java.lang.foreign.ValueLayout;

/** A million-float vector add on the system's default compute device (PoCL's CPU device without a GPU). */
public final class VectorAdd {
    static final String SOURCE = """
            __kernel void add(__global const float *a, __global const float *b, __global float *c) {
                size_t i = get_global_id(0);
                c[i] = a[i] + b[i];
            }""";

    public static void main(String[] args) {
        int n = 1 << 20;
        float[] x = new float[n], y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
            y[i] = 2f * i;
        }
        ComputeDevice device = ComputeDevice.systemDefault();
        try (Library library = device.newLibrary(SOURCE);
             ComputePipeline add = library.newPipeline("add");
             Buffer a = device.newBuffer(x); Buffer b = device.newBuffer(y);
             Buffer c = device.newBuffer(n * 4L, StorageMode.SHARED);
             CommandQueue queue = device.newCommandQueue()) {
            CommandBuffer commands = queue.commandBuffer();
            try (ComputeEncoder encoder = commands.computeEncoder()) {
                encoder.setPipeline(add).setBuffer(0, a).setBuffer(1, b).setBuffer(2, c).dispatchThreads(Size.of(n), Size.of(64));
            }
            commands.commit();
            try {
                commands.waitUntilCompleted();
            } catch (CommandBufferException failed) { // names the command buffer and the failing command
                throw new IllegalStateException("vector add failed (" + commands.status() + ")", failed);
            }
            float[] sum = c.contents().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) {
                if (sum[i] != 3f * i) throw new AssertionError("element " + i + ": " + sum[i] + ", expected " + 3f * i);
            }
            System.out.println("vector add of " + n + " floats on " + device.info().name() + ": correct");
        }
    }
}
