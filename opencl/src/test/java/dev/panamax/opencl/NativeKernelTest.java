package dev.panamax.opencl;

import dev.panamax.core.upcall.UpcallStub;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClNativeKernelFunc;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A native kernel on PoCL: a Java function enqueued as a command through {@code clEnqueueNativeKernel},
 * called back on the driver's thread with the driver's copy of its argument block, in which the
 * address of a memory object has been replaced by the memory the command may use.
 */
class NativeKernelTest extends PoclTestBase {
    // the argument block: { void *memory; int value; }
    private static final long MEMORY = 0;
    private static final long VALUE = ValueLayout.ADDRESS.byteSize();
    private static final long BLOCK = VALUE + Integer.BYTES;

    @BeforeAll
    static void nativeKernelsSupported() {
        long capabilities = Info.scalar(ValueLayout.JAVA_LONG,
                (n, value, ret) -> CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_EXECUTION_CAPABILITIES, n, value, ret));
        Assumptions.assumeTrue((capabilities & CL.CL_EXEC_NATIVE_KERNEL) != 0, "the device runs no native kernels");
    }

    @Test
    void aJavaFunctionRunsAsACommandAndWritesTheMemoryOfABuffer() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        try (Arena arena = Arena.ofShared();
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 4 * Integer.BYTES, null)) {
            // the handler writes the block's value into the first int of the buffer's memory
            UpcallStub stub = ClNativeKernelFunc.stub(arena, args -> {
                ranOn.set(Thread.currentThread());
                MemorySegment block = args.reinterpret(BLOCK);
                MemorySegment memory = block.get(ValueLayout.ADDRESS, MEMORY).reinterpret(4 * Integer.BYTES);
                memory.setAtIndex(ValueLayout.JAVA_INT, 0, block.get(ValueLayout.JAVA_INT, VALUE));
            });
            MemorySegment args = arena.allocate(BLOCK, ValueLayout.ADDRESS.byteAlignment());
            args.set(ValueLayout.JAVA_INT, VALUE, 4242);
            // where in the block the driver puts the buffer's memory: an address inside the caller's block
            MemorySegment memoryLocations = arena.allocateFrom(ValueLayout.ADDRESS, args.asSlice(MEMORY));
            CLApi.clEnqueueFillBuffer(queue, buffer, new int[] {-1}, 0,
                    4 * Integer.BYTES, null, null);
            CLApi.clEnqueueNativeKernel(queue, stub.address(), args, BLOCK, 1, new ClMem[] {buffer}, memoryLocations, null, null);
            MemorySegment back = arena.allocate(4 * Integer.BYTES);
            CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, back, null, null);
            assertArrayEquals(new int[] {4242, -1, -1, -1}, back.toArray(ValueLayout.JAVA_INT));
            assertNotNull(ranOn.get(), "the handler ran");
            assertEquals(0, stub.exceptionCount());
        }
    }

    @Test
    void aHandlerThatThrowsIsCaughtAtTheBoundaryAndTheQueueGoesOn() {
        try (Arena arena = Arena.ofShared()) {
            UpcallStub stub = ClNativeKernelFunc.stub(arena, args -> {
                throw new IllegalStateException("thrown inside a native kernel");
            });
            CLApi.clEnqueueNativeKernel(queue, stub.address(), null, 0, 0, null, null, null, null);
            CLApi.clFinish(queue);
            assertEquals(1, stub.exceptionCount());
            // the queue still runs what comes next
            try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, Integer.BYTES, null)) {
                CLApi.clEnqueueFillBuffer(queue, buffer, new int[] {7}, 0,
                        Integer.BYTES, null, null);
                MemorySegment back = arena.allocate(Integer.BYTES);
                CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, back.asSlice(0, Integer.BYTES), null, null);
                assertEquals(7, back.get(ValueLayout.JAVA_INT, 0));
            }
        }
    }
}
