package dev.panamax.cli.demo;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.panamax.cli.Main;
import dev.panamax.tensor.Npy;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** {@code panamax demo mlp}: short trainings end to end (accuracy, JSON, PNG) and every kind of bad {@code --data} file. */
class MlpDemoCommandTest {
    /** Small enough to train in a few seconds on the reference backend, large enough to learn the spiral. */
    static final String[] SHORT = {"--steps", "80", "--hidden", "48", "--lr", "0.01"};

    record Run(int exit, String out, String err) {}

    static Run demo(String... args) {
        return run(with(new String[] {"demo", "mlp"}, args));
    }

    /** Runs {@code panamax ARGS} in this JVM, capturing its output. */
    static Run run(String... all) {
        PrintStream out = System.out, err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Main.run(all);
            return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    static String[] with(String[] base, String... more) {
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void trainsTheSpiralAndWritesTheSummaryAndThePicture(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("plots/demo.png"), json = dir.resolve("demo.json");
        Run r = demo(with(SHORT, "--backend", "reference", "--plot", png.toString(), "--json", json.toString()));
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("3-class spiral"), r.out());
        assertTrue(r.out().contains("handles leaked 0"), r.out());
        assertTrue(r.err().contains("80/80"), "the progress bar reaches the last step:\n" + r.err());

        Map<String, Object> summary = JSON.std.mapFrom(Files.readString(json));
        double accuracy = ((Number) summary.get("accuracy")).doubleValue();
        assertTrue(accuracy >= 0.9, "validation accuracy " + accuracy + "\n" + r.out());
        assertTrue(((Number) summary.get("stepsPerSecond")).doubleValue() > 0, summary.toString());
        assertEquals("reference", summary.get("backend"));
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = (Map<String, Object>) summary.get("statistics");
        assertEquals(0, ((Number) stats.get("handlesLeaked")).intValue(), stats.toString());
        assertEquals(0, ((Number) stats.get("releasedByGc")).intValue(), stats.toString());
        assertTrue(((Number) stats.get("peakNativeBytes")).longValue() > 0, stats.toString());

        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "not a readable PNG: " + png);
        assertEquals(1280, image.getWidth(), "loss panel and decision-region panel side by side");
        assertTrue(distinctColors(image) > 20, "the picture has content");
    }

    @Test
    void reportsTheNativeBackendsCrossingsAndZeroCopiedBytes(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("cpu.json");
        Run r = demo(with(SHORT, "--backend", "cpu", "--json", json.toString()));
        assertEquals(0, r.exit(), r.err() + r.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = (Map<String, Object>) JSON.std.mapFrom(Files.readString(json)).get("statistics");
        long crossings = ((Number) stats.get("nativeCrossings")).longValue();
        assertTrue(crossings > 0, stats.toString());
        assertTrue(((Number) stats.get("kernelsPerCrossing")).doubleValue() >= 1, stats.toString());
        // at least the first layer's weights (2 x 48 floats) are read by every step's forward pass
        assertTrue(((Number) stats.get("bytesZeroCopied")).longValue() > 80L * 2 * 48 * 4, stats.toString());
        assertEquals(0, ((Number) stats.get("handlesLeaked")).intValue(), stats.toString());
        assertTrue(r.out().contains("GB zero-copied"), r.out());
        // 80 steps of the same shapes: after the first steps every tensor's storage is a reused block
        double hitRate = ((Number) stats.get("poolHitRate")).doubleValue();
        assertTrue(hitRate > 0.9 && hitRate <= 1, stats.toString());
        assertTrue(r.out().contains("pool hit rate "), r.out());
    }

    @Test
    void trainsOnAnNpzArchiveWithMoreFeatures(@TempDir Path dir) throws IOException {
        // four features, the class decided by the sign of the first two (the last two are noise)
        int n = 400, d = 4;
        var rng = new SplittableRandom(3);
        float[] x = new float[n * d];
        long[] y = new long[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) x[i * d + j] = (float) rng.nextGaussian();
            y[i] = (x[i * d] > 0 ? 1 : 0) + (x[i * d + 1] > 0 ? 2 : 0);
        }
        Path npz = dir.resolve("quadrants.npz"), png = dir.resolve("q.png"), json = dir.resolve("q.json");
        write(npz, Map.of("x", () -> Tensor.of(x, n, d), "y", () -> Tensor.of(y, n)));
        Run r = demo(with(SHORT, "--backend", "reference", "--data", npz.toString(), "--plot", png.toString(), "--json", json.toString()));
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("400 points, 4 features, 4 classes -> 320 training, 80 validation"), r.out());
        assertTrue(r.out().contains("decision regions need 2 features"), r.out());
        Map<String, Object> summary = JSON.std.mapFrom(Files.readString(json));
        assertEquals(4, ((Number) summary.get("features")).intValue());
        assertTrue(((Number) summary.get("accuracy")).doubleValue() >= 0.8, summary.toString());
        assertEquals(640, ImageIO.read(png.toFile()).getWidth(), "the loss panel alone");
    }

    @Test
    void badDataFilesGetClearErrors(@TempDir Path dir) throws IOException {
        float[] x = {0, 1, 1, 0, 0.5f, 0.5f};
        long[] y = {0, 1, 0};
        expectError(dir.resolve("missing.npz"), "no such file");
        expectError(Files.writeString(dir.resolve("text.npz"), "x,y\n1,2\n"), "cannot be read as a NumPy .npz archive: not a .npz (zip) archive");
        expectError(archive(dir, "onlyx", Map.of("x", () -> Tensor.of(x, 3, 2))), "has no array named 'y'");
        expectError(archive(dir, "intx", Map.of("x", () -> Tensor.of(new int[] {0, 1, 1, 0, 1, 1}, 3, 2), "y", () -> Tensor.of(y))),
                "x is i32");
        expectError(archive(dir, "floaty", Map.of("x", () -> Tensor.of(x, 3, 2), "y", () -> Tensor.of(new float[] {0, 1, 0}))),
                "expected integer class labels");
        expectError(archive(dir, "flatx", Map.of("x", () -> Tensor.of(x), "y", () -> Tensor.of(y))), "expected (n, d)");
        expectError(archive(dir, "shorty", Map.of("x", () -> Tensor.of(x, 3, 2), "y", () -> Tensor.of(new long[] {0, 1}))),
                "one label per row of x");
        expectError(archive(dir, "nan", Map.of("x", () -> Tensor.of(new float[] {0, 1, Float.NaN, 0, 0.5f, 0.5f}, 3, 2), "y", () -> Tensor.of(y))),
                "x[1, 0] is NaN");
        expectError(archive(dir, "negative", Map.of("x", () -> Tensor.of(x, 3, 2), "y", () -> Tensor.of(new long[] {0, -1, 1}))),
                "y[1] is -1");
        expectError(archive(dir, "oneclass", Map.of("x", () -> Tensor.of(x, 3, 2), "y", () -> Tensor.of(new long[] {0, 0, 0}))),
                "a single class");
    }

    @Test
    void badOptionsAreRefusedBeforeTraining() {
        Run r = demo("--steps", "0");
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().contains("steps=0: expected at least 1"), r.err());
        Run unknown = demo("--steps", "5", "--backend", "nosuch");
        assertEquals(1, unknown.exit(), unknown.out());
        assertTrue(unknown.err().contains("no tensor backend named 'nosuch'"), unknown.err());
    }

    @Test
    void aThreadCountLibgompCannotStartIsRefusedBeforeTraining() {
        Run r = demo("--steps", "5", "--threads", "100000");
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().contains("--threads=100000: expected 1 to " + dev.panamax.tensor.cpu.ThreadBudget.maximum() + " threads"), r.err());
        assertFalse(r.out().contains("accuracy"), "nothing was trained: " + r.out());
    }

    @Test
    void aThreadCountInRangeIsTheBudgetTheBackendComputesWith() throws Exception {
        // a JVM of its own: the budget is fixed when the cpu backend first loads
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "demo", "mlp", "--steps", "5", "--hidden", "8", "--backend", "cpu", "--threads", "2");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, java.util.concurrent.TimeUnit.MINUTES), "the child finished");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("backend   cpu, 2 threads"), out);
        assertFalse(out.contains("--threads 2 asked"), out);
    }

    @Test
    void outputOntoADirectoryOrADeviceIsRefusedAndDeletesNothing(@TempDir Path dir) throws Exception {
        Path directory = Files.createDirectory(dir.resolve("plot.png"));
        Files.writeString(directory.resolve("mine.txt"), "keep");
        Run r = demo(with(SHORT, "--backend", "reference", "--plot", directory.toString()));
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().contains("--plot=" + directory + ": it exists and is a directory"), r.err());
        assertEquals("keep", Files.readString(directory.resolve("mine.txt")));

        Path fifo = dir.resolve("summary.json");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Run device = demo(with(SHORT, "--backend", "reference", "--json", fifo.toString()));
        assertEquals(2, device.exit(), device.out());
        assertTrue(device.err().contains("--json=" + fifo + ": it exists and is not a regular file"), device.err());
        assertTrue(Files.exists(fifo, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(fifo), "the fifo is still there");
    }

    @Test
    void aModelTooBigForATensorEndsInOneLineNamingTheOption() {
        Run r = demo("--steps", "1", "--backend", "reference", "--hidden", "100000000");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("panamax demo: training stopped: uniform: shape (100000000, 100000000) has 10000000000000000 elements")
                && r.err().contains("expected a smaller --hidden or --batch"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void plotAndJsonOntoOneFileAreRefusedBeforeTraining(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("out.json"), "mine");
        Run r = demo(with(SHORT, "--backend", "reference", "--plot", file.toString(), "--json", dir.resolve("x/../out.json").toString()));
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().contains("are the same file; expected two different files"), r.err());
        assertFalse(r.out().contains("accuracy  "), "refused before training: " + r.out());
        assertEquals("mine", Files.readString(file));
    }

    @Test
    void aFailedWriteKeepsTheSummaryOnTheTerminalAndExitsNonZero(@TempDir Path dir) throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "not a directory");
        Path png = notADirectory.resolve("demo.png"), json = dir.resolve("demo.json");
        Run r = demo(with(SHORT, "--backend", "reference", "--plot", png.toString(), "--json", json.toString()));
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("accuracy  ") && r.out().contains("bridge    "), "the summary is printed: " + r.out());
        assertTrue(r.err().contains("panamax demo: cannot create the directory " + notADirectory), r.err());
        assertTrue(r.out().contains("json      " + json), "the other file is still written: " + r.out());
        assertTrue(((Number) JSON.std.mapFrom(Files.readString(json)).get("accuracy")).doubleValue() > 0);
        assertEquals("not a directory", Files.readString(notADirectory));
    }

    @Test
    void aFullDiskLosesNeitherTheSummaryNorTheOldPicture(@TempDir Path dir) throws Exception {
        Path png = Files.write(dir.resolve("old.png"), new byte[] {1, 2, 3});
        // a 16 KiB file size limit: the PNG (tens of KiB) cannot be written, as on a full disk
        List<String> childCommand = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "demo", "mlp"));
        childCommand.addAll(List.of(with(SHORT, "--backend", "reference", "--plot", png.toString())));
        StringBuilder command = new StringBuilder("ulimit -f 16; exec");
        for (String a : childCommand) command.append(" '").append(a.replace("'", "'\\''")).append('\'');
        Path out = dir.resolve("stdout"), err = dir.resolve("stderr");
        Process p = new ProcessBuilder("bash", "-c", command.toString()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES), "the child finished");
        String stdout = Files.readString(out), stderr = Files.readString(err);
        assertEquals(2, p.exitValue(), stdout + stderr);
        assertTrue(stdout.contains("accuracy  ") && stdout.contains("speed     "), "the summary is printed: " + stdout);
        assertTrue(stderr.contains("panamax demo: cannot write " + png), stderr);
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(png), "the old file is left as it was");
        try (var files = Files.list(dir)) {
            assertEquals(Set.of("old.png", "stdout", "stderr"), files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toSet()),
                    "no temporary file is left");
        }
    }

    private static void expectError(Path file, String expected) {
        Run r = demo("--steps", "5", "--data", file.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("panamax demo: " + file + ": "), "names the file: " + r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
    }

    private static Path archive(Path dir, String name, Map<String, java.util.function.Supplier<Tensor>> arrays) throws IOException {
        Path file = dir.resolve(name + ".npz");
        write(file, arrays);
        return file;
    }

    private static void write(Path file, Map<String, java.util.function.Supplier<Tensor>> arrays) throws IOException {
        try (var _ = TensorScope.open()) {
            Map<String, Tensor> made = new LinkedHashMap<>();
            arrays.forEach((k, v) -> made.put(k, v.get()));
            Npy.writeNpz(file, made);
        }
    }

    private static int distinctColors(BufferedImage image) {
        Set<Integer> colors = new HashSet<>();
        for (int yy = 0; yy < image.getHeight(); yy += 4) {
            for (int xx = 0; xx < image.getWidth(); xx += 4) colors.add(image.getRGB(xx, yy));
        }
        return colors.size();
    }
}
