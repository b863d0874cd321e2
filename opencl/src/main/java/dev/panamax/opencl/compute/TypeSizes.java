package dev.panamax.opencl.compute;

import dev.panamax.core.JvmSignalHandlers;
import dev.panamax.opencl.binding.CL;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sizes of a library's by-value argument types that OpenCL's argument metadata does not give
 * (structs, typedefs): measured by the device itself, with a probe kernel built from the library's
 * source that writes {@code sizeof} of each type. A driver checks a struct argument's size no more
 * than PoCL does (any size is accepted), so without this 3 bytes for an 8-byte struct would pass.
 * A type the probe cannot measure keeps size -1: only its kind is checked then.
 */
final class TypeSizes {
    private static final String PROBE = "panamax_sizeof_probe";

    private final OpenClDevice device;
    private final String source;
    private final String options;
    /** Sizes measured so far, -1 for a type the probe could not measure; guarded by this. */
    private final Map<String, Long> known = new HashMap<>();

    TypeSizes(OpenClDevice device, String source, String options) {
        this.device = device;
        this.source = source;
        this.options = options;
    }

    /** The size of each of {@code types}, in bytes, or -1 where it cannot be measured. */
    synchronized Map<String, Long> of(List<String> types) {
        List<String> missing = types.stream().distinct().filter(t -> !known.containsKey(t)).toList();
        if (!missing.isEmpty()) {
            long[] sizes = measure(missing);
            for (int i = 0; i < missing.size(); i++) known.put(missing.get(i), sizes == null ? -1 : sizes[i]);
        }
        Map<String, Long> out = new HashMap<>();
        for (String t : types) out.put(t, known.get(t));
        return out;
    }

    /** Runs the probe kernel once; null when it cannot be built or run. */
    private long[] measure(List<String> types) {
        StringBuilder probe = new StringBuilder(source).append("\n__kernel void ").append(PROBE).append("(__global ulong *panamax_out) {\n");
        for (int i = 0; i < types.size(); i++) probe.append("    panamax_out[").append(i).append("] = sizeof(").append(types.get(i)).append(");\n");
        probe.append("}\n");
        MemorySegment program = MemorySegment.NULL, kernel = MemorySegment.NULL, out = MemorySegment.NULL, queue = MemorySegment.NULL;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment strings = arena.allocate(ValueLayout.ADDRESS);
            strings.set(ValueLayout.ADDRESS, 0, arena.allocateFrom(probe.toString()));
            program = CL.clCreateProgramWithSource(device.context(), 1, strings, MemorySegment.NULL, err);
            if (err.get(ValueLayout.JAVA_INT, 0) != CL.CL_SUCCESS) return null;
            MemorySegment devices = arena.allocate(ValueLayout.ADDRESS);
            devices.set(ValueLayout.ADDRESS, 0, device.id());
            String all = options == null || options.isBlank() ? "" : options;
            int built = CL.clBuildProgram(program, 1, devices, arena.allocateFrom(all), MemorySegment.NULL, MemorySegment.NULL);
            JvmSignalHandlers.restore(); // a compiler the build started may have installed its crash handlers
            if (built != CL.CL_SUCCESS) return null;
            kernel = CL.clCreateKernel(program, arena.allocateFrom(PROBE), err);
            if (err.get(ValueLayout.JAVA_INT, 0) != CL.CL_SUCCESS) return null;
            long bytes = 8L * types.size();
            out = CL.clCreateBuffer(device.context(), CL.CL_MEM_WRITE_ONLY, bytes, MemorySegment.NULL, err);
            if (err.get(ValueLayout.JAVA_INT, 0) != CL.CL_SUCCESS) return null;
            queue = CL.clCreateCommandQueueWithProperties(device.context(), device.id(), MemorySegment.NULL, err);
            if (err.get(ValueLayout.JAVA_INT, 0) != CL.CL_SUCCESS) return null;
            MemorySegment argument = arena.allocate(ValueLayout.ADDRESS);
            argument.set(ValueLayout.ADDRESS, 0, out);
            if (CL.clSetKernelArg(kernel, 0, 8, argument) != CL.CL_SUCCESS) return null;
            MemorySegment one = arena.allocate(ValueLayout.JAVA_LONG);
            one.set(ValueLayout.JAVA_LONG, 0, 1);
            if (CL.clEnqueueNDRangeKernel(queue, kernel, 1, MemorySegment.NULL, one, one, 0, MemorySegment.NULL, MemorySegment.NULL) != CL.CL_SUCCESS)
                return null;
            MemorySegment sizes = arena.allocate(ValueLayout.JAVA_LONG, types.size());
            if (CL.clEnqueueReadBuffer(queue, out, CL.CL_TRUE, 0, bytes, sizes, 0, MemorySegment.NULL, MemorySegment.NULL) != CL.CL_SUCCESS)
                return null;
            return sizes.toArray(ValueLayout.JAVA_LONG);
        } finally {
            if (queue.address() != 0) CL.clReleaseCommandQueue(queue);
            if (out.address() != 0) CL.clReleaseMemObject(out);
            if (kernel.address() != 0) CL.clReleaseKernel(kernel);
            if (program.address() != 0) CL.clReleaseProgram(program);
        }
    }
}
