package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A program taken out as the device's binary and made again from it, and shared virtual memory, on
 * PoCL through the typed layer: pointer arrays in and out of the driver, an allocation returned as a
 * segment of its size, copied out by the queue and freed by it through a callback, migrated, and
 * followed by a kernel from a pointer stored in SVM once the kernel is told of it.
 */
class BinariesAndSvmTest extends PoclTestBase {
    private static final String SOURCE = "__kernel void twice(__global float *out, float x) { out[get_global_id(0)] = 2 * x; }";

    @Test
    void aProgramMadeFromItsOwnBinaryRunsTheSameKernel() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment binary;
            try (ClProgram built = OpenCl.buildProgram(context, device, SOURCE, "")) {
                long size = Info.scalar(ValueLayout.JAVA_LONG,
                        (n, value, ret) -> CLApi.clGetProgramInfo(built, CL.CL_PROGRAM_BINARY_SIZES, n, value, ret));
                assertTrue(size > 0);
                binary = arena.allocate(size);
                MemorySegment pointers = arena.allocateFrom(ValueLayout.ADDRESS, binary);
                CLApi.clGetProgramInfo(built, CL.CL_PROGRAM_BINARIES, pointers.byteSize(), pointers, null);
            }
            int[] status = new int[1];
            try (ClProgram again = CLApi.clCreateProgramWithBinary(context, new ClDeviceId[] {device},
                    new long[] {binary.byteSize()}, arena.allocateFrom(ValueLayout.ADDRESS, binary), status)) {
                assertEquals(CL.CL_SUCCESS, status[0]);
                OpenCl.build(again, new ClDeviceId[] {device}, "");
                try (ClKernel twice = CLApi.clCreateKernel(again, "twice");
                     ClMem out = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 4 * Float.BYTES, null)) {
                    OpenCl.setArg(twice, 0, out);
                    OpenCl.setArg(twice, 1, 21f);
                    CLApi.clEnqueueNDRangeKernel(queue, twice, null, new long[] {4}, null, null, null);
                    MemorySegment back = arena.allocate(4 * Float.BYTES);
                    CLApi.clEnqueueReadBuffer(queue, out, true, 0, back, null, null);
                    for (float f : back.toArray(ValueLayout.JAVA_FLOAT)) assertEquals(42f, f);
                }
            }
        }
    }

    @Test
    void sharedVirtualMemoryComesBackSizedIsFilledAndMappedByTheQueueAndWrittenByAKernel() {
        long caps = Info.scalar(ValueLayout.JAVA_LONG,
                (n, value, ret) -> CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_SVM_CAPABILITIES, n, value, ret));
        Assumptions.assumeTrue((caps & CL.CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0, "the device has no coarse-grained SVM");
        long bytes = 1024;
        MemorySegment svm = CLApi.clSVMAlloc(context, CL.CL_MEM_READ_WRITE, bytes, 0);
        assertNotEquals(0, svm.address());
        try (Arena _ = Arena.ofConfined()) {
            assertEquals(bytes, svm.byteSize(), "the allocation as a segment of its size");
            CLApi.clEnqueueSVMMemFill(queue, svm, new float[] {3f}, bytes, null, null);
            CLApi.clEnqueueSVMMap(queue, true, CL.CL_MAP_READ, svm, bytes, null, null);
            for (float f : svm.toArray(ValueLayout.JAVA_FLOAT)) assertEquals(3f, f);
            CLApi.clEnqueueSVMUnmap(queue, svm, null, null);

            // a kernel writes through the same pointer
            try (ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
                 ClKernel twice = CLApi.clCreateKernel(program, "twice")) {
                CLApi.clSetKernelArgSVMPointer(twice, 0, svm);
                OpenCl.setArg(twice, 1, 21f);
                CLApi.clEnqueueNDRangeKernel(queue, twice, null, new long[] {bytes / Float.BYTES}, null, null, null);
                CLApi.clEnqueueSVMMap(queue, true, CL.CL_MAP_READ, svm, bytes, null, null);
                for (float f : svm.toArray(ValueLayout.JAVA_FLOAT)) assertEquals(42f, f);
                CLApi.clEnqueueSVMUnmap(queue, svm, null, null);
            }
            CLApi.clFinish(queue);
        } finally {
            CLApi.clSVMFree(context, svm);
        }
    }

    @Test
    void sharedVirtualMemoryIsCopiedOutAndFreedByTheQueueThroughACallbackThatArrivesOnce() throws InterruptedException {
        long caps = Info.scalar(ValueLayout.JAVA_LONG,
                (n, value, ret) -> CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_SVM_CAPABILITIES, n, value, ret));
        Assumptions.assumeTrue((caps & CL.CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0, "the device has no coarse-grained SVM");
        long bytes = 64;
        MemorySegment svm = CLApi.clSVMAlloc(context, CL.CL_MEM_READ_WRITE, bytes, 0);
        CountDownLatch freed = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        AtomicLong seen = new AtomicLong();
        try (Arena arena = Arena.ofConfined()) {
            CLApi.clEnqueueSVMMemFill(queue, svm, new int[] {0x5eed}, bytes, null, null);
            MemorySegment host = arena.allocate(bytes);
            CLApi.clEnqueueSVMMemcpy(queue, true, host, svm, null, null);
            for (int v : host.toArray(ValueLayout.JAVA_INT)) assertEquals(0x5eed, v);

            // with a callback the queue hands the pointers over instead of freeing them: the callback frees
            CLApi.clEnqueueSVMFree(queue, arena.allocateFrom(ValueLayout.ADDRESS, svm), (q, count, pointers) -> {
                calls.incrementAndGet();
                MemorySegment pointer = pointers.reinterpret(ValueLayout.ADDRESS.byteSize()).get(ValueLayout.ADDRESS, 0);
                seen.set(pointer.address());
                CLApi.clSVMFree(context, pointer);
                freed.countDown();
            }, null, null);
            CLApi.clFinish(queue);
        }
        assertTrue(freed.await(10, TimeUnit.SECONDS), "the free callback arrived");
        assertEquals(svm.address(), seen.get(), "with the pointer given");
        Thread.sleep(50);
        assertEquals(1, calls.get(), "once");
    }

    @Test
    void aKernelFollowsAnSvmPointerStoredInSvmOnceTheKernelIsToldOfIt() {
        long caps = Info.scalar(ValueLayout.JAVA_LONG,
                (n, value, ret) -> CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_SVM_CAPABILITIES, n, value, ret));
        Assumptions.assumeTrue((caps & CL.CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0, "the device has no coarse-grained SVM");
        final int count = 16;
        long bytes = count * (long) Float.BYTES;
        // the table holds the address of the data: the kernel reaches the data only through it
        String follow = """
                __kernel void follow(__global ulong *table, __global float *out) {
                    __global float *data = (__global float *) table[0];
                    out[get_global_id(0)] = data[get_global_id(0)] + 0.5f;
                }""";
        MemorySegment data = CLApi.clSVMAlloc(context, CL.CL_MEM_READ_WRITE, bytes, 0);
        MemorySegment table = CLApi.clSVMAlloc(context, CL.CL_MEM_READ_WRITE, ValueLayout.ADDRESS.byteSize(), 0);
        try (Arena arena = Arena.ofConfined();
             ClProgram program = OpenCl.buildProgram(context, device, follow, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "follow");
             ClMem out = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, bytes, null)) {
            CLApi.clEnqueueSVMMap(queue, true, CL.CL_MAP_WRITE, data, bytes, null, null);
            for (int i = 0; i < count; i++) data.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
            CLApi.clEnqueueSVMUnmap(queue, data, null, null);
            CLApi.clEnqueueSVMMap(queue, true, CL.CL_MAP_WRITE, table, table.byteSize(), null, null);
            table.set(ValueLayout.ADDRESS, 0, data);
            CLApi.clEnqueueSVMUnmap(queue, table, null, null);
            // both allocations migrated to the device before the kernel runs
            MemorySegment both = arena.allocate(ValueLayout.ADDRESS, 2);
            both.setAtIndex(ValueLayout.ADDRESS, 0, data);
            both.setAtIndex(ValueLayout.ADDRESS, 1, table);
            CLApi.clEnqueueSVMMigrateMem(queue, both, new long[] {bytes, table.byteSize()}, 0, null, null);

            CLApi.clSetKernelArgSVMPointer(kernel, 0, table);
            OpenCl.setArg(kernel, 1, out);
            MemorySegment indirect = arena.allocateFrom(ValueLayout.ADDRESS, data);
            CLApi.clSetKernelExecInfo(kernel, CL.CL_KERNEL_EXEC_INFO_SVM_PTRS, indirect);
            CLApi.clEnqueueNDRangeKernel(queue, kernel, null, new long[] {count}, null, null, null);
            MemorySegment back = arena.allocate(bytes);
            CLApi.clEnqueueReadBuffer(queue, out, true, 0, back.asSlice(0, bytes), null, null);
            for (int i = 0; i < count; i++) assertEquals(i + 0.5f, back.getAtIndex(ValueLayout.JAVA_FLOAT, i));
        } finally {
            CLApi.clFinish(queue);
            CLApi.clSVMFree(context, table);
            CLApi.clSVMFree(context, data);
        }
    }
}
