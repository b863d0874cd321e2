package dev.panamax.cli;

import java.nio.file.Path;

/**
 * The directory the user ran a command from. The {@code ./panamax} launcher changes into the
 * checkout to build and run, and passes the directory it was started from in
 * {@code PANAMAX_WORKDIR}; without it (a command run directly) it is the JVM's own. Every path a user
 * gives a command is theirs, so a relative one resolves against this directory.
 *
 * <pre>{@code
 * // cd ~/work && /opt/panamax/panamax bindgen zlib.yaml --out gen
 * Path out = WorkingDirectory.resolve(Path.of("gen"));    // ~/work/gen, not /opt/panamax/gen
 * }</pre>
 */
final class WorkingDirectory {
    /** The environment variable the launcher sets. */
    static final String VARIABLE = "PANAMAX_WORKDIR";

    private WorkingDirectory() {}

    /** The user's directory: {@code PANAMAX_WORKDIR} when set and not empty, else the JVM's working directory. */
    static Path get() {
        String dir = System.getenv(VARIABLE);
        return Path.of(dir == null || dir.isEmpty() ? System.getProperty("user.dir") : dir).toAbsolutePath();
    }

    /** {@code path} as the user meant it: itself when absolute, else resolved against {@link #get()}. */
    static Path resolve(Path path) {
        return path.isAbsolute() ? path : get().resolve(path).normalize();
    }
}
