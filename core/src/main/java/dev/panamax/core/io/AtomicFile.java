package dev.panamax.core.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How Panamax writes every file it produces (generated sources, plots, JSON results, saved tensors and
 * parameters): atomically, and never over something it did not create. The bytes go to a temporary
 * file in the target's directory, which is then renamed over the target, so the target is the old
 * file or the new one, never a part of either. A full disk, a file size limit or a directory that
 * cannot be written leaves the old file as it was and fails with an {@link UncheckedIOException}
 * naming the file and the reason. A target that exists and is not a regular file (a directory, a
 * device node, a socket) is refused before anything is written: it is never deleted or replaced.
 *
 * <pre>{@code
 * AtomicFile.write(Path.of("loss.png"), out -> ImageIO.write(image, "png", out));
 * AtomicFile.write(Path.of("gen/ZlibApi.java"), source.getBytes(UTF_8)); // skipped when unchanged
 * // on a full disk: cannot write loss.png: No space left on device (the file as it was is left in place)
 * // onto a directory: cannot write out: it exists and is a directory, not a regular file (nothing was written)
 * }</pre>
 */
public final class AtomicFile {
    private AtomicFile() {}

    /** What writes a file's content to the stream it is given. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code bytes} to {@code file} unless it holds exactly them already (its modification time
     * then stays as it was); returns the file.
     */
    public static Path write(Path file, byte[] bytes) {
        try {
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) == bytes.length
                    && Arrays.equals(Files.readAllBytes(file), bytes)) {
                return file;
            }
        } catch (IOException unreadable) {
            // written again below; a file that cannot be replaced fails there, named
        }
        return write(file, out -> out.write(bytes));
    }

    /** Writes what {@code content} produces to {@code file}, atomically; returns the file. */
    public static Path write(Path file, Content content) {
        refuseNonRegular(file);
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
                content.writeTo(out);
            }
            refuseNonRegular(file); // it may have changed while the content was written
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

    private static void refuseNonRegular(Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(file)) return;
        String kind = Files.isDirectory(file) ? "a directory"
                : Files.isSymbolicLink(file) ? "a link to something that is not a regular file"
                : "not a regular file (a device, pipe or socket)";
        throw new UncheckedIOException("cannot write " + file + ": it exists and is " + kind
                + "; expected a regular file or no file (nothing was written)", new IOException(file + " is " + kind));
    }

    private static UncheckedIOException failed(String what, IOException e) {
        String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        if (e instanceof java.nio.file.FileAlreadyExistsException f) reason = f.getFile() + " exists and is not a directory";
        return new UncheckedIOException(what + ": " + reason + " (the file as it was is left in place)", e);
    }
}
