package dev.panamax.opencl;

import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLException;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/** A real computation through the generated binding: vector add on the OpenCL device equals Java's. */
class VectorAddTest extends PoclTestBase {
    static final String SOURCE = """
            __kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
                int i = get_global_id(0);
                if (i < n) c[i] = a[i] + b[i];
            }
            """;

    @Test
    void addsOneMillionFloatsAsJavaDoes() {
        int n = 1 << 20;
        long bytes = (long) n * Float.BYTES;
        Random rnd = new Random(42);
        float[] a = new float[n];
        float[] b = new float[n];
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (rnd.nextFloat() - 0.5f) * 1000f;
            b[i] = (rnd.nextFloat() - 0.5f) * 1000f;
            expected[i] = a[i] + b[i];
        }
        try (NativeBuffer hostA = NativeBuffer.allocate(bytes);
             NativeBuffer hostB = NativeBuffer.allocate(bytes);
             NativeBuffer hostC = NativeBuffer.allocate(bytes)) {
            hostA.segment().copyFrom(java.lang.foreign.MemorySegment.ofArray(a));
            hostB.segment().copyFrom(java.lang.foreign.MemorySegment.ofArray(b));
            try (ClMem bufA = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_ONLY | CL.CL_MEM_COPY_HOST_PTR, bytes, hostA.segment());
                 ClMem bufB = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_ONLY | CL.CL_MEM_COPY_HOST_PTR, bytes, hostB.segment());
                 ClMem bufC = CLApi.clCreateBuffer(context, CL.CL_MEM_WRITE_ONLY, bytes, null);
                 ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
                 ClKernel kernel = CLApi.clCreateKernel(program, "vadd")) {
                OpenCl.setArg(kernel, 0, bufA);
                OpenCl.setArg(kernel, 1, bufB);
                OpenCl.setArg(kernel, 2, bufC);
                OpenCl.setArg(kernel, 3, n);
                CLApi.clEnqueueNDRangeKernel(queue, kernel, null, new long[] {n}, null, null, null);
                CLApi.clEnqueueReadBuffer(queue, bufC, true, 0, hostC.segment().asSlice(0, bytes), null, null);
                float[] c = hostC.segment().toArray(ValueLayout.JAVA_FLOAT);
                assertArrayEquals(expected, c);
            }
        }
    }

    static final String SCALE_SOURCE = """
            __kernel void scale(__global float *x, float factor, int n) {
                int i = get_global_id(0);
                if (i < n) x[i] = x[i] * factor + (float) n;
            }
            """;

    @Test
    void scalarArgumentsFromNativeValuesAndFromTheHelpersPerThreadCell() {
        int n = 64;
        long bytes = (long) n * Float.BYTES;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = i;
        try (NativeBuffer host = NativeBuffer.allocate(bytes);
             ClMem buf = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, bytes, null);
             ClProgram program = OpenCl.buildProgram(context, device, SCALE_SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "scale")) {
            host.segment().copyFrom(MemorySegment.ofArray(x));
            CLApi.clEnqueueWriteBuffer(queue, buf, true, 0, host.segment().asSlice(0, bytes), null, null);
            // values prepared in native memory, through the typed call
            OpenCl.setArg(kernel, 0, buf);
            try (Arena arena = Arena.ofConfined()) {
                CLApi.clSetKernelArg(kernel, 1, Float.BYTES, arena.allocateFrom(ValueLayout.JAVA_FLOAT, 3f));
                CLApi.clSetKernelArg(kernel, 2, Integer.BYTES, arena.allocateFrom(ValueLayout.JAVA_INT, n));
            }
            CLApi.clEnqueueNDRangeKernel(queue, kernel, null, new long[] {n}, null, null, null);
            CLApi.clEnqueueReadBuffer(queue, buf, true, 0, host.segment().asSlice(0, bytes), null, null);
            float[] once = host.segment().toArray(ValueLayout.JAVA_FLOAT);
            // the helpers' per-thread cell, written again between the two arguments
            OpenCl.setArg(kernel, 1, 0.5f);
            OpenCl.setArg(kernel, 2, 7);
            CLApi.clEnqueueNDRangeKernel(queue, kernel, null, new long[] {n}, null, null, null);
            CLApi.clEnqueueReadBuffer(queue, buf, true, 0, host.segment().asSlice(0, bytes), null, null);
            float[] twice = host.segment().toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < n; i++) {
                assertEquals(i * 3f + n, once[i], "after typed arguments, element " + i);
                // n is now 7: the kernel leaves elements from 7 on as they were
                assertEquals(i < 7 ? once[i] * 0.5f + 7 : once[i], twice[i], "after helper arguments, element " + i);
            }
        }
    }

    @Test
    void aFailedStatusNamesTheErrorItsCodeAndTheFunction() {
        try (ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "vadd")) {
            CLException e = assertThrows(CLException.class,
                    () -> CLApi.clEnqueueNDRangeKernel(queue, kernel, null, new long[] {16}, null, null, null));
            assertEquals("CL_INVALID_KERNEL_ARGS (-52) in clEnqueueNDRangeKernel", e.getMessage());
            assertEquals(-52, e.code());
            CLException unknownKernel = assertThrows(CLException.class, () -> CLApi.clCreateKernel(program, "nope"));
            assertEquals("CL_INVALID_KERNEL_NAME (-46) in clCreateKernel", unknownKernel.getMessage());
        }
        assertEquals(CL.CL_INVALID_KERNEL_ARGS, -52, "the raw layer's constants");
    }

    @Test
    void mismatchedArrayLengthsAreRefusedBeforeTheCall() {
        try (ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "vadd")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueNDRangeKernel(queue, kernel, new long[] {0, 0}, new long[] {16}, null, null, null));
            assertTrue(e.getMessage().contains("length=work_dim global_work_offset=2 global_work_size=1"), e.getMessage());
        }
    }
}
