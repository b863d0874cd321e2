package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClPlatformId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One context and queue on the first OpenCL device (PoCL, the CPU device, in tests), made before a
 * test class and released after it; each test releases everything it creates (the leak extension
 * checks, at PARANOID).
 */
abstract class PoclTestBase {
    static ClPlatformId platform;
    static ClDeviceId device;
    static ClContext context;
    static ClCommandQueue queue;

    @BeforeAll
    static void openDevice() throws IOException {
        String cache = System.getenv("POCL_CACHE_DIR");
        if (cache != null && !cache.isBlank()) Files.createDirectories(Path.of(cache));
        for (ClPlatformId p : OpenCl.platforms()) {
            var devices = OpenCl.devices(p, CL.CL_DEVICE_TYPE_ALL);
            if (!devices.isEmpty()) {
                platform = p;
                device = devices.getFirst();
                break;
            }
        }
        assertNotNull(device, "no OpenCL device: ./panamax installs the ICD loader and PoCL (ocl-icd-libopencl1, pocl-opencl-icd)");
        context = CLApi.clCreateContext(null, new ClDeviceId[] {device}, null);
        queue = OpenCl.queue(context, device);
    }

    @AfterAll
    static void closeDevice() {
        if (queue != null) queue.close();
        if (context != null) context.close();
    }
}
