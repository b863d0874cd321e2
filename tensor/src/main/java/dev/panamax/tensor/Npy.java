package dev.panamax.tensor;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * NumPy's {@code .npy} and {@code .npz} files, so arrays move between Python and Java without
 * conversion code. Reading takes any little- or big-endian bool, integer or float array in C or
 * Fortran order: {@code f4}, {@code f2}, {@code i4}, {@code i8} load as they are, {@code f8}
 * becomes f32, smaller integers (and bool) i32, {@code u4} and {@code u8} i64. Archives may be
 * stored or deflated ({@code np.savez} or {@code np.savez_compressed}). Writing gives version 1.0
 * files NumPy reads back exactly.
 *
 * <pre>{@code
 * Map<String, Tensor> data = Npy.readNpz(Path.of("spiral.npz"));   // np.savez(f, x=x, y=y)
 * Npy.save(Path.of("w.npy"), weights);                             // np.load("w.npy")
 * }</pre>
 */
public final class Npy {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private Npy() {}

    /** Reads one {@code .npy} file onto the current backend. */
    public static Tensor load(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        }
    }

    /** Writes {@code tensor} as a {@code .npy} file (C order). */
    public static void save(Path file, Tensor tensor) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(out, tensor);
        }
    }

    /** Every array of a {@code .npz} archive by name (without {@code .npy}), in archive order. */
    public static Map<String, Tensor> readNpz(Path file) throws IOException {
        Map<String, Tensor> out = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(file))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                if (e.isDirectory()) continue;
                String name = e.getName().endsWith(".npy") ? e.getName().substring(0, e.getName().length() - 4) : e.getName();
                out.put(name, read(zip, file + ":" + e.getName()));
            }
        } catch (IOException | RuntimeException ex) {
            for (Tensor t : out.values()) t.close();
            throw ex;
        }
        return out;
    }

    /** Writes a deflated {@code .npz} archive ({@code np.load} reads it like {@code np.savez_compressed}'s). */
    public static void writeNpz(Path file, Map<String, Tensor> arrays) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
            for (Map.Entry<String, Tensor> e : arrays.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey() + ".npy"));
                write(zip, e.getValue());
                zip.closeEntry();
            }
        }
    }

    /** Reads one array in the {@code .npy} format from {@code in}; {@code source} names it in errors. */
    public static Tensor read(InputStream in, String source) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] magic = new byte[6];
        readFully(data, magic, source, "magic");
        for (int i = 0; i < 6; i++) {
            if (magic[i] != MAGIC[i]) throw new IOException(source + ": not a .npy file (expected the magic \\x93NUMPY)");
        }
        int major = data.readUnsignedByte();
        data.readUnsignedByte();
        long headerLength;
        if (major == 1) {
            headerLength = Short.toUnsignedInt(Short.reverseBytes(data.readShort()));
        } else if (major == 2 || major == 3) {
            headerLength = Integer.toUnsignedLong(Integer.reverseBytes(data.readInt()));
        } else {
            throw new IOException(source + ": .npy format version " + major + "; expected 1, 2 or 3");
        }
        if (headerLength > 1 << 20) throw new IOException(source + ": .npy header of " + headerLength + " bytes; expected under 1 MiB");
        byte[] headerBytes = new byte[(int) headerLength];
        readFully(data, headerBytes, source, "header");
        String header = new String(headerBytes, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        String descr = find(DESCR, header, source, "descr");
        boolean fortran = find(FORTRAN, header, source, "fortran_order").equals("True");
        int[] dims = parseShape(find(SHAPE, header, source, "shape"), source);
        Element element = Element.of(descr, source);
        Shape stored = fortran ? Shape.of(reverse(dims)) : Shape.of(dims);
        long count = stored.elements();
        Tensor t = Tensor.empty(Backends.current(), element.dtype, stored);
        try {
            fill(data, element, t.storage.segment(), count, source);
            if (!fortran || dims.length < 2) return fortran ? Movement.view(t, Shape.of(dims)) : t;
            int[] order = new int[dims.length];
            for (int i = 0; i < order.length; i++) order[i] = dims.length - 1 - i;
            try (var off = Autograd.noGrad()) {
                Tensor c = Movement.copyAs(t.permute(order), element.dtype);
                t.close();
                return c;
            }
        } catch (IOException | RuntimeException e) {
            t.close();
            throw e;
        }
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
        Tensor dense = tensor.isContiguous() ? tensor.sync() : Movement.copyAs(tensor, tensor.dtype()).sync();
        try {
            long bytes = dense.elements() * dense.dtype().byteSize();
            MemorySegment src = dense.storage.segment().asSlice(dense.offset * dense.dtype().byteSize(), bytes);
            byte[] chunk = new byte[(int) Math.min(bytes, 1 << 20)];
            for (long at = 0; at < bytes; at += chunk.length) {
                int n = (int) Math.min(chunk.length, bytes - at);
                MemorySegment.copy(src, ValueLayout.JAVA_BYTE, at, chunk, 0, n);
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

    private static void fill(DataInputStream in, Element e, MemorySegment dst, long count, String source) throws IOException {
        byte[] chunk = new byte[e.size * 8192];
        long done = 0;
        while (done < count) {
            int n = (int) Math.min(8192, count - done);
            readFully(in, chunk, n * e.size, source, "data (" + count + " elements expected)");
            ByteBuffer b = ByteBuffer.wrap(chunk, 0, n * e.size).order(e.order);
            for (int i = 0; i < n; i++) {
                long at = done + i;
                switch (e.kind + "" + e.size) {
                    case "f2" -> dst.setAtIndex(ValueLayout.JAVA_SHORT, at, b.getShort());
                    case "f4" -> dst.setAtIndex(ValueLayout.JAVA_FLOAT, at, b.getFloat());
                    case "f8" -> dst.setAtIndex(ValueLayout.JAVA_FLOAT, at, (float) b.getDouble());
                    case "b1", "u1" -> dst.setAtIndex(ValueLayout.JAVA_INT, at, Byte.toUnsignedInt(b.get()));
                    case "i1" -> dst.setAtIndex(ValueLayout.JAVA_INT, at, b.get());
                    case "i2" -> dst.setAtIndex(ValueLayout.JAVA_INT, at, b.getShort());
                    case "u2" -> dst.setAtIndex(ValueLayout.JAVA_INT, at, Short.toUnsignedInt(b.getShort()));
                    case "i4" -> dst.setAtIndex(ValueLayout.JAVA_INT, at, b.getInt());
                    case "u4" -> dst.setAtIndex(ValueLayout.JAVA_LONG, at, Integer.toUnsignedLong(b.getInt()));
                    case "i8" -> dst.setAtIndex(ValueLayout.JAVA_LONG, at, b.getLong());
                    case "u8" -> {
                        long v = b.getLong();
                        if (v < 0) throw new IOException(source + ": u8 value " + Long.toUnsignedString(v) + " at " + at + " does not fit i64");
                        dst.setAtIndex(ValueLayout.JAVA_LONG, at, v);
                    }
                    default -> throw new IllegalStateException(e.toString());
                }
            }
            done += n;
        }
    }

    private static void readFully(DataInputStream in, byte[] b, String source, String what) throws IOException {
        readFully(in, b, b.length, source, what);
    }

    private static void readFully(DataInputStream in, byte[] b, int length, String source, String what) throws IOException {
        try {
            in.readFully(b, 0, length);
        } catch (EOFException e) {
            throw new IOException(source + ": file ends inside the " + what, e);
        }
    }

    private static String find(Pattern p, String header, String source, String key) throws IOException {
        Matcher m = p.matcher(header);
        if (!m.find()) throw new IOException(source + ": .npy header has no '" + key + "': " + header.strip());
        return m.group(1);
    }

    private static int[] parseShape(String text, String source) throws IOException {
        List<Integer> dims = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) continue;
            if (p.endsWith("L")) p = p.substring(0, p.length() - 1);
            try {
                dims.add(Integer.parseInt(p));
            } catch (NumberFormatException e) {
                throw new IOException(source + ": .npy shape (" + text + ") is not a tuple of sizes");
            }
        }
        return dims.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] reverse(int[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[a.length - 1 - i];
        return r;
    }
}
