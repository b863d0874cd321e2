package dev.panamax.cli;

import dev.panamax.core.CoreLibrary;
import dev.panamax.core.CpuFeatures;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code panamax info}: the JDK, the native library in use, CPU features, OpenCL platforms and devices, OpenBLAS. */
@Command(name = "info", description = "Print the JDK, the native library in use, the CPU features, the OpenCL platforms and devices, and OpenBLAS.")
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
        return 0;
    }
}
