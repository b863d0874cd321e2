package dev.panamax.bench.tensor;

import dev.panamax.bench.BenchSettings;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The Python side of the tensor suite: a virtual environment with {@code torch} and {@code numpy}
 * under the build directory ({@code target/pyenv} by default, {@code -Dpanamax.pyenv=DIR} to move
 * it), created and filled with pip on first use. Every step says what it does on stderr, and a
 * failure says what failed and the command that fixes it; the suite then reports Panamax's figures
 * alone. {@code -Dpanamax.python=PATH} uses an interpreter that already has both (a machine without
 * network, such as a GPU machine with PyTorch CUDA installed) and creates nothing.
 *
 * <pre>{@code
 * Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
 * try (var peers = PeerProcess.start(python.orElseThrow(), 1)) { ... }
 * }</pre>
 */
public final class PythonPeers {
    /** The packages the peers' script imports. */
    static final List<String> PACKAGES = List.of("torch", "numpy");

    /**
     * PyTorch's CPU-only wheels (a few hundred MB instead of several GB of CUDA libraries), consulted
     * beside the default index; where that host is unreachable pip warns and takes PyPI's wheel.
     */
    static final String TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu";

    private PythonPeers() {}

    /** {@code -Dpanamax.pyenv}, or {@code target/pyenv} under the working directory (the launcher runs in the project root). */
    public static Path defaultEnvironment() {
        return BenchSettings.pyenv();
    }

    /** The environment's interpreter. */
    static Path interpreter(Path env) {
        return env.resolve("bin").resolve("python");
    }

    /**
     * The interpreter of {@code env} with torch and numpy importable, creating the environment and
     * installing them when missing; empty (after saying why on stderr) when that fails.
     */
    public static Optional<Path> ensure(Path env) throws InterruptedException {
        String given = BenchSettings.PYTHON.raw();
        if (given != null && !given.isBlank()) {
            Path p = Path.of(given.strip());
            if (Files.isExecutable(p) && imports(p)) return Optional.of(p);
            return unavailable("-Dpanamax.python=" + given + " is not an interpreter that imports " + String.join(" and ", PACKAGES)
                    + " (check with: " + given + " -c 'import torch, numpy')");
        }
        Path python = interpreter(env);
        if (Files.isExecutable(python) && imports(python)) return Optional.of(python);
        try {
            if (!Files.isExecutable(python)) {
                String base = systemPython().orElse(null);
                if (base == null) {
                    return unavailable("no python3 on PATH; the torch and numpy figures need one with its venv module "
                            + "(Debian/Ubuntu: sudo apt-get install -y python3 python3-venv)");
                }
                say("creating a Python environment for the PyTorch and NumPy peers: " + env);
                int status = run(List.of(base, "-m", "venv", env.toString()));
                if (status != 0) {
                    return unavailable(base + " -m venv " + env + " failed (exit " + status + "); Debian/Ubuntu: "
                            + "sudo apt-get install -y python3-venv, then run the suite again");
                }
            }
            List<String> pip = new ArrayList<>(List.of(python.toString(), "-m", "pip", "install",
                    "--retries", "1", "--timeout", "60", "--extra-index-url", TORCH_CPU_INDEX));
            pip.addAll(PACKAGES);
            say("installing " + String.join(" and ", PACKAGES) + " into " + env
                    + " (once; PyTorch's CPU wheel is a few hundred MB): " + String.join(" ", pip));
            int status = run(pip);
            if (status != 0 || !imports(python)) {
                return unavailable("pip could not install " + String.join(", ", PACKAGES) + " into " + env
                        + " (exit " + status + "); its output is above. Fix the network or the index and run the suite "
                        + "again, or install them by hand: " + String.join(" ", pip));
            }
            say("torch and numpy are ready in " + env);
            return Optional.of(python);
        } catch (IOException e) {
            return unavailable("could not run Python for the peers: " + e.getMessage());
        }
    }

    private static Optional<Path> unavailable(String why) {
        say(why);
        say("the torch.* and numpy.* figures are left out of this run");
        return Optional.empty();
    }

    private static boolean imports(Path python) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(python.toString(), "-c", "import torch, numpy")
                    .redirectErrorStream(true).start();
            p.getInputStream().transferTo(OutputStream.nullOutputStream());
            return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static Optional<String> systemPython() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("python3", "python")) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(p)) return Optional.of(p.toString());
            }
        }
        return Optional.empty();
    }

    /** Runs {@code cmd} with its output on this process's stderr (pip draws its progress there). */
    private static int run(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        File stderr = new File("/dev/stderr");
        if (stderr.exists()) {
            // append: when stderr is a log file, opening it for writing must not truncate it
            pb.redirectOutput(ProcessBuilder.Redirect.appendTo(stderr)).redirectErrorStream(true);
            return pb.start().waitFor();
        }
        Process p = pb.redirectErrorStream(true).start();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(System.err);
        }
        return p.waitFor();
    }

    static void say(String message) {
        System.err.println("panamax bench: " + message);
    }
}
