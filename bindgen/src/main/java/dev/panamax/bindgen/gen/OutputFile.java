package dev.panamax.bindgen.gen;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How bindgen writes a generated file: only when its bytes change, and atomically. The bytes go to a
 * temporary file in the same directory, which is then renamed over the old one, so the file is the
 * old one or the new one, never a part of either: a full disk, a file size limit or a directory that
 * cannot be written leaves the old output as it was and fails with an {@link UncheckedIOException}
 * naming the file and the reason.
 *
 * <pre>{@code
 * OutputFile.write(Path.of("gen/java/org/example/zlib/ZlibApi.java"), source);
 * // on a full disk: cannot write gen/java/org/example/zlib/ZlibApi.java: No space left on device
 * //                 (the file as it was is left in place)
 * }</pre>
 */
final class OutputFile {
    private OutputFile() {}

    /** Writes {@code bytes} to {@code file} unless it holds exactly them already; returns the file. */
    static Path write(Path file, byte[] bytes) {
        try {
            if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes)) return file;
        } catch (IOException unreadable) {
            // written again below; a file that cannot be replaced either fails there, named
        }
        Path dir = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw failed("cannot create the directory " + dir + " for " + file, e);
        }
        // a short name of its own (a long file name plus a suffix could pass the 255 bytes a name may have)
        Path temporary = dir.resolve(".panamax-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        boolean moved = false;
        try {
            try (OutputStream out = Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                out.write(bytes);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
            return file;
        } catch (IOException e) {
            throw failed("cannot write " + file, e);
        } finally {
            if (!moved) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the failure that brought us here is the one to report
                }
            }
        }
    }

    private static UncheckedIOException failed(String what, IOException e) {
        String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        if (e instanceof java.nio.file.FileAlreadyExistsException f) reason = f.getFile() + " exists and is not a directory";
        return new UncheckedIOException(what + ": " + reason + " (the file as it was is left in place)", e);
    }
}
