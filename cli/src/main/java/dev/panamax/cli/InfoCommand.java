package dev.panamax.cli;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.DeviceInfo;
import dev.panamax.core.CoreLibrary;
import dev.panamax.core.CpuFeatures;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code panamax info}: the JDK, the native library in use, CPU features, OpenCL platforms and devices, OpenBLAS, compute devices. */
@Command(name = "info", description = "Print the JDK, the native library in use, the CPU features, the OpenCL platforms and devices, OpenBLAS and the compute devices.")
final class InfoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        Runtime.Version v = Runtime.version();
        System.out.printf("jdk          %s (%s, %s)%n", v, System.getProperty("java.vendor"), System.getProperty("java.home"));
        System.out.printf("os           %s %s (%s)%n", System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("os.arch"));
        System.out.printf("cpus         %d%n", Runtime.getRuntime().availableProcessors());
        System.out.printf("libpanamax   %s%n", CoreLibrary.path());
        CpuFeatures f = CoreLibrary.cpuFeatures();
        System.out.printf("cpu features %s%n", String.join(" ", f.names()));
        System.out.printf("fp16 path    %s%n", f.f16c() ? "F16C available" : "portable");
        OpenClProbe.lines(OpenClProbe.probe(OpenClProbe.LOADER)).forEach(System.out::println);
        System.out.println(OpenBlasProbe.line(OpenBlasProbe.LIBRARY));
        computeDevices();
        return 0;
    }

    /** The devices of the compute API, as {@code ComputeDevice.all()} finds them through its backends. */
    private static void computeDevices() {
        var devices = ComputeDevice.all();
        if (devices.isEmpty()) {
            String why;
            try {
                why = "default " + ComputeDevice.systemDefault().info().name();
            } catch (IllegalStateException e) {
                why = e.getMessage();
            }
            System.out.printf("compute      none: %s%n", why);
            return;
        }
        for (ComputeDevice d : devices) {
            DeviceInfo i = d.info();
            System.out.printf("compute      %s%s: %s (%s), %d compute units, %d MiB, threadgroups up to %d, fp16 %s, fp64 %s%s%n",
                    i.backend(), d == devices.getFirst() ? " (default)" : "", i.name(), i.vendor(), i.computeUnits(), i.memoryBytes() >> 20,
                    i.maxThreadsPerThreadgroup(), i.fp16() ? "yes" : "no", i.fp64() ? "yes" : "no", i.unifiedMemory() ? ", unified memory" : "");
        }
    }
}
