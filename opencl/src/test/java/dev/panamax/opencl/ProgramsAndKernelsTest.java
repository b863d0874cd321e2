package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;
import dev.panamax.opencl.binding.ClSampler;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Programs, kernels, samplers, rectangular copies and contexts by type against PoCL through the typed
 * layer: separate compile and link, program and kernel queries, every kernel of a program at once,
 * cloned kernels, argument names, work-group limits, a build after the compiler was unloaded, and
 * extension functions looked up by name; every object made is released.
 */
class ProgramsAndKernelsTest extends PoclTestBase {
    private static final String TWO_KERNELS = """
            __kernel void twice(__global float *out, float x) { out[get_global_id(0)] = 2 * x; }
            __kernel void square(__global float *out, int n) { out[get_global_id(0)] = (float) (n * n); }
            """;

    @Test
    void aProgramCompiledAndLinkedApartListsAndMakesEachOfItsKernels() {
        ClDeviceId[] devices = {device};
        try (ClProgram compiled = CLApi.clCreateProgramWithSource(context, new String[] {TWO_KERNELS}, null)) {
            CLApi.clCompileProgram(compiled, devices, "", null, null, null);
            try (ClProgram linked = CLApi.clLinkProgram(context, devices, "", new ClProgram[] {compiled}, null)) {
                assertEquals(2, programInfoLong(linked, CL.CL_PROGRAM_NUM_KERNELS));
                assertEquals(Set.of("twice", "square"), Set.of(programInfoString(linked, CL.CL_PROGRAM_KERNEL_NAMES).split(";")));

                int[] count = new int[1];
                CLApi.clCreateKernelsInProgram(linked, null, count);
                assertEquals(2, count[0]);
                ClKernel[] kernels = new ClKernel[count[0]];
                CLApi.clCreateKernelsInProgram(linked, kernels, null);
                try (ClKernel a = kernels[0]; ClKernel b = kernels[1]; ClKernel clone = CLApi.clCloneKernel(a)) {
                    Set<String> names = new TreeSet<>();
                    for (ClKernel k : kernels) {
                        names.add(kernelInfoString(k, CL.CL_KERNEL_FUNCTION_NAME));
                        assertEquals(2, (int) kernelInfoLong(k, CL.CL_KERNEL_NUM_ARGS, ValueLayout.JAVA_INT));
                    }
                    assertEquals(Set.of("square", "twice"), names);
                    assertNotEquals(kernelInfoString(a, CL.CL_KERNEL_FUNCTION_NAME), kernelInfoString(b, CL.CL_KERNEL_FUNCTION_NAME));
                    assertEquals(kernelInfoString(a, CL.CL_KERNEL_FUNCTION_NAME), kernelInfoString(clone, CL.CL_KERNEL_FUNCTION_NAME));
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
                        CLApi.clGetKernelWorkGroupInfo(a, device, CL.CL_KERNEL_WORK_GROUP_SIZE, size.byteSize(), size, null);
                        assertTrue(size.get(ValueLayout.JAVA_LONG, 0) >= 1);
                    }
                }
            }
        }
    }

    /** A C string ends at its first NUL: a kernel name or a program source holding one is refused, never cut short. */
    @Test
    void aStringWithANulIsRefusedWithItsParameter() {
        try (ClProgram program = OpenCl.buildProgram(context, device, TWO_KERNELS, "")) {
            IllegalArgumentException name = assertThrows(IllegalArgumentException.class, () -> CLApi.clCreateKernel(program, "twice\0square"));
            assertEquals("kernel_name of clCreateKernel holds a NUL character at index 5 (\"twice\\0square\"); a C string ends at"
                    + " its first NUL, so expected a string without NUL characters", name.getMessage());
            IllegalArgumentException options = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clBuildProgram(program, new ClDeviceId[] {device}, "-w\0-cl-fast-relaxed-math", null));
            assertTrue(options.getMessage().startsWith("options of clBuildProgram holds a NUL character at index 2"), options.getMessage());
        }
        IllegalArgumentException source = assertThrows(IllegalArgumentException.class,
                () -> CLApi.clCreateProgramWithSource(context, new String[] {TWO_KERNELS, "__kernel void x() {}\0garbage"}, null));
        assertTrue(source.getMessage().startsWith("strings[1] of clCreateProgramWithSource holds a NUL character at index 20"),
                source.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OpenCl.buildProgram(context, device, "\0" + TWO_KERNELS, ""));
    }

    @Test
    void argumentNamesAreKnownWhenTheBuildKeepsThem() {
        try (ClProgram program = OpenCl.buildProgram(context, device, TWO_KERNELS, "-cl-kernel-arg-info");
             ClKernel square = CLApi.clCreateKernel(program, "square");
             Arena arena = Arena.ofConfined()) {
            long[] size = new long[1];
            CLApi.clGetKernelArgInfo(square, 1, CL.CL_KERNEL_ARG_NAME, 0, null, size);
            MemorySegment name = arena.allocate(size[0]);
            CLApi.clGetKernelArgInfo(square, 1, CL.CL_KERNEL_ARG_NAME, name.byteSize(), name, null);
            assertEquals("n", name.getString(0));
        }
    }

    @Test
    void aRectangleCopiedBetweenBuffersLandsRowByRow() {
        int width = 8;
        int height = 4;
        long rowBytes = width * (long) Float.BYTES;
        long bytes = rowBytes * height;
        try (Arena arena = Arena.ofConfined();
             ClMem src = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, bytes, null);
             ClMem dst = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, bytes, null)) {
            MemorySegment host = arena.allocate(bytes);
            for (int i = 0; i < width * height; i++) host.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
            CLApi.clEnqueueWriteBufferRect(queue, src, true, new long[] {0, 0, 0}, new long[] {0, 0, 0},
                    new long[] {rowBytes, height, 1}, rowBytes, 0, rowBytes, 0, host, null, null);
            CLApi.clEnqueueFillBuffer(queue, dst, new float[] {-1f}, 0, bytes, null, null);
            // the 3 x 2 block at column 2, row 1 of src goes to column 4, row 2 of dst
            CLApi.clEnqueueCopyBufferRect(queue, src, dst, new long[] {2 * Float.BYTES, 1, 0}, new long[] {4 * Float.BYTES, 2, 0},
                    new long[] {3 * Float.BYTES, 2, 1}, rowBytes, 0, rowBytes, 0, null, null);
            MemorySegment back = arena.allocate(bytes);
            CLApi.clEnqueueReadBuffer(queue, dst, true, 0, back.asSlice(0, bytes), null, null);
            for (int row = 0; row < height; row++) {
                for (int col = 0; col < width; col++) {
                    boolean inside = row >= 2 && row < 4 && col >= 4 && col < 7;
                    float expected = inside ? (row - 1) * width + (col - 2) : -1f;
                    assertEquals(expected, back.getAtIndex(ValueLayout.JAVA_FLOAT, row * width + col), "row " + row + " col " + col);
                }
            }
        }
    }

    @Test
    void aContextByDeviceTypeAndANewReferenceToIt() {
        try (ClContext byType = CLApi.clCreateContextFromType(null, CL.CL_DEVICE_TYPE_ALL, null)) {
            assertTrue(contextInfoInt(byType, CL.CL_CONTEXT_NUM_DEVICES) >= 1);
            try (ClContext second = byType.newReference()) {
                assertEquals(2, contextInfoInt(second, CL.CL_CONTEXT_REFERENCE_COUNT));
            }
            assertEquals(1, contextInfoInt(byType, CL.CL_CONTEXT_REFERENCE_COUNT));
        }
    }

    @Test
    void aDeviceSplitEquallyGivesSubDevicesThatNameTheirParent() {
        long maxSubDevices = Info.scalar(ValueLayout.JAVA_INT,
                (size, value, ret) -> CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_PARTITION_MAX_SUB_DEVICES, size, value, ret));
        Assumptions.assumeTrue(maxSubDevices >= 2, "the device cannot be partitioned (max sub-devices " + maxSubDevices + ")");
        long[] equally = {CL.CL_DEVICE_PARTITION_EQUALLY, 1};
        int[] count = new int[1];
        CLApi.clCreateSubDevices(device, equally, null, count);
        assertTrue(count[0] >= 2, "sub-devices of one compute unit each: " + count[0]);
        ClDeviceId[] parts = new ClDeviceId[count[0]];
        CLApi.clCreateSubDevices(device, equally, parts, null);
        try {
            for (ClDeviceId part : parts) {
                assertTrue(part.isOwner(), "sub-devices are released by their handles");
                assertEquals(device.address(), Info.scalar(ValueLayout.JAVA_LONG,
                        (size, value, ret) -> CLApi.clGetDeviceInfo(part, CL.CL_DEVICE_PARENT_DEVICE, size, value, ret)));
                assertEquals(1, Info.scalar(ValueLayout.JAVA_INT,
                        (size, value, ret) -> CLApi.clGetDeviceInfo(part, CL.CL_DEVICE_MAX_COMPUTE_UNITS, size, value, ret)));
            }
        } finally {
            for (ClDeviceId part : parts) part.close();
        }
    }

    @Test
    void aSamplerKeepsItsProperties() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment images = arena.allocate(ValueLayout.JAVA_INT);
            CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_IMAGE_SUPPORT, images.byteSize(), images, null);
            Assumptions.assumeTrue(images.get(ValueLayout.JAVA_INT, 0) != 0, "the device has no image support, so no samplers");
            try (ClSampler sampler = CLApi.clCreateSamplerWithProperties(context, new long[] {
                    CL.CL_SAMPLER_NORMALIZED_COORDS, CL.CL_FALSE, CL.CL_SAMPLER_ADDRESSING_MODE, CL.CL_ADDRESS_CLAMP,
                    CL.CL_SAMPLER_FILTER_MODE, CL.CL_FILTER_NEAREST})) {
                MemorySegment value = arena.allocate(ValueLayout.JAVA_INT);
                CLApi.clGetSamplerInfo(sampler, CL.CL_SAMPLER_ADDRESSING_MODE, value.byteSize(), value, null);
                assertEquals(CL.CL_ADDRESS_CLAMP, value.get(ValueLayout.JAVA_INT, 0));
                CLApi.clGetSamplerInfo(sampler, CL.CL_SAMPLER_FILTER_MODE, value.byteSize(), value, null);
                assertEquals(CL.CL_FILTER_NEAREST, value.get(ValueLayout.JAVA_INT, 0));
            }
        }
    }

    private static long programInfoLong(ClProgram program, int param) {
        return Info.scalar(ValueLayout.JAVA_LONG, (size, value, ret) -> CLApi.clGetProgramInfo(program, param, size, value, ret));
    }

    private static String programInfoString(ClProgram program, int param) {
        return Info.string((size, value, ret) -> CLApi.clGetProgramInfo(program, param, size, value, ret));
    }

    private static String kernelInfoString(ClKernel kernel, int param) {
        return Info.string((size, value, ret) -> CLApi.clGetKernelInfo(kernel, param, size, value, ret));
    }

    private static long kernelInfoLong(ClKernel kernel, int param, ValueLayout.OfInt layout) {
        return Info.scalar(layout, (size, value, ret) -> CLApi.clGetKernelInfo(kernel, param, size, value, ret));
    }

    private static int contextInfoInt(ClContext c, int param) {
        return (int) Info.scalar(ValueLayout.JAVA_INT, (size, value, ret) -> CLApi.clGetContextInfo(c, param, size, value, ret));
    }

    @Test
    void aProgramBuildsAfterThePlatformUnloadedItsCompiler() {
        CLApi.clUnloadPlatformCompiler(platform);
        try (ClProgram program = OpenCl.buildProgram(context, device,
                "__kernel void one(__global int *out) { out[get_global_id(0)] = 1; }", "");
             ClKernel one = CLApi.clCreateKernel(program, "one");
             ClMem out = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 4 * Integer.BYTES, null);
             Arena arena = Arena.ofConfined()) {
            OpenCl.setArg(one, 0, out);
            CLApi.clEnqueueNDRangeKernel(queue, one, null, new long[] {4}, null, null, null);
            MemorySegment back = arena.allocate(4 * Integer.BYTES);
            CLApi.clEnqueueReadBuffer(queue, out, true, 0, back, null, null);
            assertArrayEquals(new int[] {1, 1, 1, 1}, back.toArray(ValueLayout.JAVA_INT));
        }
    }

    @Test
    void anExtensionFunctionIsFoundByNameAndAnUnknownNameGivesNull() {
        // every ICD platform exports cl_khr_icd's entry point
        assertNotEquals(0, CLApi.clGetExtensionFunctionAddressForPlatform(platform, "clIcdGetPlatformIDsKHR").address());
        assertEquals(0, CLApi.clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionPMX").address());
    }
}
