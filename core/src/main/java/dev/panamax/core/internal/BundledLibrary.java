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
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/**
 * Extracts a shared library shipped as a class-path resource into a content-addressed cache
 * directory ({@code <cache>/<crc32c>-<length>/<file name>}, checked byte for byte when reused), once.
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
        String prop = dev.panamax.core.CoreSettings.CACHE_DIR.raw();
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

    /**
     * Writes {@code bytes} to {@code cacheDir/<key>/fileName} unless a file with exactly these bytes is
     * already there; returns that path. The key is {@link #quickKey} (cheap on the startup path: no
     * security provider to initialize); a different file already under that key (a CRC collision)
     * sends this library to {@code cacheDir/<sha256>/fileName} instead, so a file is never rewritten.
     */
    public static Path install(byte[] bytes, String fileName, Path cacheDir) {
        Path target = cacheDir.resolve(quickKey(bytes)).resolve(fileName);
        if (holds(target, bytes)) return target;
        if (Files.exists(target)) {
            // another extraction may have renamed its file into place since the first look: a file only
            // ever appears there whole, so a second look tells a collision from a race
            if (holds(target, bytes)) return target;
            target = cacheDir.resolve(sha256(bytes)).resolve(fileName);
            if (Files.isRegularFile(target) && sizeOf(target) == bytes.length) return target;
        }
        Path dir = target.getParent();
        try {
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

    /** The cache directory name for {@code bytes}: CRC-32C and length, both in hex. */
    static String quickKey(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        String hex = Long.toHexString(crc.getValue());
        return "00000000".substring(hex.length()) + hex + "-" + Integer.toHexString(bytes.length);
    }

    /** Whether {@code file} exists and holds exactly {@code bytes}. */
    private static boolean holds(Path file, byte[] bytes) {
        try {
            return Files.isRegularFile(file) && Files.size(file) == bytes.length && Arrays.equals(Files.readAllBytes(file), bytes);
        } catch (IOException e) {
            return false;
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
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
