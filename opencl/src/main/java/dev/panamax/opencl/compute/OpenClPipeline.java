package dev.panamax.opencl.compute;

import dev.panamax.compute.AddressSpace;
import dev.panamax.compute.ArgumentInfo;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.ValueType;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLException;
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

    /** Types of objects the compute API does not bind, besides images and samplers. */
    private static final java.util.Set<String> OBJECTS = java.util.Set.of("queue_t", "clk_event_t", "reserve_id_t", "event_t");

    private final ClKernel kernel;
    private final MemorySegment address;
    private final long maxThreads;
    private final long staticLocalMemory;
    /**
     * What each argument of the {@code cl_kernel} was last set to (the value's bits and size; size -1
     * for unknown), valid while {@link #argumentsEpoch} is the device's: a replay sets only the
     * arguments that differ. Raw values, never the Java objects, so no buffer is kept reachable.
     * Read and written only under the device's replay lock.
     */
    long[] setBits;
    long[] setSizes;
    long argumentsEpoch = -1;

    /** The pipeline of {@code function}; its kernel is released when reading its metadata fails. */
    static OpenClPipeline create(OpenClDevice device, ClProgram program, String function, TypeSizes typeSizes) {
        ClKernel kernel = createKernel(program, function);
        try {
            return new OpenClPipeline(device, function, kernel, typeSizes);
        } catch (Throwable t) {
            kernel.close();
            throw t;
        }
    }

    private OpenClPipeline(OpenClDevice device, String function, ClKernel kernel, TypeSizes typeSizes) {
        super(device, function, withMeasuredSizes(describeArguments(kernel.handle()), typeSizes), kernel);
        this.kernel = kernel;
        this.address = kernel.handle();
        this.maxThreads = workGroupSize(device, address);
        this.staticLocalMemory = localMemory(device, address);
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
    public long staticThreadgroupMemoryLength() {
        return staticLocalMemory;
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
            String name, type;
            int qualifier, typeQualifier;
            try {
                name = Cl.kernelArgString(kernel, i, CL.CL_KERNEL_ARG_NAME);
                type = Cl.kernelArgString(kernel, i, CL.CL_KERNEL_ARG_TYPE_NAME);
                qualifier = Cl.kernelArgInt(kernel, i, CL.CL_KERNEL_ARG_ADDRESS_QUALIFIER);
                typeQualifier = Cl.kernelArgInt(kernel, i, CL.CL_KERNEL_ARG_TYPE_QUALIFIER);
            } catch (CLException e) {
                if (e.code() != CL.CL_KERNEL_ARG_INFO_NOT_AVAILABLE) throw e;
                // a driver without argument metadata: the count, and nothing else, is checked
                out.add(new ArgumentInfo(i, "", AddressSpace.UNKNOWN, "", -1, ValueType.OTHER));
                continue;
            }
            out.add(describe(i, name, type, qualifier, typeQualifier));
        }
        return out;
    }

    /** The arguments, with the sizes of struct and typedef values measured by the device (see {@link TypeSizes}). */
    private static List<ArgumentInfo> withMeasuredSizes(List<ArgumentInfo> arguments, TypeSizes typeSizes) {
        List<String> unknown = arguments.stream()
                .filter(a -> a.addressSpace() == AddressSpace.VALUE && a.valueBytes() < 0).map(ArgumentInfo::typeName).toList();
        if (unknown.isEmpty()) return arguments;
        Map<String, Long> sizes = typeSizes.of(unknown);
        return arguments.stream().map(a -> a.addressSpace() == AddressSpace.VALUE && a.valueBytes() < 0
                ? new ArgumentInfo(a.index(), a.name(), a.addressSpace(), a.typeName(), sizes.get(a.typeName()), a.valueType()) : a).toList();
    }

    /** One argument from its metadata: images, samplers and other objects are told apart from buffers and values by type. */
    static ArgumentInfo describe(int index, String name, String type, int addressQualifier, int typeQualifier) {
        String t = type.strip();
        AddressSpace space;
        if ((typeQualifier & CL.CL_KERNEL_ARG_TYPE_PIPE) != 0 || OBJECTS.contains(t)) space = AddressSpace.OBJECT;
        else if (t.startsWith("image") && t.endsWith("_t")) space = AddressSpace.IMAGE;
        else if (t.equals("sampler_t")) space = AddressSpace.SAMPLER;
        else if (addressQualifier == CL.CL_KERNEL_ARG_ADDRESS_GLOBAL) space = AddressSpace.DEVICE;
        else if (addressQualifier == CL.CL_KERNEL_ARG_ADDRESS_CONSTANT) space = AddressSpace.CONSTANT;
        else if (addressQualifier == CL.CL_KERNEL_ARG_ADDRESS_LOCAL) space = AddressSpace.THREADGROUP;
        else space = AddressSpace.VALUE;
        if (space != AddressSpace.VALUE) return new ArgumentInfo(index, name, space, type, -1, ValueType.NONE);
        return new ArgumentInfo(index, name, space, type, valueBytes(t), valueType(t));
    }

    /** What a value of type {@code type} holds: a scalar's kind, a vector, or OTHER (a struct, a typedef). */
    static ValueType valueType(String type) {
        String t = type.strip();
        int digits = t.length();
        while (digits > 0 && Character.isDigit(t.charAt(digits - 1))) digits--;
        String scalar = t.substring(0, digits);
        if (!SCALAR_BYTES.containsKey(scalar)) return ValueType.OTHER;
        if (digits < t.length()) return ValueType.VECTOR;
        return switch (scalar) {
            case "float", "double" -> ValueType.FLOAT;
            case "half" -> ValueType.HALF;
            default -> ValueType.INTEGER;
        };
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
        int n;
        try {
            n = Integer.parseInt(t.substring(digits));
        } catch (NumberFormatException e) {
            return -1;
        }
        return (long) scalar * (n == 3 ? 4 : n);
    }

    private static long localMemory(OpenClDevice device, MemorySegment kernel) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_LONG);
            Cl.check(CL.clGetKernelWorkGroupInfo(kernel, device.id(), CL.CL_KERNEL_LOCAL_MEM_SIZE, 8, v, MemorySegment.NULL),
                    "clGetKernelWorkGroupInfo");
            return v.get(ValueLayout.JAVA_LONG, 0);
        }
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
