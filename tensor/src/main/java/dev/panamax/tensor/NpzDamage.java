package dev.panamax.tensor;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * What is wrong with a {@code .npz} file the zip reader refused: not a zip archive at all (a
 * {@code .npy} file, text, nothing), or an archive cut short, in which case the entries that are
 * complete and the one cut off are named (read from the front of the file, entry by entry).
 */
final class NpzDamage {
    private static final byte[] LOCAL_HEADER = {'P', 'K', 3, 4};
    private static final byte[] EMPTY_ARCHIVE = {'P', 'K', 5, 6};
    private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    private NpzDamage() {}

    /** The error to report for {@code file}, which the zip reader refused with {@code refusal}. */
    static IOException describe(Path file, ZipException refusal) {
        long size;
        byte[] start = new byte[6];
        int got;
        try (InputStream in = Files.newInputStream(file)) {
            size = Files.size(file);
            got = in.readNBytes(start, 0, start.length);
        } catch (IOException e) {
            return new IOException(file + ": cannot read it as a .npz archive: " + e.getMessage(), e);
        }
        if (size == 0) return new IOException(file + ": the file is empty; expected a .npz (zip) archive", refusal);
        if (startsWith(start, got, NPY_MAGIC)) {
            return new IOException(file + ": a .npy file, not a .npz archive; read it with Npy.load", refusal);
        }
        if (!startsWith(start, got, LOCAL_HEADER) && !startsWith(start, got, EMPTY_ARCHIVE)) {
            return new IOException(file + ": not a .npz (zip) archive: it starts with 0x"
                    + HexFormat.of().formatHex(start, 0, Math.min(got, 4)) + " at offset 0; expected 0x504b0304 ('PK\\3\\4'), as np.savez writes", refusal);
        }
        return new IOException(file + ": truncated or damaged .npz archive (" + size + " bytes): its directory, at the end of the file, "
                + "is missing or unreadable (" + refusal.getMessage() + "); " + entries(file), refusal);
    }

    /** The entries readable from the front of the archive, and where it breaks off. */
    private static String entries(Path file) {
        List<String> complete = new ArrayList<>();
        String broken = null;
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(file))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                String name = e.getName();
                try {
                    zip.transferTo(OutputStream.nullOutputStream());
                    complete.add(name);
                } catch (EOFException | ZipException cut) {
                    broken = "the entry " + name + " is cut off";
                    break;
                }
            }
        } catch (IOException e) {
            broken = "the next entry's header is cut off";
        }
        String whole = complete.isEmpty() ? "no entry is complete" : "complete entries: " + String.join(", ", complete);
        return whole + (broken == null ? "" : "; " + broken);
    }

    private static boolean startsWith(byte[] b, int length, byte[] prefix) {
        if (length < prefix.length) return false;
        for (int i = 0; i < prefix.length; i++) if (b[i] != prefix[i]) return false;
        return true;
    }
}
