package dev.panamax.cli;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.DeviceInfo;
import dev.panamax.compute.spi.ComputeBackend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * A compute backend as {@code panamax info} shows it: the devices it reports, or why it has none,
 * as the backend itself tells it (the OpenCL backend names the missing ICD loader or driver and the
 * package that installs it).
 *
 * <pre>{@code
 * ComputeBackendStatus.lines(ComputeBackendStatus.all())
 * // compute      opencl: 1 device
 * //                device 0 (default): cpu-haswell-Intel(R) Xeon(R) (GenuineIntel), 16 compute units, 15 GiB, ...
 * }</pre>
 *
 * @param name              the backend's name ({@code opencl})
 * @param devices           what it reports of each of its devices; empty when it has none
 * @param unavailableReason why it has no device; empty when it has some
 */
record ComputeBackendStatus(String name, List<DeviceInfo> devices, String unavailableReason) {
    ComputeBackendStatus {
        devices = List.copyOf(devices);
    }

    /** Every backend found with ServiceLoader, as the compute API finds them, in the same order. */
    static List<ComputeBackendStatus> all() {
        List<ComputeBackend> backends = new ArrayList<>();
        ServiceLoader.load(ComputeBackend.class, ComputeDevice.class.getClassLoader()).forEach(backends::add);
        if (backends.isEmpty()) ServiceLoader.load(ComputeBackend.class).forEach(backends::add);
        List<ComputeBackendStatus> out = new ArrayList<>();
        for (ComputeBackend b : backends) {
            out.add(new ComputeBackendStatus(b.name(), b.devices().stream().map(ComputeDevice::info).toList(), b.unavailableReason()));
        }
        return List.copyOf(out);
    }

    /**
     * The {@code compute} lines of {@code panamax info}: each backend with its devices (the first
     * device found is the default, {@code ComputeDevice.systemDefault()}), or why it has none.
     */
    static List<String> lines(List<ComputeBackendStatus> backends) {
        if (backends.isEmpty()) return List.of("compute      none: no backend found (add panamax-opencl to the class or module path)");
        List<String> out = new ArrayList<>();
        boolean defaultShown = false;
        for (ComputeBackendStatus b : backends) {
            if (b.devices().isEmpty()) {
                out.add(String.format("compute      %s: unavailable: %s", b.name(), b.unavailableReason().isEmpty() ? "no devices" : b.unavailableReason()));
                continue;
            }
            out.add(String.format("compute      %s: %d device%s", b.name(), b.devices().size(), b.devices().size() == 1 ? "" : "s"));
            for (int i = 0; i < b.devices().size(); i++) {
                DeviceInfo d = b.devices().get(i);
                out.add(String.format(Locale.ROOT, "               device %d%s: %s (%s), %d compute units, %s, threadgroups up to %d, fp16 %s, fp64 %s%s",
                        i, defaultShown ? "" : " (default)", d.name(), d.vendor(), d.computeUnits(), bytes(d.memoryBytes()),
                        d.maxThreadsPerThreadgroup(), d.fp16() ? "yes" : "no", d.fp64() ? "yes" : "no", d.unifiedMemory() ? ", unified memory" : ""));
                defaultShown = true;
            }
        }
        return List.copyOf(out);
    }

    /** {@code 4.0 GiB}, {@code 512.0 MiB}, {@code 4096 bytes}. */
    static String bytes(long n) {
        if (n >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", n / (double) (1L << 30));
        if (n >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", n / (double) (1L << 20));
        return n + " bytes";
    }
}
