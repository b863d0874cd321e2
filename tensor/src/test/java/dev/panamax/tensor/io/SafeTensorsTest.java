package dev.panamax.tensor.io;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Shape;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Files PyTorch's safetensors wrote (src/test/python/make_torch_safetensors.py) load by name, files
 * Panamax writes read back in Python ({@code safetensors.numpy}), and damaged or lying files fail
 * naming the file, the tensor and what was expected.
 */
class SafeTensorsTest extends ScopedTest {
    @TempDir
    Path dir;

    private static Path fixture(String name) {
        try {
            return Path.of(SafeTensorsTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Tensor> everyDtype() {
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("weight.t", Tensor.of(new float[] {1.5f, -2f, 3.25f, 1e-30f, -0f, Float.MAX_VALUE}, 2, 3).t()); // a strided view
        tensors.put("half", Tensor.of(new float[] {0.5f, -1f, 65504f}, 3).cast(DType.F16));
        tensors.put("labels", Tensor.of(new int[] {7, -3, Integer.MAX_VALUE, 0}, 2, 2));
        tensors.put("ids", Tensor.of(new long[] {1L << 53, -(1L << 40)}, 2));
        tensors.put("scalar", Tensor.scalar(0.125));
        tensors.put("empty", Tensor.zeros(0, 4));
        return tensors;
    }

    @Test
    void writesAndReadsEveryDtypeWithMetadata() throws IOException {
        Path file = dir.resolve("all.safetensors");
        Map<String, Tensor> written = everyDtype();
        SafeTensors.write(file, written, Map.of("step", "12", "note", "ünïcode \"quoted\""));
        assertEquals(0, (8 + ByteBuffer.wrap(Files.readAllBytes(file), 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong()) % 8,
                "the data starts 8-byte aligned");
        try (var read = SafeTensors.read(file, Backends.get("reference"))) {
            assertEquals(List.copyOf(written.keySet()), List.copyOf(read.tensors().keySet()));
            assertEquals(Map.of("step", "12", "note", "ünïcode \"quoted\""), read.metadata());
            for (var e : written.entrySet()) {
                Tensor back = read.tensors().get(e.getKey());
                assertSame(Backends.get("reference"), back.backend(), "on the backend asked for");
                assertEquals(e.getValue().shape(), back.shape(), e.getKey());
                assertEquals(e.getValue().dtype(), back.dtype(), e.getKey());
                assertArrayEquals(e.getValue().toLongArray(), back.toLongArray(), e.getKey());
                assertArrayEquals(e.getValue().toFloatArray(), back.toFloatArray(), e.getKey());
            }
        }
    }

    @Test
    void aPytorchModelLoadsByNameAndComputesWhatPytorchComputed() throws IOException {
        Path file = fixture("torch-mlp.safetensors");
        var rng = new RestorableRandom(0);
        Module model = new Sequential(new Linear(2, 4, rng), new ReLU(), new Linear(4, 3, rng));
        Checkpoint.loadModule(file, model);
        SafeTensorsHeader header = SafeTensors.header(file);
        float[] input = numbers(header.metadata().get("input"));
        float[] expected = numbers(header.metadata().get("output"));
        float[] actual = model.forward(Tensor.of(input, 3, 2)).toFloatArray();
        for (int i = 0; i < expected.length; i++) assertEquals(expected[i], actual[i], 1e-6, "output " + i);
        model.close();
    }

    @Test
    void pythonReadsWhatPanamaxWrites() throws Exception {
        Path python = Python.withSafetensors();
        assumeTrue(python != null, "no python3 with numpy and safetensors, and none could be installed under target/ (offline)");
        Path file = dir.resolve("for-python.safetensors");
        Map<String, Tensor> written = everyDtype();
        SafeTensors.write(file, written, Map.of("step", "12"));
        Process p = new ProcessBuilder(python.toString(), Path.of("src/test/python/read_safetensors.py").toAbsolutePath().toString(),
                file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, out);
        Map<String, String> numpyDtype = Map.of("F32", "float32", "F16", "float16", "I32", "int32", "I64", "int64");
        List<String> seen = new ArrayList<>();
        for (String line : out.strip().split("\n")) {
            String[] f = line.split(" ", 5);
            if (f[0].equals("meta")) {
                assertEquals("meta step=12", line);
                continue;
            }
            Tensor t = written.get(f[1]);
            seen.add(f[1]);
            assertEquals(numpyDtype.get(t.dtype().name()), f[2], line);
            assertEquals(Arrays.toString(t.dims()), "[" + f[3].replace(",", ", ") + "]", line);
            String[] values = f.length < 5 || f[4].isBlank() ? new String[0] : f[4].split(" ");
            if (t.dtype().isFloating()) {
                float[] back = new float[values.length];
                for (int i = 0; i < values.length; i++) back[i] = (float) Double.parseDouble(values[i]);
                assertArrayEquals(t.toFloatArray(), back, line);
            } else {
                assertArrayEquals(t.toLongArray(), Arrays.stream(values).mapToLong(Long::parseLong).toArray(), line);
            }
        }
        assertEquals(written.keySet(), new java.util.HashSet<>(seen));
    }

    // ---------------------------------------------------------------- damaged and lying files

    /** A file of the given header (JSON, as written) and data bytes. */
    private Path file(String json, int dataBytes) throws IOException {
        var out = new ByteArrayOutputStream();
        byte[] header = json.getBytes(StandardCharsets.UTF_8);
        out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
        out.write(header);
        out.write(new byte[dataBytes]);
        Path file = dir.resolve("bad.safetensors");
        Files.write(file, out.toByteArray());
        return file;
    }

    private static void fails(Path file, String... parts) {
        var e = assertThrows(IOException.class, () -> SafeTensors.read(file));
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
        for (String part : parts) assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
    }

    @Test
    void aTruncatedFileNamesTheTensorCutOff() throws IOException {
        Path file = dir.resolve("cut.safetensors");
        SafeTensors.write(file, everyDtype(), Map.of());
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 10));
        fails(file, "tensor 'ids'", "run past the data");
        Files.write(file, Arrays.copyOf(bytes, 20));
        fails(file, "header length", "truncated");
        Files.write(file, Arrays.copyOf(bytes, 5));
        fails(file, "5 bytes", "8-byte header length");
    }

    @Test
    void offsetsBeyondTheFileAllocateNothing() throws IOException {
        // a header claiming 4 TiB of data in a file of 16 bytes fails before allocating it
        fails(file("{\"w\":{\"dtype\":\"F32\",\"shape\":[1048576,1048576],\"data_offsets\":[0,4398046511104]}}", 16),
                "tensor 'w'", "[0, 4398046511104] run past the data, which holds 16 bytes");
        fails(file("{\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,12]}}", 12),
                "tensor 'w'", "F32 shape [4] needs 16 bytes; its data_offsets [0, 12] hold 12");
        fails(file("{\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[16,0]}}", 16), "tensor 'w'", "end before they begin");
        fails(file("{\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,-16]}}", 16), "tensor 'w'", "non-negative integers");
        fails(file("{\"w\":{\"dtype\":\"F32\",\"shape\":[4294967296],\"data_offsets\":[0,16]}}", 16), "tensor 'w'", "at most 2147483647");
        var huge = new ByteArrayOutputStream();
        huge.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(Long.MAX_VALUE).array());
        huge.write("{}".getBytes(StandardCharsets.UTF_8));
        Path lying = dir.resolve("huge-header.safetensors");
        Files.write(lying, huge.toByteArray());
        fails(lying, "header length 9223372036854775807", "expected at most 100000000");
    }

    @Test
    void overlappingOrGappedTensorsAreRefused() throws IOException {
        fails(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]},"
                + "\"b\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[8,24]}}", 24), "tensor 'b'", "overlaps tensor 'a'");
        fails(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                + "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[12,20]}}", 20), "bytes [8, 12)", "tensor 'b'");
        fails(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 12), "data ends at byte 8", "holds 12");
    }

    @Test
    void unknownDtypesAndMalformedHeadersAreNamed() throws IOException {
        fails(file("{\"w\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[0,4]}}", 4), "tensor 'w'", "dtype BF16", "F32, F16, I32 or I64");
        fails(file("{\"w\":{\"dtype\":\"Q7\",\"shape\":[2],\"data_offsets\":[0,4]}}", 4), "tensor 'w'", "unknown dtype \"Q7\"");
        fails(file("{\"w\":{\"shape\":[2],\"data_offsets\":[0,8]}}", 8), "tensor 'w' has no dtype");
        fails(file("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}", 16),
                "not valid JSON", "Duplicate field 'w'");
        fails(file("[1, 2]", 0), "not a JSON object");
        fails(file("{\"w\": {\"dtype\":\"F32\",", 0), "not valid JSON");
        fails(file("{\"__metadata__\":{\"step\":5}}", 0), "__metadata__ value of 'step' is the number 5", "expected a string");
        fails(file("{} {}", 0), "after its object");
    }

    @Test
    void writingRefusesAFreedTensorAndKeepsTheOldFile() throws IOException {
        Path file = dir.resolve("keep.safetensors");
        SafeTensors.write(file, Map.of("a", Tensor.ones(2)), Map.of());
        byte[] before = Files.readAllBytes(file);
        Tensor freed = Tensor.ones(3);
        freed.close();
        var e = assertThrows(IllegalArgumentException.class, () -> SafeTensors.write(file, Map.of("b", freed), Map.of()));
        assertTrue(e.getMessage().contains("tensor 'b' is freed"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file));
        try (var read = SafeTensors.read(file)) {
            assertEquals(Shape.of(2), read.tensors().get("a").shape());
        }
    }

    private static float[] numbers(String json) {
        String[] parts = json.replace("[", "").replace("]", "").split(",");
        float[] out = new float[parts.length];
        for (int i = 0; i < parts.length; i++) out[i] = Float.parseFloat(parts[i].strip());
        return out;
    }
}
