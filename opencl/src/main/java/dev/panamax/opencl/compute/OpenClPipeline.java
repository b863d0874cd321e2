package dev.panamax.opencl.compute;

import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.compute.AddressSpace;
import dev.panamax.compute.ArgumentInfo;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pipeline on an OpenCL device: a {@code cl_kernel} with its argument metadata. The kernel's
 * arguments are only ever set inside a command buffer's replay, under the device's replay lock,
 * so the pipeline is safe to use from any number of threads.
 */
@AllocatesForCaller
final class OpenClPipeline extends ComputePipeline {
    private static final Map<String, Integer> SCALAR_BYTES = Map.ofEntries(
            Map.entry("char", 1), Map.entry("uchar", 1), Map.entry("bool", 1),
            Map.entry("short", 2), Map.entry("ushort", 2), Map.entry("half", 2),
            Map.entry("int", 4), Map.entry("uint", 4), Map.entry("float", 4),
            Map.entry("long", 8), Map.entry("ulong", 8), Map.entry("double", 8),
            Map.entry("size_t", 8), Map.entry("ptrdiff_t", 8), Map.entry("intptr_t", 8), Map.entry("uintptr_t", 8));

    private final ClKernel kernel;
    private final MemorySegment address;
    private final long maxThreads;
    /**
     * What each argument of the {@code cl_kernel} was last set to (the value's bits and size; size -1
     * for unknown), valid while {@link #argumentsEpoch} is the device's: a replay sets only the
     * arguments that differ. Raw values, never the Java objects, so no buffer is kept reachable.
     * Read and written only under the device's replay lock.
     */
    long[] setBits;
    long[] setSizes;
    long argumentsEpoch = -1;

    OpenClPipeline(OpenClDevice device, ClProgram program, String function) {
        this(device, function, createKernel(program, function));
    }

    private OpenClPipeline(OpenClDevice device, String function, ClKernel kernel) {
        super(device, function, describeArguments(kernel.handle()), kernel);
        this.kernel = kernel;
        this.address = kernel.handle();
        this.maxThreads = workGroupSize(device, address);
        int n = arguments().size();
        this.setBits = new long[n];
        this.setSizes = new long[n];
    }

    MemorySegment kernel() {
        return address;
    }

    @Override
    public long maxThreadsPerThreadgroup() {
        return maxThreads;
    }

    @Override
    public String describe() {
        return "pipeline '" + name() + "'";
    }

    private static ClKernel createKernel(ClProgram program, String function) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            return ClKernel.owned(Cl.created(CL.clCreateKernel(program.handle(), arena.allocateFrom(function), err), err, "clCreateKernel"));
        }
    }

    private static List<ArgumentInfo> describeArguments(MemorySegment kernel) {
        int count;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(ValueLayout.JAVA_INT);
            Cl.check(CL.clGetKernelInfo(kernel, CL.CL_KERNEL_NUM_ARGS, 4, n, MemorySegment.NULL), "clGetKernelInfo");
            count = n.get(ValueLayout.JAVA_INT, 0);
        }
        List<ArgumentInfo> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = Cl.kernelArgString(kernel, i, CL.CL_KERNEL_ARG_NAME);
            String type = Cl.kernelArgString(kernel, i, CL.CL_KERNEL_ARG_TYPE_NAME);
            int qualifier = Cl.kernelArgInt(kernel, i, CL.CL_KERNEL_ARG_ADDRESS_QUALIFIER);
            AddressSpace space = qualifier == CL.CL_KERNEL_ARG_ADDRESS_GLOBAL ? AddressSpace.DEVICE
                    : qualifier == CL.CL_KERNEL_ARG_ADDRESS_CONSTANT ? AddressSpace.CONSTANT
                    : qualifier == CL.CL_KERNEL_ARG_ADDRESS_LOCAL ? AddressSpace.THREADGROUP
                    : AddressSpace.VALUE;
            out.add(new ArgumentInfo(i, name, space, type, space == AddressSpace.VALUE ? valueBytes(type) : -1));
        }
        return out;
    }

    /** The size of a scalar or vector type by its name ({@code float4}: 16), or -1 for anything else (structs). */
    static long valueBytes(String type) {
        String t = type.strip();
        if (t.endsWith("*")) return 8;
        int digits = t.length();
        while (digits > 0 && Character.isDigit(t.charAt(digits - 1))) digits--;
        Integer scalar = SCALAR_BYTES.get(t.substring(0, digits));
        if (scalar == null) return -1;
        if (digits == t.length()) return scalar;
        int n = Integer.parseInt(t.substring(digits));
        return (long) scalar * (n == 3 ? 4 : n);
    }

    private static long workGroupSize(OpenClDevice device, MemorySegment kernel) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_LONG);
            Cl.check(CL.clGetKernelWorkGroupInfo(kernel, device.id(), CL.CL_KERNEL_WORK_GROUP_SIZE, 8, v, MemorySegment.NULL),
                    "clGetKernelWorkGroupInfo");
            return v.get(ValueLayout.JAVA_LONG, 0);
        }
    }
}
