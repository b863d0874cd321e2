package dev.panamax.cli.demo;

import dev.panamax.cli.TensorBackendStatus;
import dev.panamax.core.Settings;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.cpu.ThreadBudget;
import dev.panamax.tensor.opencl.OpenClTensorBackend;
import dev.panamax.tensor.opencl.OpenClTensorException;
import dev.panamax.tensor.opencl.OpenClTensorProvider;
import dev.panamax.tensor.spi.Backend;
import picocli.CommandLine;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** What every demo checks in its options before it trains: the thread budget and its output files. */
final class DemoOptions {
    private DemoOptions() {}

    /** Sets the process's thread budget from {@code --threads} (read once, when the native backend first loads). */
    static void applyThreads(CommandLine.Model.CommandSpec spec, Integer threads) {
        if (threads == null) return;
        try {
            ThreadBudget.check("--threads", threads);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        System.setProperty(ThreadBudget.PROPERTY, Integer.toString(threads));
    }

    /** Refuses an output path that exists and is not a regular file, before anything is trained or written. */
    static void refuseNonRegular(CommandLine.Model.CommandSpec spec, String option, Path file) {
        if (file == null || !Files.exists(file, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(file)) return;
        String kind = Files.isDirectory(file) ? "a directory" : "not a regular file (a device, pipe or socket)";
        throw new CommandLine.ParameterException(spec.commandLine(), option + "=" + file + ": it exists and is " + kind
                + "; expected a regular file or a new file's path (nothing was written or deleted)");
    }

    /**
     * The backend a demo trains on, and the opencl backend made for the run alone (null otherwise),
     * which the demo closes at its end so that its queue and the programs it compiled are released
     * and the leak count means what it says.
     */
    record Selected(Backend backend, OpenClTensorBackend madeForTheRun) {}

    /**
     * The backend {@code --backend} (else {@code panamax.tensor.backend}, else the default) names; null
     * after printing why it cannot run here to {@code err}, with every other backend and why.
     */
    static Selected selectBackend(String backend, PrintStream err) {
        String wanted = backend != null ? backend : Settings.value(Backends.PROPERTY);
        try {
            String unavailable = wanted == null ? null : unavailable(wanted);
            if (unavailable != null) {
                err.println("panamax demo: " + unavailable);
                return null;
            }
            if (OpenClTensorBackend.NAME.equals(wanted)) {
                var made = (OpenClTensorBackend) new OpenClTensorProvider().create();
                return new Selected(made, made);
            }
            return new Selected(backend == null ? Backends.current() : Backends.use(backend), null);
        } catch (IllegalArgumentException | IllegalStateException | OpenClTensorException e) {
            err.println("panamax demo: " + e.getMessage());
            return null;
        }
    }

    /**
     * Why the backend called {@code name} cannot run here, then every other backend and why each is
     * unavailable; null when it can run, or when there is none by that name ({@link Backends#use}
     * says so, listing them).
     */
    static String unavailable(String name) {
        var backends = TensorBackendStatus.all();
        for (TensorBackendStatus b : backends) {
            if (b.name().equals(name) && !b.available()) {
                var others = backends.stream().filter(o -> !o.name().equals(name)).toList();
                return "tensor backend '" + name + "' cannot run here: " + b.unavailableReason()
                        + "\n  the other tensor backends: " + TensorBackendStatus.describe(others);
            }
        }
        return null;
    }
}
