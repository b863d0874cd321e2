package dev.panamax.clblast;

import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClPlatformId;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The first OpenCL device (PoCL's CPU device in tests) with one context and in-order queue, through
 * the OpenCL binding; buffers written from and read into Java arrays. The test class closes it.
 */
final class OpenClDevice implements AutoCloseable {
    final ClDeviceId device;
    final ClContext context;
    final ClCommandQueue queue;

    private OpenClDevice(ClDeviceId device, ClContext context, ClCommandQueue queue) {
        this.device = device;
        this.context = context;
        this.queue = queue;
    }

    static OpenClDevice open() throws IOException {
        String cache = System.getenv("POCL_CACHE_DIR");
        if (cache != null && !cache.isBlank()) Files.createDirectories(Path.of(cache));
        ClDeviceId device = null;
        for (ClPlatformId p : OpenCl.platforms()) {
            var devices = OpenCl.devices(p, CL.CL_DEVICE_TYPE_ALL);
            if (!devices.isEmpty()) {
                device = devices.getFirst();
                break;
            }
        }
        assertNotNull(device, "no OpenCL device: ./panamax installs the ICD loader and PoCL (ocl-icd-libopencl1, pocl-opencl-icd)");
        ClContext context = CLApi.clCreateContext(null, new ClDeviceId[] {device}, null);
        return new OpenClDevice(device, context, OpenCl.queue(context, device));
    }

    MemorySegment queueHandle() {
        return queue.handle();
    }

    /** The device's extensions include cl_khr_fp16. */
    boolean hasHalf() {
        return OpenCl.deviceInfo(device, CL.CL_DEVICE_EXTENSIONS).contains("cl_khr_fp16");
    }

    String name() {
        return OpenCl.deviceInfo(device, CL.CL_DEVICE_NAME);
    }

    ClMem buffer(float[] values) {
        ClMem mem = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, (long) values.length * Float.BYTES, MemorySegment.NULL);
        CLApi.clEnqueueWriteBuffer(queue, mem, true, 0, values, null, null);
        return mem;
    }

    ClMem buffer(short[] halves) {
        ClMem mem = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, (long) halves.length * Short.BYTES, MemorySegment.NULL);
        CLApi.clEnqueueWriteBuffer(queue, mem, true, 0, halves, null, null);
        return mem;
    }

    float[] readFloats(ClMem mem, int count) {
        float[] out = new float[count];
        CLApi.clEnqueueReadBuffer(queue, mem, true, 0, out, null, null);
        return out;
    }

    short[] readHalves(ClMem mem, int count) {
        short[] out = new short[count];
        CLApi.clEnqueueReadBuffer(queue, mem, true, 0, out, null, null);
        return out;
    }

    void finish() {
        CLApi.clFinish(queue);
    }

    @Override
    public void close() {
        queue.close();
        context.close();
    }
}
