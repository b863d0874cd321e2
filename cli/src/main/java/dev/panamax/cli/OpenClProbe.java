package dev.panamax.cli;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Lists the OpenCL platforms and devices for {@code panamax info}, with a few hand-written FFM
 * downcalls into the ICD loader. It stands alone on purpose: the info command must work, and say
 * clearly what is missing, before any generated binding exists and on machines without OpenCL.
 */
final class OpenClProbe {
    /** The ICD loader's soname (Debian package ocl-icd-libopencl1). */
    static final String LOADER = "libOpenCL.so.1";

    private static final int CL_SUCCESS = 0;
    private static final int CL_DEVICE_NOT_FOUND = -1;
    private static final int CL_PLATFORM_NOT_FOUND_KHR = -1001;
    private static final int CL_PLATFORM_VERSION = 0x0901;
    private static final int CL_PLATFORM_NAME = 0x0902;
    private static final int CL_PLATFORM_VENDOR = 0x0903;
    private static final long CL_DEVICE_TYPE_ALL = 0xFFFFFFFFL;
    private static final int CL_DEVICE_TYPE = 0x1000;
    private static final int CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
    private static final int CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
    private static final int CL_DEVICE_NAME = 0x102B;
    private static final int CL_DEVICE_VENDOR = 0x102C;
    private static final int CL_DEVICE_VERSION = 0x102F;

    private final MethodHandle getPlatformIds;
    private final MethodHandle getPlatformInfo;
    private final MethodHandle getDeviceIds;
    private final MethodHandle getDeviceInfo;

    private OpenClProbe(SymbolLookup cl, String library) {
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor info = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
        getPlatformIds = linker.downcallHandle(symbol(cl, library, "clGetPlatformIDs"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
        getPlatformInfo = linker.downcallHandle(symbol(cl, library, "clGetPlatformInfo"), info);
        getDeviceIds = linker.downcallHandle(symbol(cl, library, "clGetDeviceIDs"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
        getDeviceInfo = linker.downcallHandle(symbol(cl, library, "clGetDeviceInfo"), info);
    }

    /** Probes the loader named {@code library} (a soname or a path); never throws for a missing library. */
    static OpenClReport probe(String library) {
        SymbolLookup cl;
        try {
            // global arena: the loader and the drivers it opens stay loaded; unloading them under
            // driver threads (PoCL keeps a pool) is not safe
            cl = SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            return new OpenClReport.NoLoader(library, "cannot load " + library);
        }
        OpenClProbe probe;
        try {
            probe = new OpenClProbe(cl, library);
        } catch (IllegalStateException e) {
            return new OpenClReport.NoLoader(library, e.getMessage());
        }
        try {
            return probe.platforms(library);
        } catch (Throwable t) {
            throw new IllegalStateException("OpenCL probe failed: library=" + library, t);
        }
    }

    /** The report as lines for {@code panamax info}: each starts with its label column. */
    static List<String> lines(OpenClReport report) {
        List<String> out = new ArrayList<>();
        switch (report) {
            case OpenClReport.NoLoader n -> out.add(String.format(
                    "opencl       not available: %s (install the ICD loader: apt-get install ocl-icd-libopencl1)", n.reason()));
            case OpenClReport.NoPlatform n -> out.add(String.format(
                    "opencl       %s found, but no OpenCL platform (clGetPlatformIDs status=%d%s; none registered in "
                            + "/etc/OpenCL/vendors?): install one, e.g. the CPU device: apt-get install pocl-opencl-icd",
                    n.library(), n.status(), n.status() == CL_PLATFORM_NOT_FOUND_KHR ? " CL_PLATFORM_NOT_FOUND_KHR" : ""));
            case OpenClReport.Found f -> {
                for (int p = 0; p < f.platforms().size(); p++) {
                    OpenClReport.Platform pl = f.platforms().get(p);
                    out.add(String.format("%-12s platform %d: %s (%s), %s", p == 0 ? "opencl" : "", p, pl.name(), pl.vendor(), pl.version()));
                    if (!pl.problem().isEmpty()) out.add("               " + pl.problem());
                    for (int d = 0; d < pl.devices().size(); d++) {
                        OpenClReport.Device dv = pl.devices().get(d);
                        out.add(String.format(Locale.ROOT, "               device %d.%d: %s %s (%s), %s, %d compute units, %s global memory",
                                p, d, dv.typeName(), dv.name(), dv.vendor(), dv.version(), dv.computeUnits(), bytes(dv.globalMemBytes())));
                    }
                    if (pl.devices().isEmpty() && pl.problem().isEmpty()) out.add("               no device");
                }
            }
        }
        return out;
    }

    private OpenClReport platforms(String library) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            int status = (int) getPlatformIds.invokeExact(0, MemorySegment.NULL, count);
            int n = status == CL_SUCCESS ? count.get(JAVA_INT, 0) : 0;
            if (n == 0) return new OpenClReport.NoPlatform(library, status);
            MemorySegment ids = arena.allocate(ADDRESS, n);
            status = (int) getPlatformIds.invokeExact(n, ids, MemorySegment.NULL);
            if (status != CL_SUCCESS) return new OpenClReport.NoPlatform(library, status);
            List<OpenClReport.Platform> platforms = new ArrayList<>();
            for (int i = 0; i < n; i++) platforms.add(platform(ids.getAtIndex(ADDRESS, i)));
            return new OpenClReport.Found(library, platforms);
        }
    }

    private OpenClReport.Platform platform(MemorySegment id) throws Throwable {
        String name = platformString(id, CL_PLATFORM_NAME);
        String vendor = platformString(id, CL_PLATFORM_VENDOR);
        String version = platformString(id, CL_PLATFORM_VERSION);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            int status = (int) getDeviceIds.invokeExact(id, CL_DEVICE_TYPE_ALL, 0, MemorySegment.NULL, count);
            if (status == CL_DEVICE_NOT_FOUND) return new OpenClReport.Platform(name, vendor, version, List.of(), "");
            if (status != CL_SUCCESS) {
                return new OpenClReport.Platform(name, vendor, version, List.of(), "clGetDeviceIDs failed: status=" + status);
            }
            int n = count.get(JAVA_INT, 0);
            MemorySegment ids = arena.allocate(ADDRESS, n);
            status = (int) getDeviceIds.invokeExact(id, CL_DEVICE_TYPE_ALL, n, ids, MemorySegment.NULL);
            if (status != CL_SUCCESS) {
                return new OpenClReport.Platform(name, vendor, version, List.of(), "clGetDeviceIDs failed: status=" + status);
            }
            List<OpenClReport.Device> devices = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                MemorySegment d = ids.getAtIndex(ADDRESS, i);
                devices.add(new OpenClReport.Device(deviceString(d, CL_DEVICE_NAME), deviceString(d, CL_DEVICE_VENDOR),
                        deviceString(d, CL_DEVICE_VERSION), deviceLong(d, CL_DEVICE_TYPE),
                        (int) deviceInt(d, CL_DEVICE_MAX_COMPUTE_UNITS), deviceLong(d, CL_DEVICE_GLOBAL_MEM_SIZE)));
            }
            return new OpenClReport.Platform(name, vendor, version, devices, "");
        }
    }

    private String platformString(MemorySegment platform, int param) throws Throwable {
        return string(getPlatformInfo, platform, param);
    }

    private String deviceString(MemorySegment device, int param) throws Throwable {
        return string(getDeviceInfo, device, param);
    }

    /** A string query: ask the size, then the bytes; an error shows as {@code ?(status=N)}. */
    private static String string(MethodHandle getInfo, MemorySegment object, int param) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            int status = (int) getInfo.invokeExact(object, param, 0L, MemorySegment.NULL, size);
            if (status != CL_SUCCESS) return "?(status=" + status + ")";
            long n = size.get(JAVA_LONG, 0);
            MemorySegment value = arena.allocate(Math.max(n, 1));
            status = (int) getInfo.invokeExact(object, param, n, value, MemorySegment.NULL);
            if (status != CL_SUCCESS) return "?(status=" + status + ")";
            return value.getString(0).strip();
        }
    }

    private long deviceLong(MemorySegment device, int param) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(JAVA_LONG);
            int status = (int) getDeviceInfo.invokeExact(device, param, JAVA_LONG.byteSize(), value, MemorySegment.NULL);
            return status == CL_SUCCESS ? value.get(JAVA_LONG, 0) : -1;
        }
    }

    private long deviceInt(MemorySegment device, int param) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(JAVA_INT);
            int status = (int) getDeviceInfo.invokeExact(device, param, JAVA_INT.byteSize(), value, MemorySegment.NULL);
            return status == CL_SUCCESS ? Integer.toUnsignedLong(value.get(JAVA_INT, 0)) : -1;
        }
    }

    private static MemorySegment symbol(SymbolLookup lookup, String library, String name) {
        return lookup.find(name).orElseThrow(() -> new IllegalStateException("symbol " + name + " missing from " + library));
    }

    static String bytes(long n) {
        if (n < 0) return "?";
        if (n >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", n / (double) (1L << 30));
        if (n >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", n / (double) (1L << 20));
        return n + " B";
    }
}
