package dev.panamax.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Extracts a shared library shipped as a class-path resource into a content-addressed cache
 * directory ({@code <cache>/<sha256>/<file name>}), once.
 *
 * <p>Two JVMs extracting the same library at the same moment are safe: each writes its own temp
 * file in the target directory and moves it into place with an atomic rename; the loser's rename
 * replaces an identical file, and a file already present with the right name is never rewritten
 * because its directory name is the hash of its content.
 */
public final class BundledLibrary {
    private BundledLibrary() {}

    /** The platform folder under {@code native/} in jars. */
    public static String platform() {
        String os = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch");
        String o = os.contains("linux") ? "linux" : os.contains("mac") ? "macos" : os.replace(' ', '_');
        String a = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return o + "-" + a;
    }

    /** The cache root: {@code -Dpanamax.cacheDir}, {@code $PANAMAX_CACHE}, {@code $XDG_CACHE_HOME/panamax}, {@code ~/.cache/panamax}. */
    public static Path defaultCacheDir() {
        String prop = System.getProperty("panamax.cacheDir");
        if (prop != null && !prop.isBlank()) return Path.of(prop);
        String env = System.getenv("PANAMAX_CACHE");
        if (env != null && !env.isBlank()) return Path.of(env);
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) return Path.of(xdg, "panamax");
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank() && Files.isWritable(Path.of(home))) return Path.of(home, ".cache", "panamax");
        return Path.of(System.getProperty("java.io.tmpdir"), "panamax-" + System.getProperty("user.name", "user"));
    }

    /**
     * Extracts {@code native/<platform>/<fileName>} found through {@code loader} into {@code cacheDir}.
     *
     * @throws IllegalStateException when the resource is not on the class path
     */
    public static Path extract(ClassLoader loader, String fileName, Path cacheDir) {
        String resource = "native/" + platform() + "/" + fileName;
        byte[] bytes;
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("bundled native library not found: resource=" + resource
                        + " platform=" + platform() + " (expected inside the panamax jar, or in target/classes after a build)");
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read bundled native library resource=" + resource, e);
        }
        return install(bytes, fileName, cacheDir);
    }

    /** Writes {@code bytes} to {@code cacheDir/<sha256>/fileName} unless already there; returns that path. */
    public static Path install(byte[] bytes, String fileName, Path cacheDir) {
        Path dir = cacheDir.resolve(sha256(bytes));
        Path target = dir.resolve(fileName);
        try {
            if (Files.isRegularFile(target) && Files.size(target) == bytes.length) return target;
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, fileName + ".", ".tmp");
            try {
                Files.write(tmp, bytes);
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract native library to " + target
                    + " (set -Dpanamax.cacheDir or PANAMAX_CACHE to a writable directory)", e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("SHA-256 is required on every JDK", e);
        }
    }
}
