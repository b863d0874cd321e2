package dev.panamax.opencl.misuse;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.EncodingException;
import dev.panamax.compute.Library;
import dev.panamax.compute.Size;

import java.util.function.Consumer;

/**
 * Kernel arguments that used to reach the driver under CHECKED validation and crash it or compute
 * garbage: a plain buffer bound to an {@code image2d_t}, a long to a {@code sampler_t}, 16 GiB of
 * local memory, {@code setInt} on a {@code float}, 3 bytes for an 8-byte struct, a grid that is not a
 * whole number of threadgroups, a group count that overflows. Each must be refused with an
 * EncodingException naming the kernel and the argument; the command buffer is committed anyway when
 * encoding lets it through, so a missed check shows as a crash or a wrong outcome.
 */
public final class KernelArgumentMisuse {
    static final String SOURCE = """
            typedef struct { int count; float scale; } pair;
            __kernel void image(__global float *x, read_only image2d_t img) { x[0] = read_imagef(img, (int2)(0, 0)).x; }
            __kernel void sampled(__global float *x, sampler_t s) { x[0] = 1.0f; }
            __kernel void staged(__global float *x, __local float *scratch) { scratch[get_local_id(0)] = 1.0f; x[get_global_id(0)] = scratch[0]; }
            __kernel void scale(__global float *x, float factor, pair p) { x[get_global_id(0)] *= factor * p.scale; }
            """;

    public static void main(String[] args) {
        ComputeDevice device = ComputeDevice.systemDefault();
        try (Library library = device.newLibrary(SOURCE);
             ComputePipeline image = library.newPipeline("image");
             ComputePipeline sampled = library.newPipeline("sampled");
             ComputePipeline staged = library.newPipeline("staged");
             ComputePipeline scale = library.newPipeline("scale");
             CommandQueue queue = device.newCommandQueue(2);
             Buffer x = device.newBuffer(new float[1024]);
             Buffer y = device.newBuffer(new float[1024])) {
            byte[] pair = new byte[8];
            refused(queue, "buffer on image2d_t", "argument 1 'img' (image2d_t) is an image",
                    e -> e.setPipeline(image).setBuffer(0, x).setBuffer(1, y).dispatchThreads(Size.of(64), Size.of(8)));
            refused(queue, "long on sampler_t", "argument 1 's' (sampler_t) is a sampler",
                    e -> e.setPipeline(sampled).setBuffer(0, x).setLong(1, 0x1234_5678L).dispatchThreads(Size.of(64), Size.of(8)));
            refused(queue, "16 GiB of local memory", "expected at most",
                    e -> e.setPipeline(staged).setBuffer(0, x).setThreadgroupMemoryLength(1, 16L << 30).dispatchThreads(Size.of(64), Size.of(8)));
            refused(queue, "setInt on float", "argument 1 'factor' (float) takes a floating-point value",
                    e -> e.setPipeline(scale).setBuffer(0, x).setInt(1, 2).setBytes(2, pair).dispatchThreads(Size.of(64), Size.of(8)));
            refused(queue, "3 bytes for an 8-byte struct", "argument 2 'p' (pair) takes 8 bytes, got 3",
                    e -> e.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setBytes(2, new byte[3]).dispatchThreads(Size.of(64), Size.of(8)));
            refused(queue, "a grid of 1000 in groups of 256", "remainder=232",
                    e -> e.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setBytes(2, pair).dispatchThreads(Size.of(1000), Size.of(256)));
            refused(queue, "2^62+1 groups of 4", "overflow in dimension 0",
                    e -> e.setPipeline(scale).setBuffer(0, x).setFloat(1, 2f).setBytes(2, pair).dispatchThreadgroups(Size.of((1L << 62) + 1), Size.of(4)));
        }
        System.out.println("kernel argument misuse: every case refused");
    }

    private static void refused(CommandQueue queue, String what, String expected, Consumer<ComputeEncoder> encode) {
        CommandBuffer cb = queue.commandBuffer().label(what);
        try {
            try (ComputeEncoder e = cb.computeEncoder()) {
                encode.accept(e);
            }
        } catch (EncodingException refused) {
            if (!refused.getMessage().contains(expected))
                throw new AssertionError(what + ": refused, but the message does not say '" + expected + "': " + refused.getMessage());
            System.out.println(what + ": " + refused.getMessage());
            return;
        }
        cb.commit(); // a missed check: let the driver show what it does with it
        cb.waitUntilCompleted();
        throw new AssertionError(what + ": accepted and run (" + cb.status() + ")");
    }
}
