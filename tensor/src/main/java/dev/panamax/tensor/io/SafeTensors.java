package dev.panamax.tensor.io;

import dev.panamax.core.io.AtomicFile;
import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.spi.Backend;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hugging Face's safetensors files, which PyTorch, JAX and the {@code safetensors} Python package
 * read and write: an 8-byte little-endian header length, a JSON header (each tensor's dtype, shape
 * and {@code data_offsets}, and a {@code __metadata__} map of strings), then the tensors' raw
 * little-endian bytes. Panamax reads and writes {@code F32}, {@code F16}, {@code I32} and
 * {@code I64}.
 *
 * <p>Writing is atomic ({@link AtomicFile}: the old file or the new one, never a part of either).
 * Reading checks the whole header against the file's size before allocating anything (see
 * {@link SafeTensorsHeader#parse}); every error is an {@link IOException} naming the file, the
 * tensor and what was expected.
 *
 * <pre>{@code
 * SafeTensors.write(Path.of("model.safetensors"), model.namedParameters(), Map.of("step", "100"));
 * try (var file = SafeTensors.read(Path.of("model.safetensors"))) {   // safetensors.torch.save_file(...) too
 *     Tensor w = file.tensors().get("0.weight");
 * }
 * }</pre>
 */
public final class SafeTensors {
    private static final int CHUNK = 1 << 20;

    private SafeTensors() {}

    /** Storage holds elements in the host's order; the format's is little-endian. */
    private static void requireLittleEndianHost() {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new UnsupportedOperationException("safetensors files are little-endian; this host is " + ByteOrder.nativeOrder());
        }
    }

    /**
     * Writes {@code tensors} (in map order) and {@code metadata} to {@code file}, atomically.
     *
     * @throws IllegalArgumentException for a freed tensor or a name the format reserves
     * @throws IOException              when the file cannot be written (the old file is left as it was)
     */
    public static void write(Path file, Map<String, Tensor> tensors, Map<String, String> metadata) throws IOException {
        requireLittleEndianHost();
        List<SafeTensorsEntry> entries = new ArrayList<>();
        long at = 0;
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            Tensor t = e.getValue();
            if (e.getKey() == null || e.getKey().equals(SafeTensorsHeader.METADATA)) {
                throw new IllegalArgumentException(file + ": a tensor may not be called " + e.getKey() + " (the format reserves it)");
            }
            if (t == null || t.isFreed()) {
                throw new IllegalArgumentException(file + ": tensor '" + e.getKey() + "' is " + (t == null ? "null" : "freed")
                        + "; expected a live tensor");
            }
            long bytes = t.elements() * t.dtype().byteSize();
            entries.add(new SafeTensorsEntry(e.getKey(), t.dtype(), t.shape(), at, at + bytes));
            at += bytes;
        }
        for (Map.Entry<String, String> m : metadata.entrySet()) {
            if (m.getKey() == null || m.getValue() == null) {
                throw new IllegalArgumentException(file + ": metadata " + m.getKey() + "=" + m.getValue() + "; expected keys and values that are not null");
            }
        }
        byte[] header = new SafeTensorsHeader(entries, metadata).encode();
        try {
            AtomicFile.write(file, out -> {
                out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
                out.write(header);
                for (Tensor t : tensors.values()) writeData(out, t);
            });
        } catch (UncheckedIOException e) {
            throw new IOException(e.getMessage(), e.getCause());
        }
    }

    private static void writeData(OutputStream out, Tensor tensor) throws IOException {
        try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
            Tensor dense = tensor.isContiguous() ? tensor : tensor.contiguous();
            long bytes = dense.elements() * dense.dtype().byteSize();
            long from = dense.offset() * dense.dtype().byteSize();
            byte[] chunk = new byte[(int) Math.min(bytes, CHUNK)];
            MemorySegment staged = MemorySegment.ofArray(chunk);
            for (long at = 0; at < bytes; at += chunk.length) {
                int n = (int) Math.min(chunk.length, bytes - at);
                dense.backend().read(dense.storage(), from + at, staged.asSlice(0, n)); // after what computes it, on any thread
                out.write(chunk, 0, n);
            }
        }
    }

    /** Every tensor of {@code file} on the current backend, and its metadata. */
    public static SafeTensorsContent read(Path file) throws IOException {
        return read(file, Backends.current());
    }

    /**
     * Every tensor of {@code file} on {@code backend}, in the order of their data, and its metadata.
     * The tensors belong to the scope open at the call (as any new tensor does); closing the result
     * frees them.
     */
    public static SafeTensorsContent read(Path file, Backend backend) throws IOException {
        requireLittleEndianHost();
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long dataAt = 8 + headerLength(in, file);
            SafeTensorsHeader header = header(in, file);
            List<SafeTensorsEntry> byOffset = new ArrayList<>(header.entries());
            byOffset.sort(java.util.Comparator.comparingLong(SafeTensorsEntry::begin));
            Map<String, Tensor> tensors = new LinkedHashMap<>();
            try {
                for (SafeTensorsEntry e : byOffset) tensors.put(e.name(), readData(in, file, dataAt, e, backend));
            } catch (IOException | RuntimeException ex) {
                for (Tensor t : tensors.values()) t.close();
                throw ex;
            }
            return new SafeTensorsContent(tensors, header.metadata());
        }
    }

    /** The header of {@code file} (names, dtypes, shapes and metadata), checked, without reading any tensor. */
    public static SafeTensorsHeader header(Path file) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            return header(in, file);
        }
    }

    private static long headerLength(FileChannel in, Path file) throws IOException {
        long size = in.size();
        if (size < 8) {
            throw new IOException(file + ": " + size + " bytes; a safetensors file starts with an 8-byte header length (truncated, or not a safetensors file)");
        }
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        readFully(in, b, 0, file, "header length");
        long length = b.flip().getLong();
        if (length < 0 || length > SafeTensorsHeader.MAX_BYTES) {
            throw new IOException(file + ": header length " + Long.toUnsignedString(length) + " at offset 0; expected at most "
                    + SafeTensorsHeader.MAX_BYTES + " bytes (not a safetensors file?)");
        }
        if (length > size - 8) {
            throw new IOException(file + ": header length " + length + " at offset 0, but the file holds only " + (size - 8)
                    + " bytes after it (truncated, or not a safetensors file)");
        }
        return length;
    }

    private static SafeTensorsHeader header(FileChannel in, Path file) throws IOException {
        long length = headerLength(in, file);
        ByteBuffer json = ByteBuffer.allocate((int) length); // at most what the file holds, checked above
        readFully(in, json, 8, file, "header");
        return SafeTensorsHeader.parse(json.array(), file.toString(), in.size() - 8 - length);
    }

    private static Tensor readData(FileChannel in, Path file, long dataAt, SafeTensorsEntry e, Backend backend) throws IOException {
        Tensor t;
        try (var _ = Backends.using(backend); var _ = Autograd.noGrad()) {
            t = Tensor.zeros(e.dtype(), e.shape().dims());
        }
        try {
            ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(e.byteSize(), CHUNK));
            MemorySegment staged = MemorySegment.ofBuffer(chunk);
            for (long at = 0; at < e.byteSize(); at += chunk.capacity()) {
                int n = (int) Math.min(chunk.capacity(), e.byteSize() - at);
                chunk.clear().limit(n);
                readFully(in, chunk, dataAt + e.begin() + at, file, "data of tensor '" + e.name() + "'");
                // safetensors data is little-endian, as the host order of every platform Panamax builds for
                t.backend().write(t.storage(), at, staged.asSlice(0, n));
            }
            return t;
        } catch (IOException | RuntimeException ex) {
            t.close();
            throw ex;
        }
    }

    private static void readFully(FileChannel in, ByteBuffer into, long position, Path file, String what) throws IOException {
        long at = position;
        while (into.hasRemaining()) {
            int n = in.read(into, at);
            if (n < 0) {
                throw new IOException(file + ": the file ends at offset " + at + " inside the " + what + " (it was shortened while being read)");
            }
            at += n;
        }
    }
}
