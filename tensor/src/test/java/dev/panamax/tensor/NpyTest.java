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
        assertTrue(truncated.getMessage().contains("cut.npy: file ends inside the data (6 elements expected)"), truncated.getMessage());
    }
}
