package dev.panamax.tensor;

import dev.panamax.core.io.AtomicFile;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * NumPy's {@code .npy} and {@code .npz} files, so arrays move between Python and Java without
 * conversion code. Reading takes any little- or big-endian bool, integer or float array in C or
 * Fortran order: {@code f4}, {@code f2}, {@code i4}, {@code i8} load as they are, {@code f8}
 * becomes f32 (a finite value beyond f32's range is refused, not read as infinity), smaller
 * integers (and bool) i32, {@code u4} and {@code u8} i64 (a {@code u8} value beyond i64 is refused). A bool byte other
 * than 0 reads as 1 (True), as NumPy reads it. Archives may be stored or deflated
 * ({@code np.savez} or {@code np.savez_compressed}). Writing gives version 1.0 files NumPy reads back
 * exactly, each written atomically ({@link AtomicFile}: the old file or the new one, never a part).
 *
 * <p>Files are checked before memory is allocated: the header is parsed as the Python dict literal
 * it is, and the data a header claims must be in the file (or archive entry). Every error names the
 * file, the entry of an archive and the byte offset: a truncated archive, a file that is not a zip
 * archive, a header that claims more data than the file holds are {@link IOException}s that say so.
 *
 * <pre>{@code
 * Map<String, Tensor> data = Npy.readNpz(Path.of("spiral.npz"));   // np.savez(f, x=x, y=y)
 * Npy.save(Path.of("w.npy"), weights);                             // np.load("w.npy")
 * }</pre>
 */
public final class Npy {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** The most a deflated stream can expand (1032:1), with room for a small entry's overhead. */
    private static final long DEFLATE_MAX_RATIO = 1032;

    private Npy() {}

    /** Reads one {@code .npy} file onto the current backend. */
    public static Tensor load(Path file) throws IOException {
        long length = Files.size(file);
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return read(in, file.toString(), length);
        }
    }

    /**
     * Writes {@code tensor} as a {@code .npy} file (C order), atomically: a file already there is
     * replaced only once the new one is complete; a directory or device there is refused.
     */
    public static void save(Path file, Tensor tensor) throws IOException {
        atomically(file, out -> write(out, tensor));
    }

    /**
     * Every array of a {@code .npz} archive by name (without {@code .npy}), in archive order. A file
     * that is not a zip archive, or one cut short (its directory at the end missing), fails naming
     * the file, the entries that are complete and the one cut off; nothing is returned then.
     */
    public static Map<String, Tensor> readNpz(Path file) throws IOException {
        ZipFile zip;
        try {
            zip = new ZipFile(file.toFile());
        } catch (ZipException e) {
            throw NpzDamage.describe(file, e);
        }
        Map<String, Tensor> out = new LinkedHashMap<>();
        Map<String, String> entryNames = new java.util.HashMap<>();
        try (zip) {
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry e = entries.nextElement();
                if (e.isDirectory()) continue;
                String name = e.getName().endsWith(".npy") ? e.getName().substring(0, e.getName().length() - 4) : e.getName();
                String source = file + ", entry " + e.getName();
                if (out.containsKey(name)) {
                    throw new IOException(source + ": a second array named '" + name + "' (entries " + entryNames.get(name) + " and "
                            + e.getName() + "); expected each name once, as np.savez writes (one would silently replace the other)");
                }
                entryNames.put(name, e.getName());
                long length = e.getSize();
                if (e.getMethod() == ZipEntry.DEFLATED && e.getCompressedSize() >= 0) {
                    // what the entry can really hold, whatever its size field claims
                    long most = Math.multiplyHigh(e.getCompressedSize(), DEFLATE_MAX_RATIO) == 0
                            ? e.getCompressedSize() * DEFLATE_MAX_RATIO + 1024 : Long.MAX_VALUE;
                    length = length < 0 ? most : Math.min(length, most);
                }
                try (InputStream in = new BufferedInputStream(zip.getInputStream(e), 1 << 16)) {
                    out.put(name, read(in, source, length));
                } catch (ZipException damaged) {
                    throw new IOException(source + ": the entry is damaged: " + damaged.getMessage(), damaged);
                }
            }
        } catch (IOException | RuntimeException ex) {
            for (Tensor t : out.values()) t.close();
            throw ex;
        }
        return out;
    }

    /**
     * Writes a deflated {@code .npz} archive ({@code np.load} reads it like {@code np.savez_compressed}'s),
     * atomically: a file already there is replaced only once the whole archive is written.
     */
    public static void writeNpz(Path file, Map<String, Tensor> arrays) throws IOException {
        atomically(file, out -> {
            ZipOutputStream zip = new ZipOutputStream(out);
            for (Map.Entry<String, Tensor> e : arrays.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey() + ".npy"));
                write(zip, e.getValue());
                zip.closeEntry();
            }
            zip.finish();
        });
    }

    private static void atomically(Path file, AtomicFile.Content content) throws IOException {
        try {
            AtomicFile.write(file, content);
        } catch (UncheckedIOException e) {
            throw new IOException(e.getMessage(), e.getCause());
        }
    }

    /**
     * Reads one array in the {@code .npy} format from {@code in}; {@code source} names it in errors.
     * The stream's length is not known here, so its data is read before storage is allocated for it
     * (a header claiming more than the stream holds fails at the stream's end); {@link #load} and
     * {@link #readNpz} check the length first and read straight into the tensor.
     */
    public static Tensor read(InputStream in, String source) throws IOException {
        return read(in, source, -1);
    }

    /** Reads one array of {@code length} bytes (or -1: unknown) from {@code in}. */
    static Tensor read(InputStream in, String source, long length) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] magic = new byte[6];
        readFully(data, magic, magic.length, source, "magic (\\x93NUMPY) at offset 0");
        for (int i = 0; i < 6; i++) {
            if (magic[i] != MAGIC[i]) throw new IOException(source + ": not a .npy file (expected the magic \\x93NUMPY at offset 0)");
        }
        byte[] version = new byte[2];
        readFully(data, version, 2, source, "version at offset 6");
        int major = version[0];
        long headerLength;
        int headerAt;
        if (major == 1) {
            byte[] b = new byte[2];
            readFully(data, b, 2, source, "header length at offset 8");
            headerLength = (b[0] & 0xFF) | (b[1] & 0xFF) << 8;
            headerAt = 10;
        } else if (major == 2 || major == 3) {
            byte[] b = new byte[4];
            readFully(data, b, 4, source, "header length at offset 8");
            headerLength = Integer.toUnsignedLong((b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24);
            headerAt = 12;
        } else {
            throw new IOException(source + ": .npy format version " + major + " at offset 6; expected 1, 2 or 3");
        }
        if (headerLength > 1 << 20) {
            throw new IOException(source + ": .npy header of " + headerLength + " bytes at offset " + headerAt + "; expected under 1 MiB");
        }
        if (length >= 0 && headerAt + headerLength > length) {
            throw new IOException(source + ": the .npy header at offset " + headerAt + " claims " + headerLength
                    + " bytes; the file has only " + Math.max(0, length - headerAt) + " after offset " + headerAt);
        }
        byte[] headerBytes = new byte[(int) headerLength];
        readFully(data, headerBytes, headerBytes.length, source, "header at offset " + headerAt + " (" + headerLength + " bytes expected)");
        String header = new String(headerBytes, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        NpyHeader parsed = NpyHeader.parse(header, source);
        Element element = Element.of(parsed.descr(), source);
        long dataAt = headerAt + headerLength;
        long count = 1;
        for (long d : parsed.shape()) count = count < 0 || Math.multiplyHigh(count, d) != 0 ? -1 : count * d;
        long bytes = count < 0 ? -1 : Math.multiplyHigh(count, element.size) == 0 ? count * element.size : -1;
        if (bytes < 0) {
            throw new IOException(source + ": .npy shape " + Arrays.toString(parsed.shape()) + " of '" + parsed.descr()
                    + "' is more than 2^63 bytes of data");
        }
        if (length >= 0 && bytes > length - dataAt) {
            throw new IOException(source + ": the .npy header claims " + count + " elements of '" + parsed.descr()
                    + "' (shape " + Arrays.toString(parsed.shape()) + ", " + bytes + " bytes) from offset " + dataAt
                    + "; the file holds " + Math.max(0, length - dataAt) + " bytes there (truncated, or the header is wrong)");
        }
        if (length < 0) data = new DataInputStream(readAhead(data, bytes, dataAt, parsed, source));
        int[] dims = dims(parsed, source);
        Shape stored = parsed.fortranOrder() ? Shape.of(reverse(dims)) : Shape.of(dims);
        Tensor t = Tensor.empty(Backends.current(), element.dtype, stored);
        try {
            fill(data, element, t, count, source, dataAt);
            if (!parsed.fortranOrder() || dims.length < 2) return parsed.fortranOrder() ? Movement.view(t, Shape.of(dims)) : t;
            int[] order = new int[dims.length];
            for (int i = 0; i < order.length; i++) order[i] = dims.length - 1 - i;
            try (var _ = Autograd.noGrad()) {
                Tensor c = Movement.copyAs(t.permute(order), element.dtype);
                t.close();
                return c;
            }
        } catch (IOException | RuntimeException e) {
            t.close();
            throw e;
        }
    }

    /**
     * The {@code bytes} of data from a stream of unknown length, read (as they come, in chunks) before
     * storage for them is allocated: a header claiming more than the stream holds fails at its end,
     * naming the offset, rather than allocating what it claims.
     */
    private static InputStream readAhead(InputStream in, long bytes, long dataAt, NpyHeader h, String source) throws IOException {
        List<InputStream> chunks = new ArrayList<>();
        for (long got = 0; got < bytes; ) {
            int n = (int) Math.min(1 << 20, bytes - got);
            byte[] chunk = in.readNBytes(n);
            if (chunk.length < n) {
                throw new IOException(source + ": file ends inside the data at offset " + (dataAt + got + chunk.length) + ": the .npy header claims "
                        + bytes + " bytes of '" + h.descr() + "' (shape " + Arrays.toString(h.shape()) + ") from offset " + dataAt);
            }
            chunks.add(new ByteArrayInputStream(chunk));
            got += n;
        }
        return new SequenceInputStream(Collections.enumeration(chunks));
    }

    /** The header's shape as tensor dimensions (each at most {@code Integer.MAX_VALUE}). */
    private static int[] dims(NpyHeader h, String source) throws IOException {
        int[] dims = new int[h.shape().length];
        for (int i = 0; i < dims.length; i++) {
            if (h.shape()[i] > Integer.MAX_VALUE) {
                throw new IOException(source + ": .npy shape " + Arrays.toString(h.shape()) + " has " + h.shape()[i]
                        + " at axis " + i + "; a tensor dimension is at most " + Integer.MAX_VALUE);
            }
            dims[i] = (int) h.shape()[i];
        }
        return dims;
    }

    /** Writes {@code tensor} in the {@code .npy} format (version 1.0, C order, little-endian). */
    public static void write(OutputStream out, Tensor tensor) throws IOException {
        Ops.check("Npy.write", tensor);
        StringBuilder shape = new StringBuilder("(");
        for (int i = 0; i < tensor.rank(); i++) shape.append(tensor.dim(i)).append(tensor.rank() == 1 ? "," : i + 1 < tensor.rank() ? ", " : "");
        shape.append(')');
        String dict = "{'descr': '" + tensor.dtype().numpyDescr() + "', 'fortran_order': False, 'shape': " + shape + ", }";
        int unpadded = MAGIC.length + 2 + 2 + dict.length() + 1;
        int padding = (64 - unpadded % 64) % 64;
        String header = dict + " ".repeat(padding) + "\n";
        if (header.length() > 0xFFFF) throw new IOException("shape too long for a version 1.0 .npy header: " + tensor.shape());
        out.write(MAGIC);
        out.write(new byte[] {1, 0, (byte) header.length(), (byte) (header.length() >>> 8)});
        out.write(header.getBytes(StandardCharsets.ISO_8859_1));
        Tensor dense = tensor.isContiguous() ? tensor : Movement.copyAs(tensor, tensor.dtype());
        try {
            long bytes = dense.elements() * dense.dtype().byteSize();
            long from = dense.offset * dense.dtype().byteSize();
            byte[] chunk = new byte[(int) Math.min(bytes, 1 << 20)];
            MemorySegment staged = MemorySegment.ofArray(chunk);
            for (long at = 0; at < bytes; at += chunk.length) {
                int n = (int) Math.min(chunk.length, bytes - at);
                dense.backend.read(dense.storage, from + at, staged.asSlice(0, n)); // after what computes it, on any thread
                out.write(chunk, 0, n);
            }
        } finally {
            if (dense != tensor) dense.storage.close();
        }
    }

    /** A stored element type and the dtype it loads as. */
    private record Element(char kind, int size, ByteOrder order, DType dtype) {
        static Element of(String descr, String source) throws IOException {
            if (descr.length() < 3) throw unsupported(descr, source);
            char endian = descr.charAt(0);
            char kind = descr.charAt(1);
            int size;
            try {
                size = Integer.parseInt(descr.substring(2));
            } catch (NumberFormatException e) {
                throw unsupported(descr, source);
            }
            ByteOrder order = endian == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            if (endian != '<' && endian != '>' && endian != '|' && endian != '=') throw unsupported(descr, source);
            DType dtype = switch (kind + "" + size) {
                case "f2" -> DType.F16;
                case "f4", "f8" -> DType.F32;
                case "b1", "i1", "u1", "i2", "u2", "i4" -> DType.I32;
                case "u4", "i8", "u8" -> DType.I64;
                default -> throw unsupported(descr, source);
            };
            return new Element(kind, size, order, dtype);
        }

        private static IOException unsupported(String descr, String source) {
            return new IOException(source + ": .npy element type '" + descr
                    + "'; expected bool, an integer or a float (f2, f4, f8, i1-i8, u1-u8)");
        }
    }

    /**
     * Reads {@code count} elements into {@code t}'s storage, converted to its dtype, a chunk at a time
     * through its backend (the storage may live on a device).
     */
    private static void fill(DataInputStream in, Element e, Tensor t, long count, String source, long dataAt) throws IOException {
        byte[] chunk = new byte[e.size * 8192];
        MemorySegment staged = MemorySegment.ofArray(new long[8192]); // 8-byte aligned, room for 8192 of any dtype
        long elementBytes = t.dtype().byteSize();
        long done = 0;
        while (done < count) {
            int n = (int) Math.min(8192, count - done);
            MemorySegment dst = staged;
            long base = done;
            readFully(in, chunk, n * e.size, source, "data (" + count + " elements of " + e.size + " bytes from offset " + dataAt
                    + "; element " + done + ", at offset " + (dataAt + done * e.size) + ", or one of the " + n + " after it, is cut off)");
            ByteBuffer b = ByteBuffer.wrap(chunk, 0, n * e.size).order(e.order);
            for (int i = 0; i < n; i++) {
                long at = base + i;
                switch (e.kind + "" + e.size) {
                    case "f2" -> dst.setAtIndex(ValueLayout.JAVA_SHORT, i, b.getShort());
                    case "f4" -> dst.setAtIndex(ValueLayout.JAVA_FLOAT, i, b.getFloat());
                    case "f8" -> {
                        double v = b.getDouble();
                        float f = (float) v;
                        if (Float.isInfinite(f) && !Double.isInfinite(v)) {
                            throw new IOException(source + ": f8 value " + v + " of element " + at + " (offset " + (dataAt + at * 8)
                                    + ") does not fit f32, which f8 arrays load as; expected at most " + Float.MAX_VALUE + " in magnitude");
                        }
                        dst.setAtIndex(ValueLayout.JAVA_FLOAT, i, f);
                    }
                    case "b1" -> dst.setAtIndex(ValueLayout.JAVA_INT, i, b.get() != 0 ? 1 : 0); // as NumPy: nonzero is True
                    case "u1" -> dst.setAtIndex(ValueLayout.JAVA_INT, i, Byte.toUnsignedInt(b.get()));
                    case "i1" -> dst.setAtIndex(ValueLayout.JAVA_INT, i, b.get());
                    case "i2" -> dst.setAtIndex(ValueLayout.JAVA_INT, i, b.getShort());
                    case "u2" -> dst.setAtIndex(ValueLayout.JAVA_INT, i, Short.toUnsignedInt(b.getShort()));
                    case "i4" -> dst.setAtIndex(ValueLayout.JAVA_INT, i, b.getInt());
                    case "u4" -> dst.setAtIndex(ValueLayout.JAVA_LONG, i, Integer.toUnsignedLong(b.getInt()));
                    case "i8" -> dst.setAtIndex(ValueLayout.JAVA_LONG, i, b.getLong());
                    case "u8" -> {
                        long v = b.getLong();
                        if (v < 0) {
                            throw new IOException(source + ": u8 value " + Long.toUnsignedString(v) + " of element " + at + " (offset "
                                    + (dataAt + at * 8) + ") does not fit i64");
                        }
                        dst.setAtIndex(ValueLayout.JAVA_LONG, i, v);
                    }
                    default -> throw new IllegalStateException(e.toString());
                }
            }
            t.backend.write(t.storage, base * elementBytes, dst.asSlice(0, n * elementBytes));
            done += n;
        }
    }

    private static void readFully(DataInputStream in, byte[] b, int length, String source, String what) throws IOException {
        try {
            in.readFully(b, 0, length);
        } catch (EOFException e) {
            throw new IOException(source + ": file ends inside the " + what, e);
        }
    }

    private static int[] reverse(int[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[a.length - 1 - i];
        return r;
    }
}
