package dev.panamax.opencl;

import dev.panamax.core.memory.HandleReleasedException;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLException;
import dev.panamax.opencl.binding.ClBufferRegion;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClEvent;
import dev.panamax.opencl.binding.ClMem;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The buffer and event parts of the bound API against PoCL through the typed layer: sub-buffers,
 * copy, fill, map and unmap, markers and barriers, waiting on events, event and memory-object
 * queries, profiling times, flush, native references and typed retain/release (the handle's own), buffers made with a property list and
 * migrated to the host and back, and the host timer; every object made is released.
 */
class BuffersAndEventsTest extends PoclTestBase {
    private static final int FLOATS = 1024;
    private static final long BYTES = FLOATS * (long) Float.BYTES;

    @Test
    void aCopyIntoASubBufferLandsAtItsOriginInTheParent() {
        long align = alignmentBytes();
        long origin = Math.max(align, 256);
        long size = 64 * Float.BYTES;
        try (Arena arena = Arena.ofConfined();
             ClMem parent = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null);
             ClMem source = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, size, null)) {
            CLApi.clEnqueueFillBuffer(queue, parent, new float[] {-1f}, 0, BYTES, null, null);
            CLApi.clEnqueueFillBuffer(queue, source, new float[] {7f}, 0, size, null, null);
            ClBufferRegion region = ClBufferRegion.allocate(arena).origin(origin).size(size);
            try (ClMem sub = CLApi.clCreateSubBuffer(parent, CL.CL_MEM_READ_WRITE, CL.CL_BUFFER_CREATE_TYPE_REGION, region)) {
                assertEquals(size, memInfoLong(sub, CL.CL_MEM_SIZE));
                assertEquals(origin, memInfoLong(sub, CL.CL_MEM_OFFSET));
                assertEquals(parent.address(), memInfoLong(sub, CL.CL_MEM_ASSOCIATED_MEMOBJECT), "the sub-buffer names its parent");
                CLApi.clEnqueueCopyBuffer(queue, source, sub, 0, 0, size, null, null);
                CLApi.clFinish(queue);
            }
            float[] all = read(arena, parent);
            for (int i = 0; i < FLOATS; i++) {
                long at = (long) i * Float.BYTES;
                float expected = at >= origin && at < origin + size ? 7f : -1f;
                assertEquals(expected, all[i], "element " + i);
            }
        }
    }

    @Test
    void aSubBufferOffTheDevicesAlignmentIsRefusedWithItsName() {
        try (Arena arena = Arena.ofConfined();
             ClMem parent = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            ClBufferRegion region = ClBufferRegion.allocate(arena).origin(alignmentBytes() + 1).size(16);
            CLException e = assertThrows(CLException.class,
                    () -> CLApi.clCreateSubBuffer(parent, CL.CL_MEM_READ_WRITE, CL.CL_BUFFER_CREATE_TYPE_REGION, region));
            assertEquals(CL.CL_MISALIGNED_SUB_BUFFER_OFFSET, e.code());
            assertTrue(e.getMessage().contains("CL_MISALIGNED_SUB_BUFFER_OFFSET") && e.getMessage().contains("clCreateSubBuffer"),
                    e.getMessage());
        }
    }

    @Test
    void writesThroughAMappedBufferAreSeenAfterUnmapAndAMapForReadingSeesTheDevicesData() {
        try (Arena arena = Arena.ofConfined();
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            ClEvent[] mapped = new ClEvent[1];
            MemorySegment view = CLApi.clEnqueueMapBuffer(queue, buffer, true, CL.CL_MAP_WRITE, 0, BYTES, null, mapped);
            try (ClEvent m = mapped[0]) {
                assertEquals(CL.CL_COMPLETE, eventInfoInt(m, CL.CL_EVENT_COMMAND_EXECUTION_STATUS), "a blocking map has completed");
                assertEquals(CL.CL_COMMAND_MAP_BUFFER, eventInfoInt(m, CL.CL_EVENT_COMMAND_TYPE));
            }
            assertNotEquals(0, view.address());
            assertEquals(BYTES, view.byteSize(), "the segment spans the mapped size");
            for (int i = 0; i < FLOATS; i++) view.setAtIndex(ValueLayout.JAVA_FLOAT, i, i * 0.5f);
            assertThrows(IndexOutOfBoundsException.class, () -> view.get(ValueLayout.JAVA_FLOAT, BYTES), "not one byte past it");
            CLApi.clEnqueueUnmapMemObject(queue, buffer, view, null, null);
            float[] back = read(arena, buffer);
            for (int i = 0; i < FLOATS; i++) assertEquals(i * 0.5f, back[i], "element " + i);

            CLApi.clEnqueueFillBuffer(queue, buffer, new float[] {3f}, 0, BYTES, null, null);
            MemorySegment reading = CLApi.clEnqueueMapBuffer(queue, buffer, true, CL.CL_MAP_READ, BYTES / 2, BYTES / 2, null, null);
            float[] half = reading.toArray(ValueLayout.JAVA_FLOAT);
            CLApi.clEnqueueUnmapMemObject(queue, buffer, reading, null, null);
            CLApi.clFinish(queue);
            assertEquals(FLOATS / 2, half.length);
            for (float f : half) assertEquals(3f, f);
        }
    }

    @Test
    void markersBarriersAndWaitsOrderCommandsAndReportCompletion() {
        try (Arena arena = Arena.ofConfined();
             ClMem a = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null);
             ClMem b = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            ClEvent[] filled = new ClEvent[1];
            CLApi.clEnqueueFillBuffer(queue, a, new float[] {5f}, 0, BYTES, null, filled);
            ClEvent[] barrier = new ClEvent[1];
            ClEvent[] copied = new ClEvent[1];
            ClEvent[] marker = new ClEvent[1];
            try (ClEvent fill = filled[0]) {
                CLApi.clEnqueueBarrierWithWaitList(queue, new ClEvent[] {fill}, barrier);
                CLApi.clEnqueueCopyBuffer(queue, a, b, 0, 0, BYTES, null, copied);
                CLApi.clEnqueueMarkerWithWaitList(queue, null, marker);
                CLApi.clFlush(queue);
                try (ClEvent bar = barrier[0]; ClEvent copy = copied[0]; ClEvent mark = marker[0]) {
                    CLApi.clWaitForEvents(new ClEvent[] {mark});
                    for (ClEvent e : new ClEvent[] {fill, bar, copy, mark}) {
                        assertEquals(CL.CL_COMPLETE, eventInfoInt(e, CL.CL_EVENT_COMMAND_EXECUTION_STATUS), e.toString());
                    }
                    assertEquals(CL.CL_COMMAND_COPY_BUFFER, eventInfoInt(copy, CL.CL_EVENT_COMMAND_TYPE));
                    assertEquals(CL.CL_COMMAND_MARKER, eventInfoInt(mark, CL.CL_EVENT_COMMAND_TYPE));
                    assertEquals(CL.CL_COMMAND_BARRIER, eventInfoInt(bar, CL.CL_EVENT_COMMAND_TYPE));
                }
            }
            for (float f : read(arena, b)) assertEquals(5f, f);
        }
    }

    @Test
    void aProfilingQueueTimesEachCommandInOrderAndAnOrdinaryQueueSaysItCannot() {
        try (Arena _ = Arena.ofConfined();
             ClCommandQueue timed = CLApi.clCreateCommandQueueWithProperties(context, device,
                     new long[] {CL.CL_QUEUE_PROPERTIES, CL.CL_QUEUE_PROFILING_ENABLE, 0});
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            ClEvent[] done = new ClEvent[1];
            CLApi.clEnqueueFillBuffer(timed, buffer, new float[] {1f}, 0, BYTES, null, done);
            try (ClEvent e = done[0]) {
                CLApi.clWaitForEvents(new ClEvent[] {e});
                long queued = profile(e, CL.CL_PROFILING_COMMAND_QUEUED);
                long submit = profile(e, CL.CL_PROFILING_COMMAND_SUBMIT);
                long start = profile(e, CL.CL_PROFILING_COMMAND_START);
                long end = profile(e, CL.CL_PROFILING_COMMAND_END);
                assertTrue(queued > 0 && queued <= submit && submit <= start && start <= end,
                        "queued " + queued + " submit " + submit + " start " + start + " end " + end);
            }
            ClEvent[] untimed = new ClEvent[1];
            CLApi.clEnqueueFillBuffer(queue, buffer, new float[] {2f}, 0, BYTES, null, untimed);
            try (ClEvent e = untimed[0]) {
                CLApi.clWaitForEvents(new ClEvent[] {e});
                CLException x = assertThrows(CLException.class, () -> profile(e, CL.CL_PROFILING_COMMAND_END));
                assertEquals(CL.CL_PROFILING_INFO_NOT_AVAILABLE, x.code());
                assertTrue(x.getMessage().contains("clGetEventProfilingInfo"), x.getMessage());
            }
        }
    }

    @Test
    void aNewNativeReferenceKeepsTheObjectUntilBothAreReleased() {
        try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            assertEquals(1, memInfoInt(buffer, CL.CL_MEM_REFERENCE_COUNT));
            ClMem second = buffer.newReference();
            assertEquals(2, memInfoInt(buffer, CL.CL_MEM_REFERENCE_COUNT));
            second.close();
            assertEquals(1, memInfoInt(buffer, CL.CL_MEM_REFERENCE_COUNT));
        }
    }

    @Test
    void aTypedRetainAndReleaseCountOnTheHandleAndTheLastReleaseFreesTheObjectOnce() {
        ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null);
        CLApi.clRetainMemObject(buffer);
        assertEquals(2, buffer.refCount());
        assertEquals(1, memInfoInt(buffer, CL.CL_MEM_REFERENCE_COUNT), "the handle holds one native reference for all of its own");
        CLApi.clReleaseMemObject(buffer);
        assertFalse(buffer.isReleased());
        assertEquals(1, memInfoInt(buffer, CL.CL_MEM_REFERENCE_COUNT));
        CLApi.clReleaseMemObject(buffer);
        assertTrue(buffer.isReleased());
        assertThrows(HandleReleasedException.class, () -> CLApi.clReleaseMemObject(buffer), "a second release never reaches the library");
        assertThrows(HandleReleasedException.class, () -> CLApi.clRetainMemObject(buffer));
        buffer.close(); // a no-op: the typed release was the handle's release
    }

    @Test
    void aTypedReleaseOfAQueueIsTheHandlesRelease() {
        ClCommandQueue q = OpenCl.queue(context, device);
        CLApi.clReleaseCommandQueue(q);
        assertTrue(q.isReleased());
        assertThrows(HandleReleasedException.class, () -> CLApi.clFinish(q));
        q.close();
    }

    @Test
    void aTypedReleaseOfABorrowedHandleLeavesTheLendersReference() {
        try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            ClMem borrowed = ClMem.borrowed(buffer.handle());
            CLApi.clReleaseMemObject(borrowed);
            assertTrue(borrowed.isReleased());
            assertEquals(1, memInfoInt(buffer, CL.CL_MEM_REFERENCE_COUNT), "the owner's reference is untouched");
        }
    }

    private static long alignmentBytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bits = arena.allocate(ValueLayout.JAVA_INT);
            CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_MEM_BASE_ADDR_ALIGN, bits.byteSize(), bits, null);
            return bits.get(ValueLayout.JAVA_INT, 0) / 8;
        }
    }

    private static float[] read(Arena arena, ClMem buffer) {
        long bytes = memInfoLong(buffer, CL.CL_MEM_SIZE);
        MemorySegment host = arena.allocate(bytes);
        CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, host.asSlice(0, bytes), null, null);
        return host.toArray(ValueLayout.JAVA_FLOAT);
    }

    private static long memInfoLong(ClMem mem, int param) {
        return Info.scalar(ValueLayout.JAVA_LONG, (size, value, ret) -> CLApi.clGetMemObjectInfo(mem, param, size, value, ret));
    }

    private static int memInfoInt(ClMem mem, int param) {
        return (int) Info.scalar(ValueLayout.JAVA_INT, (size, value, ret) -> CLApi.clGetMemObjectInfo(mem, param, size, value, ret));
    }

    private static int eventInfoInt(ClEvent event, int param) {
        return (int) Info.scalar(ValueLayout.JAVA_INT, (size, value, ret) -> CLApi.clGetEventInfo(event, param, size, value, ret));
    }

    private static long profile(ClEvent event, int param) {
        return Info.scalar(ValueLayout.JAVA_LONG, (size, value, ret) -> CLApi.clGetEventProfilingInfo(event, param, size, value, ret));
    }

    @Test
    void aBufferMadeWithAnEmptyPropertyListIsMigratedToTheHostAndBackWithItsContents() {
        try (Arena arena = Arena.ofConfined();
             ClMem buffer = CLApi.clCreateBufferWithProperties(context, new long[0], CL.CL_MEM_READ_WRITE, BYTES, null)) {
            assertEquals(BYTES, memInfoLong(buffer, CL.CL_MEM_SIZE));
            CLApi.clEnqueueFillBuffer(queue, buffer, new float[] {5f}, 0, BYTES, null, null);
            ClEvent[] toHost = new ClEvent[1];
            CLApi.clEnqueueMigrateMemObjects(queue, new ClMem[] {buffer}, CL.CL_MIGRATE_MEM_OBJECT_HOST, null, toHost);
            try (ClEvent migrated = toHost[0]) {
                CLApi.clEnqueueMigrateMemObjects(queue, new ClMem[] {buffer}, 0, new ClEvent[] {migrated}, null);
            }
            MemorySegment back = arena.allocate(BYTES);
            CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, back.asSlice(0, BYTES), null, null);
            for (float f : back.toArray(ValueLayout.JAVA_FLOAT)) assertEquals(5f, f);
        }
    }

    @Test
    void theHostTimerRunsForwardOrIsRefusedByName() {
        long resolution = Info.scalar(ValueLayout.JAVA_LONG,
                (n, value, ret) -> CLApi.clGetPlatformInfo(platform, CL.CL_PLATFORM_HOST_TIMER_RESOLUTION, n, value, ret));
        if (resolution == 0) {
            // the platform does not synchronise the timers: the call fails, named
            CLException e = assertThrows(CLException.class, () -> CLApi.clGetHostTimer(device));
            assertEquals(CL.CL_INVALID_OPERATION, e.code());
            assertTrue(e.getMessage().contains("CL_INVALID_OPERATION") && e.getMessage().contains("clGetHostTimer"), e.getMessage());
            return;
        }
        long first = CLApi.clGetHostTimer(device);
        var both = CLApi.clGetDeviceAndHostTimer(device);
        long last = CLApi.clGetHostTimer(device);
        assertTrue(first > 0 && first <= both.host_timestamp() && both.host_timestamp() <= last,
                first + " <= " + both.host_timestamp() + " <= " + last);
        assertTrue(both.device_timestamp() > 0);
    }
}
