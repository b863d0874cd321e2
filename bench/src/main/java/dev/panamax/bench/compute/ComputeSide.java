package dev.panamax.bench.compute;

import dev.panamax.bench.opencl.TinyKernel;
import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.CommandBufferStatus;
import dev.panamax.compute.CommandQueue;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.References;
import dev.panamax.compute.Size;
import dev.panamax.compute.StorageMode;
import dev.panamax.compute.Validation;

import java.util.ArrayList;
import java.util.List;

import static dev.panamax.bench.compute.InferenceKernels.*;

/** The compute API's side of every figure: the tiny kernel, the inference tokens, SAXPY. */
final class ComputeSide implements AutoCloseable {
    private final ComputeDevice device = ComputeDevice.systemDefault();
    private final CommandQueue queue = device.newCommandQueue(3);
    private final Library tinyLibrary = device.newLibrary(TinyKernel.SOURCE);
    private final ComputePipeline tiny = tinyLibrary.newPipeline(TinyKernel.NAME);
    private final Buffer tinyBuffer = device.newBuffer((long) TinyKernel.ELEMENTS * Float.BYTES, StorageMode.PRIVATE);
    private final Library library = device.newLibrary(InferenceKernels.SOURCE);
    private final ComputePipeline affine = library.newPipeline("affine");
    private final ComputePipeline relu = library.newPipeline("relu");
    private final ComputePipeline residual = library.newPipeline("residual");
    private final ComputePipeline saxpy = library.newPipeline("saxpy");
    private final Buffer x = device.newBuffer(new float[WIDTH]);
    private final Buffer y = device.newBuffer(new float[WIDTH]);
    private final List<Buffer> weights = new ArrayList<>();
    private Buffer saxpyX, saxpyY;

    ComputeSide() {
        for (int l = 0; l < LAYERS; l++) weights.add(device.newBuffer(InferenceKernels.weights(l)));
    }

    ComputeDevice device() {
        return device;
    }

    /** 1,000 tiny dispatches in one command buffer of the given kind, committed and waited for; µs per kernel. */
    double batched1000(References r, Validation v) {
        long t = System.nanoTime();
        CommandBuffer cb = queue.commandBuffer(r, v);
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(tiny).setBuffer(0, tinyBuffer).setFloat(1, TinyKernel.ADDEND).setInt(2, TinyKernel.ELEMENTS);
            Size grid = Size.of(TinyKernel.GLOBAL_SIZE);
            for (int i = 0; i < TinyKernel.BATCH; i++) e.dispatchThreads(grid, grid);
        }
        cb.commit();
        check(cb.waitUntilCompleted());
        return Rounds.micros(t, TinyKernel.BATCH);
    }

    /**
     * 1,000 tiny dispatches in one retained, checked command buffer, each with another addend: every
     * dispatch snapshots and checks its arguments and sets one on the kernel; µs per kernel.
     */
    double batched1000Distinct() {
        long t = System.nanoTime();
        CommandBuffer cb = queue.commandBuffer();
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(tiny).setBuffer(0, tinyBuffer).setInt(2, TinyKernel.ELEMENTS);
            Size grid = Size.of(TinyKernel.GLOBAL_SIZE);
            for (int i = 0; i < TinyKernel.BATCH; i++) e.setFloat(1, i).dispatchThreads(grid, grid);
        }
        cb.commit();
        check(cb.waitUntilCompleted());
        return Rounds.micros(t, TinyKernel.BATCH);
    }

    /** One tiny dispatch, committed and waited for; µs. */
    double roundtrip() {
        long t = System.nanoTime();
        CommandBuffer cb = queue.commandBuffer();
        try (ComputeEncoder e = cb.computeEncoder()) {
            Size grid = Size.of(TinyKernel.GLOBAL_SIZE);
            e.setPipeline(tiny).setBuffer(0, tinyBuffer).setFloat(1, TinyKernel.ADDEND).setInt(2, TinyKernel.ELEMENTS).dispatchThreads(grid, grid);
        }
        cb.commit();
        check(cb.waitUntilCompleted());
        return Rounds.micros(t, 1);
    }

    /** 100 tokens: each committed and waited for (serial), or committed with up to 3 in flight (pipelined); ms. */
    double infer(boolean pipelined) {
        long t = System.nanoTime();
        CommandBuffer last = null;
        for (int token = 0; token < TOKENS; token++) {
            CommandBuffer cb = queue.commandBuffer();
            try (ComputeEncoder e = cb.computeEncoder()) {
                Size grid = Size.of(WIDTH), group = Size.of(GROUP);
                for (int l = 0; l < LAYERS; l++) {
                    e.setPipeline(affine).setBuffer(0, x).setBuffer(1, weights.get(l)).setBuffer(2, y).setInt(3, WIDTH).dispatchThreads(grid, group);
                    e.setPipeline(relu).setBuffer(0, y).dispatchThreads(grid, group);
                    e.setPipeline(residual).setBuffer(0, x).setBuffer(1, y).dispatchThreads(grid, group);
                }
            }
            cb.commit();
            if (!pipelined) check(cb.waitUntilCompleted());
            last = cb;
        }
        check(last.waitUntilCompleted());
        queue.waitUntilIdle();
        return (System.nanoTime() - t) / 1e6;
    }

    /** y = a x + y over {@code n} floats in SHARED buffers, committed and waited for; GB/s (12 bytes per element). */
    double saxpy(int n) {
        if (saxpyX == null) {
            saxpyX = device.newBuffer((long) n * Float.BYTES, StorageMode.SHARED);
            saxpyY = device.newBuffer((long) n * Float.BYTES, StorageMode.SHARED);
            saxpyX.contents().fill((byte) 0);
            saxpyY.contents().fill((byte) 0);
        }
        long t = System.nanoTime();
        CommandBuffer cb = queue.commandBuffer();
        try (ComputeEncoder e = cb.computeEncoder()) {
            e.setPipeline(saxpy).setBuffer(0, saxpyY).setBuffer(1, saxpyX).setFloat(2, 2f).setInt(3, n).dispatchThreads(Size.of(n), Size.of(256));
        }
        cb.commit();
        check(cb.waitUntilCompleted());
        return 12.0 * n / (System.nanoTime() - t);
    }

    private static void check(CommandBufferStatus s) {
        if (s != CommandBufferStatus.COMPLETED) throw new IllegalStateException("command buffer finished with " + s);
    }

    @Override
    public void close() {
        queue.close();
        for (Buffer b : weights) b.close();
        for (AutoCloseableResource r : new AutoCloseableResource[] {tiny::close, tinyBuffer::close, tinyLibrary::close, affine::close, relu::close,
                residual::close, saxpy::close, library::close, x::close, y::close}) r.close();
        if (saxpyX != null) saxpyX.close();
        if (saxpyY != null) saxpyY.close();
    }

    private interface AutoCloseableResource {
        void close();
    }
}
