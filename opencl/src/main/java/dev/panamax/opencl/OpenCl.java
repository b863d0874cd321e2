package dev.panamax.opencl;

import dev.panamax.core.JvmSignalHandlers;
import dev.panamax.core.call.ScratchStack;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLException;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClPlatformId;
import dev.panamax.opencl.binding.ClProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.util.List;

/**
 * Hand-written conveniences over the generated typed layer ({@link CLApi}): the two-call queries
 * (platforms, devices, info strings), builds that report their log, and kernel arguments from Java
 * values. Everything else is {@link CLApi} itself.
 *
 * <pre>{@code
 * ClDeviceId device = OpenCl.devices(OpenCl.platforms().getFirst(), CL.CL_DEVICE_TYPE_ALL).getFirst();
 * try (ClContext context = CLApi.clCreateContext(null, new ClDeviceId[] {device}, null);
 *      ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "")) { ... }
 * }</pre>
 */
@AllocatesForCaller
public final class OpenCl {
    // one argument value at a time per thread: clSetKernelArg is critical (nothing runs between the write and
    // the driver's copy); freed with its thread by the collector
    private static final ThreadLocal<MemorySegment> ARG_CELL =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(ValueLayout.JAVA_LONG));
    static {
        // before the ICD loader starts a platform: PoCL starts LLVM, which installs crash handlers over the JVM's
        JvmSignalHandlers.capture();
    }

    private OpenCl() {}

    /** Every platform the ICD loader finds (borrowed: platforms are never released); empty when there is none. */
    public static List<ClPlatformId> platforms() {
        int[] count = new int[1];
        try {
            CLApi.clGetPlatformIDs(null, count);
        } catch (CLException e) {
            if (e.code() == CL.CL_PLATFORM_NOT_FOUND_KHR) return List.of();
            throw e;
        }
        ClPlatformId[] platforms = new ClPlatformId[count[0]];
        if (platforms.length > 0) CLApi.clGetPlatformIDs(platforms, null);
        JvmSignalHandlers.restore();
        return List.of(platforms);
    }

    /** The root devices of {@code type} ({@code CL_DEVICE_TYPE_ALL}, ...) of a platform (borrowed); empty when there is none. */
    public static List<ClDeviceId> devices(ClPlatformId platform, long type) {
        int[] count = new int[1];
        try {
            CLApi.clGetDeviceIDs(platform, type, null, count);
        } catch (CLException e) {
            if (e.code() == CL.CL_DEVICE_NOT_FOUND) return List.of();
            throw e;
        }
        ClDeviceId[] devices = new ClDeviceId[count[0]];
        CLApi.clGetDeviceIDs(platform, type, devices, null);
        JvmSignalHandlers.restore();
        return List.of(devices);
    }

    /** A string property of a platform ({@code CL_PLATFORM_NAME}, ...). */
    public static String platformInfo(ClPlatformId platform, int param) {
        long[] size = new long[1];
        CLApi.clGetPlatformInfo(platform, param, 0, null, size);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            MemorySegment value = frame.allocate(Math.max(1, size[0]));
            CLApi.clGetPlatformInfo(platform, param, value.byteSize(), value, null);
            return value.getString(0);
        }
    }

    /** A string property of a device ({@code CL_DEVICE_NAME}, ...). */
    public static String deviceInfo(ClDeviceId device, int param) {
        long[] size = new long[1];
        CLApi.clGetDeviceInfo(device, param, 0, null, size);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            MemorySegment value = frame.allocate(Math.max(1, size[0]));
            CLApi.clGetDeviceInfo(device, param, value.byteSize(), value, null);
            return value.getString(0);
        }
    }

    /** The build log of {@code program} for {@code device}. */
    public static String buildLog(ClProgram program, ClDeviceId device) {
        long[] size = new long[1];
        CLApi.clGetProgramBuildInfo(program, device, CL.CL_PROGRAM_BUILD_LOG, 0, null, size);
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            MemorySegment log = frame.allocate(Math.max(1, size[0]));
            CLApi.clGetProgramBuildInfo(program, device, CL.CL_PROGRAM_BUILD_LOG, log.byteSize(), log, null);
            return log.getString(0).strip();
        }
    }

    /**
     * Builds {@code program} for {@code devices}; a failed build throws {@link ProgramBuildException}
     * carrying each device's log.
     */
    public static void build(ClProgram program, ClDeviceId[] devices, String options) {
        try {
            CLApi.clBuildProgram(program, devices, options, null);
        } catch (CLException e) {
            JvmSignalHandlers.restore();
            if (e.code() != CL.CL_BUILD_PROGRAM_FAILURE) throw e;
            StringBuilder logs = new StringBuilder();
            for (ClDeviceId d : devices) {
                logs.append(deviceInfo(d, CL.CL_DEVICE_NAME)).append(":\n").append(buildLog(program, d)).append('\n');
            }
            throw new ProgramBuildException("clBuildProgram", e.code(), logs.toString().strip());
        }
        JvmSignalHandlers.restore(); // a compiler the build started may have installed its crash handlers
    }

    /** A program from OpenCL C source, built for {@code device}; released again if the build fails. */
    public static ClProgram buildProgram(ClContext context, ClDeviceId device, String source, String options) {
        ClProgram program = CLApi.clCreateProgramWithSource(context, new String[] {source}, null);
        try {
            build(program, new ClDeviceId[] {device}, options);
            return program;
        } catch (RuntimeException | Error e) {
            program.close();
            throw e;
        }
    }

    /** A command queue on {@code device} (no properties). */
    public static ClCommandQueue queue(ClContext context, ClDeviceId device) {
        return CLApi.clCreateCommandQueueWithProperties(context, device, null);
    }

    /**
     * Sets kernel argument {@code index} to a memory object. The setArg helpers write the value into a
     * per-thread 8-byte native cell, which the driver copies before clSetKernelArg returns: no scratch
     * frame, nothing allocated per call.
     */
    public static void setArg(ClKernel kernel, int index, ClMem buffer) {
        MemorySegment cell = ARG_CELL.get();
        cell.set(ValueLayout.ADDRESS, 0, buffer.handle());
        CLApi.clSetKernelArg(kernel, index, ValueLayout.ADDRESS.byteSize(), cell);
        Reference.reachabilityFence(buffer);
    }

    /** Sets kernel argument {@code index} to a float. */
    public static void setArg(ClKernel kernel, int index, float value) {
        MemorySegment cell = ARG_CELL.get();
        cell.set(ValueLayout.JAVA_FLOAT, 0, value);
        CLApi.clSetKernelArg(kernel, index, Float.BYTES, cell);
    }

    /** Sets kernel argument {@code index} to an int. */
    public static void setArg(ClKernel kernel, int index, int value) {
        MemorySegment cell = ARG_CELL.get();
        cell.set(ValueLayout.JAVA_INT, 0, value);
        CLApi.clSetKernelArg(kernel, index, Integer.BYTES, cell);
    }
}
