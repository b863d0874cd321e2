package dev.panamax.bench.compute;

import dev.panamax.bench.opencl.LwjglDispatch;
import org.lwjgl.BufferUtils;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CL10;
import org.lwjgl.opencl.CL20;

import java.nio.IntBuffer;

import static dev.panamax.bench.compute.InferenceKernels.*;

/**
 * The inference tokens by hand through LWJGL 3, as an LWJGL user writes them: set each kernel's
 * arguments, enqueue each of the 300 dispatches, {@code clFinish} per token.
 */
final class LwjglInference implements AutoCloseable {
    private final long context, queue, program, affine, relu, residual, x, y;
    private final long[] weights = new long[LAYERS];
    private final PointerBuffer global = BufferUtils.createPointerBuffer(1).put(0, WIDTH);
    private final PointerBuffer local = BufferUtils.createPointerBuffer(1).put(0, GROUP);

    LwjglInference() {
        LwjglDispatch.loadIcd();
        IntBuffer err = BufferUtils.createIntBuffer(1);
        PointerBuffer platform = BufferUtils.createPointerBuffer(1);
        check(CL10.clGetPlatformIDs(platform, (IntBuffer) null), "clGetPlatformIDs");
        PointerBuffer device = BufferUtils.createPointerBuffer(1);
        check(CL10.clGetDeviceIDs(platform.get(0), 0xFFFFFFFFL, device, (IntBuffer) null), "clGetDeviceIDs");
        long dev = device.get(0);
        context = CL10.clCreateContext(null, dev, null, 0L, err);
        check(err.get(0), "clCreateContext");
        queue = CL20.clCreateCommandQueueWithProperties(context, dev, (java.nio.LongBuffer) null, err);
        check(err.get(0), "clCreateCommandQueueWithProperties");
        program = CL10.clCreateProgramWithSource(context, SOURCE, err);
        check(err.get(0), "clCreateProgramWithSource");
        check(CL10.clBuildProgram(program, dev, "", null, 0L), "clBuildProgram");
        affine = kernel("affine", err);
        relu = kernel("relu", err);
        residual = kernel("residual", err);
        x = CL10.clCreateBuffer(context, CL10.CL_MEM_READ_WRITE, (long) WIDTH * Float.BYTES, err);
        check(err.get(0), "clCreateBuffer");
        y = CL10.clCreateBuffer(context, CL10.CL_MEM_READ_WRITE, (long) WIDTH * Float.BYTES, err);
        check(err.get(0), "clCreateBuffer");
        int[] status = new int[1];
        for (int l = 0; l < LAYERS; l++) {
            weights[l] = CL10.clCreateBuffer(context, CL10.CL_MEM_READ_ONLY | CL10.CL_MEM_COPY_HOST_PTR, InferenceKernels.weights(l), status);
            check(status[0], "clCreateBuffer");
        }
    }

    private long kernel(String name, IntBuffer err) {
        long k = CL10.clCreateKernel(program, name, err);
        check(err.get(0), "clCreateKernel");
        return k;
    }

    /** 100 tokens of 300 dispatches, clFinish per token; ms. */
    double infer() {
        long t = System.nanoTime();
        for (int token = 0; token < TOKENS; token++) {
            for (int l = 0; l < LAYERS; l++) {
                check(CL10.clSetKernelArg1p(affine, 0, x), "clSetKernelArg");
                check(CL10.clSetKernelArg1p(affine, 1, weights[l]), "clSetKernelArg");
                check(CL10.clSetKernelArg1p(affine, 2, y), "clSetKernelArg");
                check(CL10.clSetKernelArg1i(affine, 3, WIDTH), "clSetKernelArg");
                check(CL10.clEnqueueNDRangeKernel(queue, affine, 1, null, global, local, null, null), "clEnqueueNDRangeKernel");
                check(CL10.clSetKernelArg1p(relu, 0, y), "clSetKernelArg");
                check(CL10.clEnqueueNDRangeKernel(queue, relu, 1, null, global, local, null, null), "clEnqueueNDRangeKernel");
                check(CL10.clSetKernelArg1p(residual, 0, x), "clSetKernelArg");
                check(CL10.clSetKernelArg1p(residual, 1, y), "clSetKernelArg");
                check(CL10.clEnqueueNDRangeKernel(queue, residual, 1, null, global, local, null, null), "clEnqueueNDRangeKernel");
            }
            check(CL10.clFinish(queue), "clFinish");
        }
        return (System.nanoTime() - t) / 1e6;
    }

    private static void check(int status, String call) {
        if (status != 0) throw new IllegalStateException(call + " failed: status=" + status);
    }

    @Override
    public void close() {
        CL10.clFinish(queue);
        for (long w : weights) CL10.clReleaseMemObject(w);
        CL10.clReleaseMemObject(x);
        CL10.clReleaseMemObject(y);
        CL10.clReleaseKernel(affine);
        CL10.clReleaseKernel(relu);
        CL10.clReleaseKernel(residual);
        CL10.clReleaseProgram(program);
        CL10.clReleaseCommandQueue(queue);
        CL10.clReleaseContext(context);
        LwjglDispatch.releaseIcd();
    }
}
