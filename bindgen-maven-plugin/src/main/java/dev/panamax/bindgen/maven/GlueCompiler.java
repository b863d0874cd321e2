package dev.panamax.bindgen.maven;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Compiles a binding's C glue into {@code libpanamax_glue_UNIT.so} so that the library records nothing of
 * the machine that built it: gcc runs in the directory of the generated C and is given file names, not
 * paths (the object's file symbol and any debug information name {@code pmx_thunks_UNIT.c} alone, with
 * {@code -ffile-prefix-map} for flags that add debug information); a bound library given as a path is
 * linked as {@code -L DIR -l:FILE}, so the glue needs it by its soname (or file name) and is found
 * wherever the target machine installed it; no run path is recorded.
 *
 * <pre>{@code
 * GlueCompiler gcc = new GlueCompiler("gcc", List.of("-O2", "-fPIC"), log::warn);
 * String failure = gcc.compile(cDir, "pmx_thunks_opencl.c", library, "-l:libOpenCL.so.1");   // null: compiled
 * }</pre>
 */
final class GlueCompiler {
    /** How this class runs gcc, kept in the glue's fingerprint so a library built another way is built again. */
    static final String RECIPE = "glue-recipe-2: cwd=c-dir, file names, -ffile-prefix-map, path as -L -l:";

    private final String compiler;
    private final List<String> cflags;
    private final Consumer<String> warnings;

    GlueCompiler(String compiler, List<String> cflags, Consumer<String> warnings) {
        this.compiler = compiler;
        this.cflags = List.copyOf(cflags);
        this.warnings = warnings;
    }

    /** The linker options that link {@code link}: a path becomes {@code -L DIR -l:FILE}; other options stay as they are. */
    static List<String> linkOptions(String link) {
        if (link.startsWith("-") || !link.contains("/")) return List.of(link);
        Path p = Path.of(link).toAbsolutePath();
        return List.of("-L" + p.getParent(), "-l:" + p.getFileName());
    }

    /** The command that compiles {@code source} (a file in {@code cDir}, where gcc runs) into {@code library}. */
    List<String> command(Path cDir, String source, Path library, String link) {
        List<String> cmd = new ArrayList<>();
        cmd.add(compiler);
        cmd.addAll(cflags);
        cmd.add("-ffile-prefix-map=" + cDir.toAbsolutePath() + "=.");
        cmd.addAll(List.of("-shared", "-Wl,-z,defs", "-I.", "-o", library.toAbsolutePath().toString(), source));
        cmd.addAll(linkOptions(link));
        return cmd;
    }

    /**
     * Compiles; null on success, else the command and what gcc printed.
     *
     * @throws IOException when the compiler cannot be started
     */
    String compile(Path cDir, String source, Path library, String link) throws IOException, InterruptedException {
        List<String> cmd = command(cDir, source, library, link);
        Process p = new ProcessBuilder(cmd).directory(cDir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        int status = p.waitFor();
        if (status == 0) {
            if (!output.isBlank()) warnings.accept(output.strip());
            return null;
        }
        return String.join(" ", cmd) + " (in " + cDir + ")\n" + output.strip() + " (exit " + status + ")";
    }
}
