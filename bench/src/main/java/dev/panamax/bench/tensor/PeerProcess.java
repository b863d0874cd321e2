package dev.panamax.bench.tensor;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PyTorch and NumPy in one Python child process ({@code peers.py}, shipped in the bench jar), asked
 * for one measurement at a time so their figures interleave with Panamax's in the same run.
 * The child runs with {@code threads} intra-op threads and every BLAS/OpenMP pool pinned to that
 * many threads, as Panamax's side is.
 *
 * <pre>{@code
 * try (var torch = PeerProcess.start(python, 1)) {
 *     double ms = torch.measure("spiral 200").get("torch.spiral.step.ms");
 * }
 * }</pre>
 */
public final class PeerProcess implements AutoCloseable {
    static final String SCRIPT = "python/peers.py";

    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final String versions;
    private final String device;
    private final String deviceName;
    private final Path script;

    private PeerProcess(Process process, String versions, String device, String deviceName, Path script) {
        this.process = process;
        this.out = process.inputReader(StandardCharsets.UTF_8);
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.versions = versions;
        this.device = device;
        this.deviceName = deviceName;
        this.script = script;
    }

    /** Starts the peers' script with {@code python} and waits until torch is imported. */
    public static PeerProcess start(Path python, int threads) throws IOException, InterruptedException {
        Path script = extractScript();
        ProcessBuilder pb = new ProcessBuilder(python.toString(), "-u", script.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Map<String, String> env = pb.environment();
        String n = Integer.toString(threads);
        env.put("PANAMAX_THREADS", n);
        for (String pool : List.of("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")) env.put(pool, n);
        Process p = pb.start();
        BufferedReader reader = p.inputReader(StandardCharsets.UTF_8);
        String first = reader.readLine();
        if (first == null) {
            p.waitFor(10, TimeUnit.SECONDS);
            throw new IOException(python + " " + script + " exited before it was ready"
                    + (p.isAlive() ? "" : " (exit " + p.exitValue() + ")") + "; its error output is above");
        }
        Map<String, Object> ready = JSON.std.mapFrom(first);
        if (!Boolean.TRUE.equals(ready.get("ready"))) {
            p.destroyForcibly();
            throw new IOException(script + " answered " + first + " instead of {\"ready\": true, ...}");
        }
        String device = String.valueOf(ready.getOrDefault("device", "cpu"));
        String deviceName = String.valueOf(ready.getOrDefault("device_name", device));
        return new PeerProcess(p, "torch " + ready.get("torch") + ", numpy " + ready.get("numpy")
                + ", " + ready.get("threads") + " thread(s), device figures on " + device
                + (device.equals(deviceName) ? "" : " (" + deviceName + ")"), device, deviceName, script);
    }

    /** Where the device commands ({@code dspiral}, {@code dadd}, ...) run: {@code cuda} or {@code cpu}. */
    public String device() {
        return device;
    }

    /** The peer device's name ({@code NVIDIA H200}, or {@code cpu}). */
    public String deviceName() {
        return deviceName;
    }

    /** {@code torch VERSION, numpy VERSION, N thread(s)} as the child reported them. */
    public String versions() {
        return versions;
    }

    /** Sends one command ({@code spiral 200}, {@code big 3}, {@code add16 100000}, {@code startup}) and returns its figures by name. */
    public Map<String, Double> measure(String command) throws IOException {
        in.write(command);
        in.write('\n');
        in.flush();
        String line = out.readLine();
        if (line == null) {
            throw new IOException("the Python peers exited during '" + command + "'; their error output is above");
        }
        Map<String, Object> reply = JSON.std.mapFrom(line);
        if (reply.get("error") != null) throw new IOException("the Python peers failed on '" + command + "': " + reply.get("error"));
        Map<String, Double> figures = new LinkedHashMap<>();
        if (!(reply.get("results") instanceof List<?> results)) {
            throw new IOException("the Python peers answered '" + command + "' with " + line + "; expected {\"results\": [...]}");
        }
        for (Object o : results) {
            if (o instanceof Map<?, ?> r && r.get("name") instanceof String name && r.get("value") instanceof Number value) {
                figures.put(name, value.doubleValue());
            } else {
                throw new IOException("the Python peers answered '" + command + "' with " + line
                        + "; expected results of {\"name\": ..., \"value\": number}");
            }
        }
        return figures;
    }

    /**
     * The script from the jar in a file of its own (the interpreter's folder may be a system one
     * that cannot be written), removed when the process is closed.
     */
    private static Path extractScript() throws IOException {
        Path target = Files.createTempFile("panamax-peers-", ".py");
        try (InputStream s = PeerProcess.class.getClassLoader().getResourceAsStream(SCRIPT)) {
            if (s == null) throw new IOException(SCRIPT + " is missing from the bench jar's resources");
            Files.copy(s, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            Files.deleteIfExists(target);
            throw e;
        }
        return target;
    }

    @Override
    public void close() throws IOException {
        try {
            if (process.isAlive()) {
                in.write("quit\n");
                in.flush();
            }
        } catch (IOException ignored) {
            // the child is already gone; nothing left to tell it
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            Files.deleteIfExists(script);
        }
    }
}
