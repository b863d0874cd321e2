package dev.panamax.opencl;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchEntry;
import dev.panamax.core.batch.BatchFailedException;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLThunks;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * 1,000 kernel dispatches and a clFinish in one crossing: the generated {@code Tier.BATCHED}
 * recorders ({@link CLThunks}, thunks compiled by the bindgen plugin into libpanamax_glue_opencl.so
 * in the jar) record into a core Batch.
 */
class BatchedDispatchTest extends PoclTestBase {
    static final String SOURCE = "__kernel void inc(__global float *a) { a[get_global_id(0)] += 1.0f; }";

    @Test
    void aThousandDispatchesAndAFinishInOneCrossing() {
        int n = 64;
        try (ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "inc");
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, n * Float.BYTES, null);
             Arena arena = Arena.ofConfined();
             Batch batch = Batch.create(BatchMode.STANDARD)) {
            MemorySegment zero = arena.allocate(ValueLayout.JAVA_FLOAT);
            CLApi.clEnqueueFillBuffer(queue, buffer, zero.asSlice(0, Float.BYTES), 0, n * Float.BYTES, null, null);
            OpenCl.setArg(kernel, 0, buffer);
            MemorySegment globalSize = arena.allocateFrom(ValueLayout.JAVA_LONG, n);
            for (int i = 0; i < 1000; i++) {
                CLThunks.clEnqueueNDRangeKernel.record(batch, queue, kernel, 1, null, globalSize, null, 0,
                        null, null);
            }
            BatchEntry finish = CLThunks.clFinish.record(batch, queue);
            batch.run();
            assertEquals(CL.CL_SUCCESS, finish.resultInt());
            MemorySegment out = arena.allocate(ValueLayout.JAVA_FLOAT, n);
            CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, out.asSlice(0, n * Float.BYTES), null, null);
            for (int i = 0; i < n; i++) assertEquals(1000f, out.getAtIndex(ValueLayout.JAVA_FLOAT, i), "element " + i);
        }
    }

    @Test
    void aFailingDispatchStopsTheBatchWithItsStatus() {
        try (ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "inc");
             Arena arena = Arena.ofConfined();
             Batch batch = Batch.create(BatchMode.STANDARD)) {
            // the argument is never set: CL_INVALID_KERNEL_ARGS
            MemorySegment globalSize = arena.allocateFrom(ValueLayout.JAVA_LONG, 8);
            CLThunks.clEnqueueNDRangeKernel.record(batch, queue, kernel, 1, null, globalSize, null, 0,
                    null, null);
            CLThunks.clFinish.record(batch, queue);
            BatchFailedException e = assertThrows(BatchFailedException.class, batch::run);
            assertTrue(e.getMessage().contains("clEnqueueNDRangeKernel") && e.getMessage().contains("-52"), e.getMessage());
        }
    }
}
