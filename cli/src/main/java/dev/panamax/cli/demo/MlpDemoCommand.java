package dev.panamax.cli.demo;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.panamax.core.io.AtomicFile;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.opencl.KernelBuildException;
import dev.panamax.tensor.opencl.OpenClTensorBackend;
import dev.panamax.tensor.opencl.OpenClTensorException;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.Device;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code panamax demo mlp}: trains an MLP on a generated 3-class spiral (or on {@code --data FILE.npz})
 * with Panamax tensors, showing a progress bar, then prints the validation accuracy, the speed and
 * the bridge's own statistics; {@code --plot} draws the loss curve and the decision regions,
 * {@code --json} writes the summary. {@code --backend opencl} trains on an OpenCL device
 * ({@code --device} picks which); the first lines name the backend and the device it trains on. The summary is printed before any file is written, and every
 * file is written atomically ({@link AtomicFile}): a path that is a directory or a device is refused
 * before training, and a write that fails (a full disk) names the file, leaves what was there and
 * ends with exit code 2.
 */
// the first line is the summary in the command list; picocli wraps each line to the terminal
@Command(name = "mlp", sortOptions = false, description = {
        "Train a small neural network with Panamax tensors and watch it learn.",
        "An MLP on a generated 3-class spiral (nothing is downloaded), or on your own data (--data FILE.npz)."
                + " Prints validation accuracy, steps/s and the bridge's statistics (native crossings, kernels per"
                + " crossing, bytes zero-copied, handles leaked)."})
public final class MlpDemoCommand implements Callable<Integer> {
    /** Validation accuracy the default run reaches on the spiral (the README promises it). */
    static final double SPIRAL_TARGET = 0.95;

    @Option(names = "--backend", paramLabel = "NAME",
            description = "Tensor backend: reference (pure Java), cpu (native kernels) or opencl (an OpenCL device: "
                    + "generated kernels, CLBlast products). Default: the best available (./panamax info lists them).")
    String backend;

    @Option(names = "--device", paramLabel = "INDEX|NAME",
            description = "The OpenCL device --backend opencl trains on: its index or a part of its name, as ./panamax info "
                    + "lists them (sets panamax.tensor.device). Default: the first GPU, else the first device.")
    String device;

    @Option(names = "--steps", paramLabel = "N", defaultValue = "500", description = "Training steps (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--threads", paramLabel = "N",
            description = "Threads the native kernels compute on, 1 to 4 per available processor "
                    + "(default: the process's thread budget, panamax.threads).")
    Integer threads;

    @Option(names = "--data", paramLabel = "FILE.npz",
            description = "Train on your data: a NumPy archive with a float array x (n, d) and an integer array y of n labels "
                    + "(np.savez(FILE, x=x, y=y)). Default: the generated spiral.")
    Path data;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "256", description = "Batch size (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--hidden", paramLabel = "N", defaultValue = "256", description = "Units in each of the two hidden layers (default: ${DEFAULT-VALUE}).")
    int hidden;

    @Option(names = "--lr", paramLabel = "RATE", defaultValue = "0.003", description = "Adam's learning rate (default: ${DEFAULT-VALUE}).")
    double learningRate;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed of the data, split, weights and batches (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Write the loss curve and the decision regions as a PNG.")
    Path plot;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the summary as JSON (accuracy, stepsPerSecond, the statistics).")
    Path json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The setting the opencl backend reads its device from, when it is first made. */
    static final String DEVICE_PROPERTY = dev.panamax.tensor.opencl.OpenClTensorSettings.DEVICE.name();

    /** Rows held out for validation. */
    static final double VALIDATION_FRACTION = 0.2;

    @Override
    public Integer call() {
        PrintStream out = System.out, err = System.err;
        TrainingSettings settings;
        try {
            settings = new TrainingSettings(steps, batch, hidden, learningRate, seed, Math.min(steps, 30));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        DemoOptions.applyThreads(spec, threads);
        if (device != null) {
            if (device.isBlank()) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--device is empty; expected an OpenCL device's index or a part of its name (./panamax info lists them)");
            }
            // read once, when the opencl backend is first made
            System.setProperty(DEVICE_PROPERTY, device.strip());
        }
        DemoOptions.refuseNonRegular(spec, "--plot", plot);
        DemoOptions.refuseNonRegular(spec, "--json", json);
        refuseSameFile(plot, json);

        LabeledData all;
        try {
            all = data == null ? LabeledData.spirals(seed) : LabeledData.load(data);
        } catch (DataFileException e) {
            err.println("panamax demo: " + e.getMessage());
            return 1;
        }
        DemoOptions.Selected chosen = DemoOptions.selectBackend(backend, err);
        if (chosen == null) return 1;
        Backend selected = chosen.backend();
        OpenClTensorBackend made = chosen.madeForTheRun();
        try (Backends.Selection _ = Backends.using(selected)) {
            if (device != null && selected.device().isHost()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--device=" + device + ": the " + selected.name()
                        + " backend computes in host memory and has no devices to choose; expected --backend opencl");
            }
            return train(all, settings, selected, made == null ? () -> {} : made::close);
        } finally {
            if (made != null) closeAfterFailure(made);
        }
    }

    /** Trains on {@code selected}, prints the summary, writes the files; {@code release} frees a backend made for the run. */
    private int train(LabeledData all, TrainingSettings settings, Backend selected, Runnable release) {
        PrintStream out = System.out, err = System.err;
        LabeledData.Split split = all.split(VALIDATION_FRACTION, seed);
        out.printf(Locale.ROOT, "data      %s: %d points, %d features, %d classes -> %d training, %d validation%n",
                all.description(), all.n(), all.d(), all.classes(), split.train().n(), split.validation().n());
        out.printf(Locale.ROOT, "model     MLP %d-%d-%d-%d (ReLU), Adam lr %s, batch %d, %d steps%n",
                all.d(), hidden, hidden, all.classes(), learningRate, Math.min(batch, split.train().n()), steps);
        if (selected instanceof OpenClTensorBackend opencl) {
            out.printf(Locale.ROOT, "backend   %s, generated kernels, matrix products %s%n", selected.name(),
                    opencl.usesClBlast() ? "on CLBlast" : "on its own tiled kernel (CLBlast is not installed)");
        } else {
            out.printf(Locale.ROOT, "backend   %s, %d thread%s%n", selected.name(), selected.threads(), selected.threads() == 1 ? "" : "s");
        }
        out.println("training on " + placeOf(selected));
        if (threads != null && selected.device().isHost() && selected.threads() != threads) {
            out.printf(Locale.ROOT, "          (--threads %d asked; the %s backend's thread budget was fixed at %d when it loaded)%n",
                    threads, selected.name(), selected.threads());
        }
        out.flush();

        BridgeStats.Start start = BridgeStats.start(selected);
        double accuracy, stepsPerSecond, seconds;
        long right;
        TrainingRun trained;
        try (TrainingProgress progress = new TrainingProgress(steps, err)) {
            trained = Trainer.train(split, settings, progress);
        } catch (dev.panamax.tensor.TensorException | OutOfMemoryError e) {
            // a model or batch too big for a tensor or for native memory: said in one line, not as a stack trace
            err.println("panamax demo: training stopped: " + e.getMessage() + " (the model has two " + hidden + "x" + hidden
                    + " weight matrices; expected a smaller --hidden or --batch)");
            return 1;
        } catch (OpenClTensorException | KernelBuildException e) {
            // the device failed a command or could not compile a kernel: the exception names both
            err.println("panamax demo: training stopped on " + placeOf(selected) + ": " + e.getMessage());
            return 1;
        }
        BufferedImage picture = null;
        try (TrainingRun run = trained) {
            accuracy = run.finalAccuracy();
            right = Math.round(accuracy * split.validation().n());
            stepsPerSecond = run.stepsPerSecond();
            seconds = run.trainingSeconds();
            if (plot != null) picture = TrainingPlot.render(run, all, "Panamax demo: " + all.description());
        }
        BridgeStats stats = start.finish(release);

        // the summary reaches the terminal before any file is written: a failed write cannot lose it
        out.printf(Locale.ROOT, "accuracy  %.1f%% on validation (%d/%d)%s%n", 100 * accuracy, right, split.validation().n(),
                data == null ? (accuracy >= SPIRAL_TARGET ? "" : String.format(Locale.ROOT, "  [below the %.0f%% the defaults reach]", 100 * SPIRAL_TARGET)) : "");
        out.printf(Locale.ROOT, "speed     %.0f steps/s (%d steps in %.2f s of training)%n", stepsPerSecond, steps, seconds);
        out.println("bridge    " + describe(stats));
        out.flush();

        boolean written = true;
        if (plot != null) {
            BufferedImage image = picture;
            written &= writeFile("plot", plot, () -> TrainingPlot.write(plot, image),
                    TrainingPlot.drawsRegions(all) ? "" : " (loss and accuracy; decision regions need 2 features, the data has " + all.d() + ")");
        }
        if (json != null) {
            String text;
            try {
                text = JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT)
                        .asString(summary(all, split, settings, selected, accuracy, stepsPerSecond, seconds, stats)) + "\n";
            } catch (IOException e) {
                throw new UncheckedIOException("the summary cannot be written as JSON", e);
            }
            written &= writeFile("json", json, () -> AtomicFile.write(json, text.getBytes(StandardCharsets.UTF_8)), "");
        }
        return written ? 0 : 2;
    }

    /**
     * Closes a backend made for the run when training ended early (on success it was closed already:
     * closing is idempotent); a failure of its own is one more line, not a stack trace.
     */
    private static void closeAfterFailure(OpenClTensorBackend made) {
        try {
            made.close();
        } catch (RuntimeException e) {
            System.err.println("panamax demo: closing the " + made.name() + " backend: " + e.getMessage());
        }
    }


    /** {@code cpu (host memory)}, {@code opencl:0 (pthread-AMD EPYC 7B13)}: the backend and where its tensors live. */
    static String placeOf(Backend backend) {
        Device d = backend.device();
        return d.isHost() ? backend.name() + " (" + d.name() + ")" : d.toString();
    }

    /**
     * Writes one output file; prints its line on success, or on failure an error naming the file and
     * the reason (the file as it was is left in place). Returns whether it was written.
     */
    private static boolean writeFile(String label, Path file, Runnable write, String note) {
        try {
            write.run();
        } catch (UncheckedIOException e) {
            System.err.println("panamax demo: " + e.getMessage());
            return false;
        }
        System.out.printf(Locale.ROOT, "%-9s %s%s%n", label, file, note);
        return true;
    }

    /** Refuses, before training, --plot and --json naming one file (the JSON would replace the picture). */
    private void refuseSameFile(Path plot, Path json) {
        if (plot == null || json == null) return;
        boolean same = plot.toAbsolutePath().normalize().equals(json.toAbsolutePath().normalize());
        if (!same && Files.exists(plot) && Files.exists(json)) {
            try {
                same = Files.isSameFile(plot, json);
            } catch (java.io.IOException e) {
                // unreadable: the writes will say so
            }
        }
        if (same) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--plot=" + plot + " and --json=" + json
                    + " are the same file; expected two different files (the JSON would replace the picture; nothing was written)");
        }
    }

    static String describe(BridgeStats s) {
        StringBuilder b = new StringBuilder();
        if (s.crossings() >= 0) {
            b.append(String.format(Locale.ROOT, "native crossings %,d", s.crossings()));
            double perCrossing = s.kernelsPerCrossing();
            if (!Double.isNaN(perCrossing)) b.append(String.format(Locale.ROOT, ", %.1f kernels per crossing", perCrossing));
            if (s.zeroCopyBytes() >= 0) b.append(String.format(Locale.ROOT, ", %.2f GB zero-copied", s.zeroCopyBytes() / 1e9));
        } else if (s.commits() >= 0) {
            b.append(String.format(Locale.ROOT, "kernels %,d in %,d command buffers", Math.max(0, s.counter("kernels")), s.commits()));
            double perCommit = s.kernelsPerCommit();
            if (!Double.isNaN(perCommit)) b.append(String.format(Locale.ROOT, " (%.1f per command buffer)", perCommit));
            if (s.counter("clblastProducts") >= 0) b.append(String.format(Locale.ROOT, ", CLBlast products %,d", s.counter("clblastProducts")));
        } else {
            b.append("no native crossings (the ").append(s.backend()).append(" backend computes in Java, on native memory)");
        }
        if (!Double.isNaN(s.poolHitRate())) b.append(String.format(Locale.ROOT, ", pool hit rate %.1f%%", 100 * s.poolHitRate()));
        b.append(String.format(Locale.ROOT, ", peak native memory %.1f MiB", s.peakNativeBytes() / 1048576.0));
        b.append(String.format(Locale.ROOT, ", freed by the GC %d, handles leaked %d", s.releasedByGc(), s.handlesLeaked()));
        return b.toString();
    }

    private Map<String, Object> summary(LabeledData all, LabeledData.Split split, TrainingSettings settings, Backend selected,
                                        double accuracy, double stepsPerSecond, double seconds, BridgeStats stats) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("accuracy", accuracy);
        m.put("stepsPerSecond", stepsPerSecond);
        m.put("trainingSeconds", seconds);
        m.put("steps", settings.steps());
        m.put("backend", selected.name());
        m.put("threads", selected.threads());
        m.put("device", selected.device().toString());
        m.put("data", all.description());
        m.put("trainingRows", split.train().n());
        m.put("validationRows", split.validation().n());
        m.put("features", all.d());
        m.put("classes", all.classes());
        Map<String, Object> bridge = new LinkedHashMap<>();
        bridge.put("nativeCrossings", Math.max(0, stats.crossings()));
        double perCrossing = stats.kernelsPerCrossing();
        bridge.put("kernelsPerCrossing", Double.isNaN(perCrossing) ? null : perCrossing);
        bridge.put("bytesZeroCopied", Math.max(0, stats.zeroCopyBytes()));
        bridge.put("poolHitRate", Double.isNaN(stats.poolHitRate()) ? null : stats.poolHitRate());
        bridge.put("poolIdleBytes", stats.poolIdleBytes());
        bridge.put("peakNativeBytes", stats.peakNativeBytes());
        bridge.put("releasedByGc", stats.releasedByGc());
        bridge.put("handlesLeaked", stats.handlesLeaked());
        bridge.put("backendCounters", stats.counters());
        m.put("statistics", bridge);
        return m;
    }
}
