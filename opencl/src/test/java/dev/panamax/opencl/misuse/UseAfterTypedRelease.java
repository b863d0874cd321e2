package dev.panamax.opencl.misuse;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A typed call on a buffer after its typed release: HandleReleasedException, the library never sees it. */
public final class UseAfterTypedRelease {
    public static void main(String[] args) {
        try (Device d = new Device(); Arena arena = Arena.ofConfined()) {
            ClMem m = d.buffer(64);
            CLApi.clReleaseMemObject(m);
            MemorySegment size = arena.allocate(8);
            CLApi.clGetMemObjectInfo(m, CL.CL_MEM_SIZE, 8, size, (long[]) null);
        }
    }
}
