package dev.panamax.cli;

import dev.panamax.clblast.ClBlast;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.DeviceInfo;
import dev.panamax.core.CoreLibrary;
import dev.panamax.core.CpuFeatures;
import dev.panamax.core.SettingCatalogue;
import dev.panamax.tensor.opencl.OpenClTensorBackend;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code panamax info}: the JDK, the native library in use, CPU features, OpenBLAS, each compute
 * backend with the devices it reports or why it has none ({@link ComputeBackendStatus}), the tensor
 * backends (available or why not, the default) with the opencl backend's devices and whether CLBlast
 * is installed; with {@code --settings}, every
 * {@code panamax.*} setting instead ({@link SettingsReport}).
 */
@Command(name = "info", description = "Print the JDK, the native library in use, the CPU features, OpenBLAS, "
        + "the compute backends with their devices and the tensor backends.")
final class InfoCommand implements Callable<Integer> {
    @Option(names = "--settings", description = "List every panamax.* setting (-D system property) with its value, default and description.")
    boolean settings;

    @Override
    public Integer call() {
        if (settings) {
            SettingsReport.lines(SettingCatalogue.all(), SettingsReport.WIDTH).forEach(System.out::println);
            return 0;
        }
        Runtime.Version v = Runtime.version();
        System.out.printf("jdk          %s (%s, %s)%n", v, System.getProperty("java.vendor"), System.getProperty("java.home"));
        System.out.printf("os           %s %s (%s)%n", System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("os.arch"));
        System.out.printf("cpus         %d%n", Runtime.getRuntime().availableProcessors());
        System.out.printf("libpanamax   %s%n", CoreLibrary.path());
        CpuFeatures f = CoreLibrary.cpuFeatures();
        System.out.printf("cpu features %s%n", String.join(" ", f.names()));
        System.out.printf("fp16 path    %s%n", f.f16c() ? "F16C available" : "portable");
        System.out.println(OpenBlasProbe.line(OpenBlasProbe.LIBRARY));
        ComputeBackendStatus.lines(ComputeBackendStatus.all()).forEach(System.out::println);
        tensorBackends();
        return 0;
    }

    /**
     * Each tensor backend (available or why not, the default marked), the OpenCL devices the opencl
     * backend picks from by index or name, and whether its matrix products run on CLBlast. Nothing
     * is made: no backend is created, no device opened beyond listing it.
     */
    private static void tensorBackends() {
        for (TensorBackendStatus b : TensorBackendStatus.all()) {
            System.out.printf("tensor       %s%s: %s%n", b.name(), b.isDefault() ? " (default)" : "",
                    b.available() ? "available" : "unavailable: " + b.unavailableReason());
            if (b.name().equals(OpenClTensorBackend.NAME)) openClTensorDevices();
        }
    }

    /** The devices the opencl tensor backend picks from, by the index its device setting takes, and CLBlast. */
    private static void openClTensorDevices() {
        List<ComputeDevice> devices = ComputeDevice.all().stream().filter(d -> d.info().backend().equalsIgnoreCase("opencl")).toList();
        for (int i = 0; i < devices.size(); i++) {
            DeviceInfo d = devices.get(i).info();
            System.out.printf("               device %d: %s (%s)  [demo --device %d, -Dpanamax.tensor.device=%d]%n", i, d.name(), d.vendor(), i, i);
        }
        String clblast = ClBlast.unavailableReason();
        System.out.println(clblast == null
                ? "               CLBlast installed: matrix products run on CLBlast"
                : "               CLBlast not installed: " + clblast + " (matrix products run on the backend's own tiled kernel)");
    }
}
