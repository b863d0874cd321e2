package dev.panamax.tensor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Files written by NumPy (src/test/resources/npy/make_fixtures.py) read as NumPy meant them, and ours read back by it. */
class NpyTest extends ScopedTest {
    private static final float[] A = {-0.5f, -0.25f, 0f, 0.25f, 0.5f, 0.75f};

    private static Path fixture(String name) {
        try {
            return Path.of(NpyTest.class.getResource("/npy/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void readsEveryNumericTypeNumpyWrites() throws IOException {
        Tensor f4 = Npy.load(fixture("f4.npy"));
        assertEquals(Shape.of(2, 3), f4.shape());
        assertEquals(DType.F32, f4.dtype());
        assertArrayEquals(A, f4.toFloatArray());
        assertArrayEquals(A, Npy.load(fixture("f8.npy")).toFloatArray());
        assertArrayEquals(A, Npy.load(fixture("be_f4.npy")).toFloatArray());
        Tensor f2 = Npy.load(fixture("f2.npy"));
        assertEquals(DType.F16, f2.dtype());
        assertArrayEquals(A, f2.toFloatArray());
        Tensor i4 = Npy.load(fixture("i4.npy"));
        assertEquals(DType.I32, i4.dtype());
        assertArrayEquals(new int[] {-3, 0, 7, Integer.MAX_VALUE}, i4.toIntArray());
        Tensor i8 = Npy.load(fixture("i8.npy"));
        assertEquals(DType.I64, i8.dtype());
        assertArrayEquals(new long[] {-(1L << 40), 5, 6, 1L << 62}, i8.toLongArray());
        assertArrayEquals(new int[] {0, 200, 255}, Npy.load(fixture("u1.npy")).toIntArray());
        assertArrayEquals(new int[] {1, 0, 1}, Npy.load(fixture("b1.npy")).toIntArray());
        Tensor scalar = Npy.load(fixture("scalar.npy"));
        assertEquals(Shape.scalar(), scalar.shape());
        assertEquals(2.5, scalar.item());
        assertEquals(Shape.of(0, 3), Npy.load(fixture("empty.npy")).shape());
    }

    @Test
    void fortranOrderComesOutInCOrder() throws IOException {
        Tensor t = Npy.load(fixture("fortran.npy"));
        assertEquals(Shape.of(3, 4), t.shape());
        long[] expected = new long[12];
        for (int i = 0; i < 12; i++) expected[i] = i;
        assertArrayEquals(expected, t.toLongArray());
    }

    @Test
    void readsStoredAndDeflatedArchives() throws IOException {
        for (String name : new String[] {"data.npz", "data_compressed.npz"}) {
            Map<String, Tensor> data = Npy.readNpz(fixture(name));
            assertEquals(java.util.List.of("x", "y"), java.util.List.copyOf(data.keySet()), name);
            assertEquals(Shape.of(3, 2), data.get("x").shape());
            assertEquals(DType.F32, data.get("x").dtype());
            assertArrayEquals(new float[] {0.5f, -1, 2, 0.25f, 1.5f, 1.5f}, data.get("x").toFloatArray());
            assertEquals(DType.I64, data.get("y").dtype());
            assertArrayEquals(new long[] {0, 2, 1}, data.get("y").toLongArray());
        }
    }

    @Test
    void writesTheBytesNumpyWrites() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Npy.write(out, Tensor.of(A, 2, 3));
        assertArrayEquals(Files.readAllBytes(fixture("f4.npy")), out.toByteArray());
        ByteArrayOutputStream i8 = new ByteArrayOutputStream();
        Npy.write(i8, Tensor.of(new long[] {-(1L << 40), 5, 6, 1L << 62}, 2, 2));
        assertArrayEquals(Files.readAllBytes(fixture("i8.npy")), i8.toByteArray());
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        Npy.write(one, Tensor.of(new int[] {-3, 0, 7, Integer.MAX_VALUE}));
        assertArrayEquals(Files.readAllBytes(fixture("i4.npy")), one.toByteArray());
    }

    @Test
    void roundTripsViewsAndArchives(@TempDir Path dir) throws IOException {
        Tensor t = Tensor.arange(DType.F32, 0, 12, 1).reshape(3, 4).t();
        Path file = dir.resolve("t.npy");
        Npy.save(file, t);
        Tensor back = Npy.load(file);
        assertEquals(Shape.of(4, 3), back.shape());
        assertArrayEquals(t.toFloatArray(), back.toFloatArray());
        Map<String, Tensor> arrays = new LinkedHashMap<>();
        arrays.put("half", Tensor.of(A).cast(DType.F16));
        arrays.put("labels", Tensor.of(new int[] {1, 2}));
        Path npz = dir.resolve("a.npz");
        Npy.writeNpz(npz, arrays);
        Map<String, Tensor> read = Npy.readNpz(npz);
        assertEquals(DType.F16, read.get("half").dtype());
        assertArrayEquals(A, read.get("half").toFloatArray());
        assertArrayEquals(new int[] {1, 2}, read.get("labels").toIntArray());
    }

    @Test
    void badFilesSayWhatIsWrong() throws IOException {
        IOException complex = assertThrows(IOException.class, () -> Npy.load(fixture("c8.npy")));
        assertTrue(complex.getMessage().contains("element type '<c8'"), complex.getMessage());
        IOException notNpy = assertThrows(IOException.class, () -> Npy.read(new ByteArrayInputStream("hello".getBytes()), "mem"));
        assertTrue(notNpy.getMessage().startsWith("mem: not a .npy file") || notNpy.getMessage().contains("ends inside"), notNpy.getMessage());
        byte[] whole = Files.readAllBytes(fixture("f4.npy"));
        InputStream cut = new ByteArrayInputStream(Arrays.copyOf(whole, whole.length - 3));
        IOException truncated = assertThrows(IOException.class, () -> Npy.read(cut, "cut.npy"));
        assertTrue(truncated.getMessage().contains("cut.npy: file ends inside the data at offset 149: the .npy header claims 24 bytes"
                + " of '<f4' (shape [2, 3]) from offset 128"), truncated.getMessage());
    }

    /** A version 1.0 .npy file with {@code header} as its dict and {@code data} after it. */
    private static byte[] npy(String header, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String padded = header + " ".repeat((64 - (10 + header.length() + 1) % 64) % 64) + "\n";
        out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (byte) padded.length(), (byte) (padded.length() >>> 8)});
        out.writeBytes(padded.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        out.writeBytes(data);
        return out.toByteArray();
    }

    @Test
    void aHeaderIsReadAsTheDictItIs(@TempDir Path dir) throws IOException {
        // the keys in another order, a string holding what looks like another key, double quotes
        byte[] floats = new byte[8];
        java.nio.ByteBuffer.wrap(floats).order(java.nio.ByteOrder.LITTLE_ENDIAN).putFloat(1.5f).putFloat(-2f);
        Path odd = dir.resolve("odd.npy");
        Files.write(odd, npy("{'shape': (2,), \"fortran_order\": False, 'descr': '<f4', }", floats));
        assertArrayEquals(new float[] {1.5f, -2f}, Npy.load(odd).toFloatArray());

        // a structured type naming the keys inside its value is not read as those keys
        Path structured = dir.resolve("structured.npy");
        Files.write(structured, npy("{'descr': [('shape', '<f4', (9,)), ('fortran_order', '<i4')], 'fortran_order': False, 'shape': (2,), }", new byte[80]));
        IOException e = assertThrows(IOException.class, () -> Npy.load(structured));
        assertTrue(e.getMessage().contains(structured + ": .npy element type [[shape, <f4, [9]], [fortran_order, <i4]] is not a simple type"), e.getMessage());

        Path extra = dir.resolve("extra.npy");
        Files.write(extra, npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'note': 'shape: (5,)'}", floats));
        IOException keys = assertThrows(IOException.class, () -> Npy.load(extra));
        assertTrue(keys.getMessage().contains("expected exactly [descr, fortran_order, shape]"), keys.getMessage());

        Path broken = dir.resolve("broken.npy");
        Files.write(broken, npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,", floats));
        IOException parse = assertThrows(IOException.class, () -> Npy.load(broken));
        assertTrue(parse.getMessage().startsWith(broken + ": .npy header is not the Python dict literal NumPy writes"), parse.getMessage());

        Path negative = dir.resolve("negative.npy");
        Files.write(negative, npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }", floats));
        IOException dims = assertThrows(IOException.class, () -> Npy.load(negative));
        assertTrue(dims.getMessage().contains("has -1 at axis 1; expected sizes of 0 or more"), dims.getMessage());
    }

    @Test
    void anF8ValueBeyondF32IsRefusedNotReadAsInfinity(@TempDir Path dir) throws IOException {
        java.nio.ByteBuffer data = java.nio.ByteBuffer.allocate(32).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        data.putDouble(0.5).putDouble(Double.POSITIVE_INFINITY).putDouble(Double.NaN).putDouble(-1e300);
        Path file = dir.resolve("f8.npy");
        Files.write(file, npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", data.array()));
        IOException e = assertThrows(IOException.class, () -> Npy.load(file));
        assertTrue(e.getMessage().startsWith(file + ": f8 value -1.0E300 of element 3 (offset 152) does not fit f32"), e.getMessage());
        Path fits = dir.resolve("fits.npy");
        Files.write(fits, npy("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", Arrays.copyOf(data.array(), 24)));
        float[] read = Npy.load(fits).toFloatArray();
        assertArrayEquals(new float[] {0.5f, Float.POSITIVE_INFINITY, Float.NaN}, read, "infinities and NaN load as they are");
    }

    @Test
    void boolBytesOtherThanZeroReadAsTrueAsNumpyReadsThem(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("b.npy");
        Files.write(file, npy("{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", new byte[] {2, 0, 1, (byte) 255}));
        assertArrayEquals(new int[] {1, 0, 1, 1}, Npy.load(file).toIntArray());
    }

    @Test
    void aHeaderClaimingMoreDataThanTheFileHoldsFailsBeforeAllocating(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("huge.npy");
        byte[] bytes = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }", new byte[16]);
        Files.write(file, bytes);
        IOException e = assertThrows(IOException.class, () -> Npy.load(file));
        assertTrue(e.getMessage().contains(file + ": the .npy header claims 1099511627776 elements of '<f4'"), e.getMessage());
        assertTrue(e.getMessage().contains("from offset 128; the file holds 16 bytes there"), e.getMessage());

        Path tooBig = dir.resolve("overflow.npy");
        Files.write(tooBig, npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", new byte[16]));
        IOException overflow = assertThrows(IOException.class, () -> Npy.load(tooBig));
        assertTrue(overflow.getMessage().contains("a tensor dimension is at most 2147483647")
                || overflow.getMessage().contains("more than 2^63 bytes"), overflow.getMessage());

        // the same claim inside an archive: checked against the entry's size
        Path npz = dir.resolve("huge.npz");
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(npz))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("x.npy"));
            zip.write(bytes);
            zip.closeEntry();
        }
        IOException inStream = assertThrows(IOException.class, () -> Npy.read(new ByteArrayInputStream(bytes), "stream"));
        assertTrue(inStream.getMessage().startsWith("stream: file ends inside the data at offset 144"), inStream.getMessage());

        IOException inArchive = assertThrows(IOException.class, () -> Npy.readNpz(npz));
        assertTrue(inArchive.getMessage().startsWith(npz + ", entry x.npy: the .npy header claims 1099511627776 elements"), inArchive.getMessage());
    }

    @Test
    void aTruncatedArchiveNamesWhatIsMissingAndReturnsNothing(@TempDir Path dir) throws IOException {
        Map<String, Tensor> arrays = new LinkedHashMap<>();
        arrays.put("a", Tensor.arange(DType.F32, 0, 1000, 1));
        arrays.put("b", Tensor.arange(DType.F32, 0, 1000, 1));
        arrays.put("c", Tensor.arange(DType.F32, 0, 1000, 1));
        Path whole = dir.resolve("whole.npz");
        Npy.writeNpz(whole, arrays);
        byte[] bytes = Files.readAllBytes(whole);
        for (int keep : new int[] {bytes.length - 1, bytes.length - 200, bytes.length * 2 / 3, bytes.length / 2, 40, 3}) {
            Path cut = dir.resolve("cut" + keep + ".npz");
            Files.write(cut, Arrays.copyOf(bytes, keep));
            IOException e = assertThrows(IOException.class, () -> Npy.readNpz(cut), "kept " + keep + " bytes");
            assertTrue(e.getMessage().startsWith(cut + ": "), e.getMessage());
            assertTrue(e.getMessage().contains("truncated or damaged .npz archive (" + keep + " bytes)")
                    || e.getMessage().contains("not a .npz (zip) archive"), e.getMessage());
        }
        Path half = dir.resolve("half.npz");
        Files.write(half, Arrays.copyOf(bytes, bytes.length * 2 / 3));
        IOException e = assertThrows(IOException.class, () -> Npy.readNpz(half));
        assertTrue(e.getMessage().contains("complete entries: a.npy") && e.getMessage().contains("is cut off"), e.getMessage());
    }

    @Test
    void anArchiveWithTwoArraysOfOneNameIsRefusedNamingBothEntries(@TempDir Path dir) throws IOException {
        // np.load reads 'x.npy' and 'x' as the same key: one array would silently replace the other
        Path npz = dir.resolve("twice.npz");
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(npz))) {
            for (String entry : new String[] {"x.npy", "x"}) {
                zip.putNextEntry(new java.util.zip.ZipEntry(entry));
                Npy.write(zip, Tensor.full(entry.length(), 2));
                zip.closeEntry();
            }
        }
        IOException e = assertThrows(IOException.class, () -> Npy.readNpz(npz));
        assertTrue(e.getMessage().startsWith(npz + ", entry x: a second array named 'x' (entries x.npy and x)"), e.getMessage());
    }

    @Test
    void aFileThatIsNotAnArchiveSaysSo(@TempDir Path dir) throws IOException {
        Path text = dir.resolve("text.npz");
        Files.writeString(text, "x,y\n1,2\n");
        IOException e = assertThrows(IOException.class, () -> Npy.readNpz(text));
        assertTrue(e.getMessage().startsWith(text + ": not a .npz (zip) archive: it starts with 0x782c790a at offset 0"), e.getMessage());
        Path empty = dir.resolve("empty.npz");
        Files.write(empty, new byte[0]);
        assertTrue(assertThrows(IOException.class, () -> Npy.readNpz(empty)).getMessage().contains("the file is empty"));
        IOException npy = assertThrows(IOException.class, () -> Npy.readNpz(fixture("f4.npy")));
        assertTrue(npy.getMessage().contains("a .npy file, not a .npz archive"), npy.getMessage());
    }

    @Test
    void savingOntoADirectoryIsRefusedAndDeletesNothing(@TempDir Path dir) throws IOException {
        Path target = Files.createDirectory(dir.resolve("out.npy"));
        Files.writeString(target.resolve("keep.txt"), "mine");
        IOException e = assertThrows(IOException.class, () -> Npy.save(target, Tensor.of(A)));
        assertTrue(e.getMessage().contains("cannot write " + target + ": it exists and is a directory"), e.getMessage());
        IOException npz = assertThrows(IOException.class, () -> Npy.writeNpz(target, Map.of("a", Tensor.of(A))));
        assertTrue(npz.getMessage().contains("is a directory"), npz.getMessage());
        assertEquals("mine", Files.readString(target.resolve("keep.txt")));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left behind");
        }
    }
}
