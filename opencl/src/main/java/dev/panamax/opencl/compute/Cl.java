package dev.panamax.opencl.compute;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The few raw-layer idioms the backend repeats: status checks, created objects, info queries. */
final class Cl {
    private Cl() {}

    static void check(int status, String function) {
        if (status != CL.CL_SUCCESS) throw new CLException(function, "cl_status", status);
    }

    /** The object a create call returned, or its error. */
    static MemorySegment created(MemorySegment object, MemorySegment errcode, String function) {
        int status = errcode.get(ValueLayout.JAVA_INT, 0);
        check(status, function);
        if (object.address() == 0) throw new CLException(function, "cl_status", CL.CL_OUT_OF_RESOURCES);
        return object;
    }

    static String deviceString(MemorySegment device, int param) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
            check(CL.clGetDeviceInfo(device, param, 0, MemorySegment.NULL, size), "clGetDeviceInfo");
            MemorySegment value = arena.allocate(Math.max(1, size.get(ValueLayout.JAVA_LONG, 0)));
            check(CL.clGetDeviceInfo(device, param, value.byteSize(), value, MemorySegment.NULL), "clGetDeviceInfo");
            return value.getString(0).strip();
        }
    }

    /** A numeric device property of {@code bytes} (4 or 8) bytes, unsigned. */
    static long deviceNumber(MemorySegment device, int param, int bytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(8);
            check(CL.clGetDeviceInfo(device, param, bytes, value, MemorySegment.NULL), "clGetDeviceInfo");
            return bytes == 4 ? value.get(ValueLayout.JAVA_INT, 0) & 0xFFFF_FFFFL : value.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    static long[] deviceSizes(MemorySegment device, int param, int count) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG, count);
            check(CL.clGetDeviceInfo(device, param, value.byteSize(), value, MemorySegment.NULL), "clGetDeviceInfo");
            return value.toArray(ValueLayout.JAVA_LONG);
        }
    }

    static String kernelArgString(MemorySegment kernel, int index, int param) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
            check(CL.clGetKernelArgInfo(kernel, index, param, 0, MemorySegment.NULL, size), "clGetKernelArgInfo");
            MemorySegment value = arena.allocate(Math.max(1, size.get(ValueLayout.JAVA_LONG, 0)));
            check(CL.clGetKernelArgInfo(kernel, index, param, value.byteSize(), value, MemorySegment.NULL), "clGetKernelArgInfo");
            return value.getString(0).strip();
        }
    }

    static int kernelArgInt(MemorySegment kernel, int index, int param) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(8);
            check(CL.clGetKernelArgInfo(kernel, index, param, 8, value, MemorySegment.NULL), "clGetKernelArgInfo");
            return value.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** A human size: {@code 64 MiB}, {@code 1.5 GiB}, {@code 4096 bytes}. */
    static String bytes(long n) {
        if (n >= 1L << 30) return String.format(java.util.Locale.ROOT, "%.1f GiB", n / (double) (1L << 30));
        if (n >= 1L << 20) return String.format(java.util.Locale.ROOT, "%.1f MiB", n / (double) (1L << 20));
        if (n >= 1L << 10) return String.format(java.util.Locale.ROOT, "%.1f KiB", n / 1024.0);
        return n + " bytes";
    }
}
