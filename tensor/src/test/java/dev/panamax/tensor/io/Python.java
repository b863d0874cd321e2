package dev.panamax.tensor.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Python interpreter that imports numpy and safetensors: {@code python3} when it does, else a
 * virtual environment under {@code target/} with them installed by pip (when a package index can
 * be reached), else none.
 */
final class Python {
    private static final Path VENV = Path.of("target/safetensors-venv");

    private Python() {}

    static synchronized Path withSafetensors() {
        Path venvPython = VENV.resolve("bin/python").toAbsolutePath();
        if (Files.isExecutable(venvPython) && imports(venvPython.toString())) return venvPython;
        if (imports("python3")) return Path.of("python3");
        if (!run(List.of("python3", "-m", "venv", VENV.toString()), 120)) return null;
        if (!run(List.of(venvPython.toString(), "-m", "pip", "install", "-q", "numpy", "safetensors"), 300)) return null;
        return imports(venvPython.toString()) ? venvPython : null;
    }

    private static boolean imports(String python) {
        return run(List.of(python, "-c", "import numpy, safetensors.numpy"), 60);
    }

    private static boolean run(List<String> command, int seconds) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
