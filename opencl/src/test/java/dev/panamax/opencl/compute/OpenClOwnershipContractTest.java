package dev.panamax.opencl.compute;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.ComputePipeline;
import dev.panamax.compute.Library;
import dev.panamax.compute.contract.ComputeContract;
import dev.panamax.compute.contract.OwnershipContract;
import dev.panamax.testsupport.AllowNativeLeaks;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The ownership contract on the OpenCL backend (PoCL's CPU device in tests), and the program cache's part in it. */
class OpenClOwnershipContractTest extends OwnershipContract {
    @Override
    protected ComputeDevice device() {
        return new OpenClComputeContractTest().device();
    }

    @Override
    protected ComputeContract.Kernels kernels() {
        return OpenClComputeContractTest.OPENCL_C;
    }

    @Override
    protected String holdKernel() {
        return """
                __kernel void hold(volatile __global int *flag, __global int *out) {
                    while (flag[0] == 0) { }
                    out[0] = 42;
                }""";
    }

    /** The cache shares a program while a library uses it, and lets it go with the last library, closed or dropped. */
    @Test
    @AllowNativeLeaks("the second library is dropped unclosed on purpose: the GC frees it and reports it")
    void theProgramCacheDoesNotPinADroppedLibrarysProgram() throws InterruptedException {
        ProgramCache cache = ((OpenClDevice) device()).programs();
        int before = cache.size();
        String source = OpenClComputeContractTest.OPENCL_C.scale() + "\n// cache " + System.nanoTime() + "\n";
        Library closed = device().newLibrary(source);
        assertEquals(before + 1, cache.size());
        dropASecondLibrary(source);
        assertEquals(before + 1, cache.size(), "the same source shares the program");
        closed.close();
        assertTrue(gcUntil(() -> cache.size() == before), "the dropped library's program is still cached: size=" + cache.size() + " before=" + before);
    }

    private void dropASecondLibrary(String source) {
        Library dropped = device().newLibrary(source);
        ComputePipeline scale = dropped.newPipeline("scale");
        assertEquals(3, scale.arguments().size());
    }
}
