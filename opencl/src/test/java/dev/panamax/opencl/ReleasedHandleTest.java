package dev.panamax.opencl;

import dev.panamax.core.memory.HandleReleasedException;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClEvent;
import dev.panamax.opencl.binding.ClMem;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The typed layer passes a handle's address to C as a plain 64-bit value; a handle already released
 * must therefore never reach C. Each way a handle enters a call (as an argument, inside a wait list)
 * is refused with {@link HandleReleasedException} naming the handle, the library is not called, and
 * the objects still alive are untouched.
 */
class ReleasedHandleTest extends PoclTestBase {
    private static final long BYTES = 64;

    @Test
    void aReleasedBufferPassedToATypedCallIsRefusedBeforeTheCall() {
        ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null);
        buffer.close();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(BYTES);
            HandleReleasedException e = assertThrows(HandleReleasedException.class,
                    () -> CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, host.asSlice(0, BYTES), null, null));
            assertTrue(e.getMessage().contains("ClMem"), e.getMessage());
        }
        // the queue is untouched: it still runs commands
        CLApi.clFinish(queue);
    }

    @Test
    void aReleasedEventInAWaitListIsRefusedBeforeTheCall() {
        ClEvent[] marker = new ClEvent[1];
        CLApi.clEnqueueMarkerWithWaitList(queue, null, marker);
        ClEvent done = marker[0];
        CLApi.clWaitForEvents(new ClEvent[] {done});
        done.close();
        HandleReleasedException e = assertThrows(HandleReleasedException.class,
                () -> CLApi.clWaitForEvents(new ClEvent[] {done}));
        assertTrue(e.getMessage().contains("ClEvent"), e.getMessage());
        assertThrows(HandleReleasedException.class, () -> CLApi.clEnqueueMarkerWithWaitList(queue, new ClEvent[] {done}, null));
        CLApi.clFinish(queue);
    }

    @Test
    void aTypedCallOnAReleasedQueueIsRefused() {
        var q = OpenCl.queue(context, device);
        q.close();
        HandleReleasedException e = assertThrows(HandleReleasedException.class, () -> CLApi.clFinish(q));
        assertTrue(e.getMessage().contains("ClCommandQueue"), e.getMessage());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocateFrom(ValueLayout.JAVA_INT, 0);
            assertThrows(HandleReleasedException.class, () -> CLApi.clGetCommandQueueInfo(q, CL.CL_QUEUE_REFERENCE_COUNT,
                    value.byteSize(), value, null));
        }
    }
}
