package dev.panamax.opencl;

import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.Outstanding;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClMem;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Objects made through the generated typed layer or the hand-written helpers are recorded where the
 * caller made them: the binding's own frames (typed layer, handle classes, helpers) are left out of the
 * allocation site that leak reports and {@link NativeMemory#outstandingSince} show.
 */
class AllocationSiteTest extends PoclTestBase {
    @Test
    void aBufferFromTheTypedLayerIsRecordedAtTheCallersLine() {
        long checkpoint = NativeMemory.checkpoint();
        try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 1024, null)) {
            List<Outstanding> mine = NativeMemory.outstandingSince(checkpoint);
            assertEquals(1, mine.size(), mine.toString());
            StackTraceElement site = mine.getFirst().allocation().getFirst();
            assertEquals(AllocationSiteTest.class.getName(), site.getClassName(), mine.getFirst().allocation().toString());
            assertEquals("aBufferFromTheTypedLayerIsRecordedAtTheCallersLine", site.getMethodName());
            // the binding's frames are still in the stack, after the site: nothing is lost
            assertTrue(buffer.handle().address() != 0);
        }
    }

    @Test
    void aQueueFromTheHelpersIsRecordedAtTheCallersLine() {
        long checkpoint = NativeMemory.checkpoint();
        try (ClCommandQueue _ = OpenCl.queue(context, device)) {
            List<Outstanding> mine = NativeMemory.outstandingSince(checkpoint);
            assertEquals(1, mine.size(), mine.toString());
            StackTraceElement site = mine.getFirst().allocation().getFirst();
            assertEquals(AllocationSiteTest.class.getName(), site.getClassName(), mine.getFirst().allocation().toString());
            assertEquals("aQueueFromTheHelpersIsRecordedAtTheCallersLine", site.getMethodName());
        }
    }
}
