package dev.panamax.opencl.compute;

import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.opencl.binding.CL;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/** A library on an OpenCL device: a built {@code cl_program}, shared through the device's cache; its handle is a {@link ProgramLease}. */
@AllocatesForCaller
final class OpenClLibrary extends Library {
    private final OpenClDevice device;
    private final ProgramCache.Shared shared;
    private final List<String> functions;
    private final TypeSizes typeSizes;

    /** Takes over {@code shared} (one share of it, given back when this library is freed). */
    OpenClLibrary(OpenClDevice device, ProgramCache.Shared shared, TypeSizes typeSizes) {
        ProgramLease lease;
        try {
            lease = new ProgramLease(device.programs(), shared);
        } catch (Throwable t) {
            device.programs().release(shared);
            throw t;
        }
        List<String> names;
        try {
            names = kernelNames(shared.program.handle());
        } catch (Throwable t) {
            lease.close();
            throw t;
        }
        super(device, lease);
        this.device = device;
        this.shared = shared;
        this.typeSizes = typeSizes;
        this.functions = names;
    }

    @Override
    public List<String> functionNames() {
        return functions;
    }

    @Override
    public ComputePipeline newPipeline(String function) {
        if (isClosed()) throw new IllegalStateException(describe() + " is closed");
        if (!functions.contains(function))
            throw new IllegalArgumentException("no kernel function '" + function + "' in " + describe() + "; it defines " + functions);
        return OpenClPipeline.create(device, shared.program, function, typeSizes);
    }

    @Override
    public String describe() {
        return "library " + functions;
    }

    private static List<String> kernelNames(MemorySegment program) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
            Cl.check(CL.clGetProgramInfo(program, CL.CL_PROGRAM_KERNEL_NAMES, 0, MemorySegment.NULL, size), "clGetProgramInfo");
            MemorySegment names = arena.allocate(Math.max(1, size.get(ValueLayout.JAVA_LONG, 0)));
            Cl.check(CL.clGetProgramInfo(program, CL.CL_PROGRAM_KERNEL_NAMES, names.byteSize(), names, MemorySegment.NULL), "clGetProgramInfo");
            String all = names.getString(0).strip();
            return all.isEmpty() ? List.of() : Arrays.stream(all.split(";")).map(String::strip).toList();
        }
    }
}
