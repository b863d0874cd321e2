package dev.panamax.core.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.*;

/** Files are replaced whole or not at all, and what is not a regular file is never replaced. */
class AtomicFileTest {
    @Test
    void writesAndReplacesWholeFiles(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub/out.txt");
        AtomicFile.write(file, "one".getBytes());
        assertEquals("one", Files.readString(file));
        AtomicFile.write(file, out -> out.write("two".getBytes()));
        assertEquals("two", Files.readString(file));
        try (var listing = Files.list(file.getParent())) {
            assertEquals(1, listing.count(), "a temporary file stayed behind");
        }
    }

    @Test
    void unchangedBytesLeaveTheFileUntouched(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("same.txt");
        AtomicFile.write(file, "same".getBytes());
        FileTime old = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
        Files.setLastModifiedTime(file, old);
        AtomicFile.write(file, "same".getBytes());
        assertEquals(old, Files.getLastModifiedTime(file));
    }

    @Test
    void aFailingWriterLeavesTheOldFileAndNoTemporary(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kept.txt");
        Files.writeString(file, "old");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> AtomicFile.write(file, out -> {
            out.write("half".getBytes());
            throw new IOException("No space left on device");
        }));
        assertTrue(e.getMessage().contains("kept.txt") && e.getMessage().contains("No space left on device"), e.getMessage());
        assertEquals("old", Files.readString(file));
        try (var listing = Files.list(dir)) {
            assertEquals(1, listing.count(), "a temporary file stayed behind");
        }
    }

    @Test
    void aDirectoryOrDeviceIsNeverReplaced(@TempDir Path dir) throws Exception {
        Path target = Files.createDirectory(dir.resolve("plot.png"));
        Files.writeString(target.resolve("inside"), "mine");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> AtomicFile.write(target, "x".getBytes()));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
        assertTrue(Files.isDirectory(target));
        assertEquals("mine", Files.readString(target.resolve("inside")));

        Path devNull = Path.of("/dev/null");
        if (Files.exists(devNull)) {
            UncheckedIOException d = assertThrows(UncheckedIOException.class, () -> AtomicFile.write(devNull, "x".getBytes()));
            assertTrue(d.getMessage().contains("not a regular file"), d.getMessage());
        }
    }
}
