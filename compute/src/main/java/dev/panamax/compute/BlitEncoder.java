package dev.panamax.compute;

import dev.panamax.compute.spi.Command;
import dev.panamax.core.fp16.Fp16;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Encodes copies, fills, reads and writes into a {@link CommandBuffer}: how data reaches and
 * leaves a PRIVATE buffer. Writes read their source when encoded (a snapshot); reads fill their
 * destination when the command buffer completes. {@code writeHalf}/{@code readHalf} convert
 * between float and IEEE half on the way (core's fp16). Belongs to one thread; {@link #close()} ends it.
 *
 * <pre>{@code
 * float[] out = new float[n];
 * try (BlitEncoder b = cb.blitEncoder()) {
 *     b.write(weights, 0, hostWeights);      // float[] -> PRIVATE buffer
 *     b.read(result, 0, out);                 // filled when cb completes
 * }
 * }</pre>
 */
public final class BlitEncoder implements AutoCloseable {
    private final CommandBuffer owner;
    private final boolean checked;

    BlitEncoder(CommandBuffer owner) {
        this.owner = owner;
        this.checked = owner.validation() == Validation.CHECKED;
    }

    /** Copies {@code bytes} from {@code source} at {@code sourceOffset} to {@code destination} at {@code destinationOffset}. */
    public BlitEncoder copy(Buffer source, long sourceOffset, Buffer destination, long destinationOffset, long bytes) {
        owner.ensureOpenForCommands(this);
        check(source, sourceOffset, bytes, "copy source");
        check(destination, destinationOffset, bytes, "copy destination");
        owner.use(source);
        owner.use(destination);
        owner.add(new Command.Copy(source, sourceOffset, destination, destinationOffset, bytes));
        return this;
    }

    /** Sets {@code bytes} of {@code buffer} from {@code offset} to {@code value}. */
    public BlitEncoder fill(Buffer buffer, long offset, long bytes, byte value) {
        owner.ensureOpenForCommands(this);
        check(buffer, offset, bytes, "fill");
        owner.use(buffer);
        owner.add(new Command.Fill(buffer, offset, bytes, value));
        return this;
    }

    /** Writes a snapshot of {@code data} into {@code buffer} at {@code offset}. */
    public BlitEncoder write(Buffer buffer, long offset, float[] data) {
        return writeSnapshot(buffer, offset, MemorySegment.ofArray(data.clone()));
    }

    /** Writes a snapshot of {@code data} into {@code buffer} at {@code offset}. */
    public BlitEncoder write(Buffer buffer, long offset, int[] data) {
        return writeSnapshot(buffer, offset, MemorySegment.ofArray(data.clone()));
    }

    /** Writes a snapshot of {@code data} into {@code buffer} at {@code offset}. */
    public BlitEncoder write(Buffer buffer, long offset, byte[] data) {
        return writeSnapshot(buffer, offset, MemorySegment.ofArray(data.clone()));
    }

    /**
     * Writes {@code data} into {@code buffer} at {@code offset}. A native segment is read when the
     * command runs (keep it alive and unchanged until completion); a heap one is copied now.
     */
    public BlitEncoder write(Buffer buffer, long offset, MemorySegment data) {
        return writeSnapshot(buffer, offset, data.isNative() ? data : MemorySegment.ofArray(data.toArray(ValueLayout.JAVA_BYTE)));
    }

    /** Converts {@code data} to IEEE half now and writes the halves into {@code buffer} at {@code offset}. */
    public BlitEncoder writeHalf(Buffer buffer, long offset, float[] data) {
        short[] halves = new short[data.length];
        Fp16.toHalf(data, 0, halves, 0, data.length);
        return writeSnapshot(buffer, offset, MemorySegment.ofArray(halves));
    }

    /** Reads {@code destination.length} floats of {@code buffer} from {@code offset} into {@code destination}, when the command buffer completes. */
    public BlitEncoder read(Buffer buffer, long offset, float[] destination) {
        return readInto(buffer, offset, (long) destination.length * Float.BYTES,
                s -> MemorySegment.copy(s, ValueLayout.JAVA_FLOAT, 0, destination, 0, destination.length));
    }

    /** Reads {@code destination.length} ints of {@code buffer} from {@code offset} into {@code destination}, when the command buffer completes. */
    public BlitEncoder read(Buffer buffer, long offset, int[] destination) {
        return readInto(buffer, offset, (long) destination.length * Integer.BYTES,
                s -> MemorySegment.copy(s, ValueLayout.JAVA_INT, 0, destination, 0, destination.length));
    }

    /** Reads {@code destination.length} bytes of {@code buffer} from {@code offset} into {@code destination}, when the command buffer completes. */
    public BlitEncoder read(Buffer buffer, long offset, byte[] destination) {
        return readInto(buffer, offset, destination.length,
                s -> MemorySegment.copy(s, ValueLayout.JAVA_BYTE, 0, destination, 0, destination.length));
    }

    /** Reads {@code destination.byteSize()} bytes of {@code buffer} from {@code offset} into {@code destination}, when the command buffer completes. */
    public BlitEncoder read(Buffer buffer, long offset, MemorySegment destination) {
        return readInto(buffer, offset, destination.byteSize(), s -> MemorySegment.copy(s, 0, destination, 0, destination.byteSize()));
    }

    /** Reads {@code destination.length} halves of {@code buffer} from {@code offset}, converted to float into {@code destination} when the command buffer completes. */
    public BlitEncoder readHalf(Buffer buffer, long offset, float[] destination) {
        return readInto(buffer, offset, (long) destination.length * Short.BYTES, s -> Fp16.toFloat(s, 0, destination, 0, destination.length));
    }

    /** Ends encoding. Idempotent. */
    public void endEncoding() {
        owner.encoderEnded(this);
    }

    /** {@link #endEncoding()}. */
    @Override
    public void close() {
        endEncoding();
    }

    private BlitEncoder writeSnapshot(Buffer buffer, long offset, MemorySegment data) {
        owner.ensureOpenForCommands(this);
        check(buffer, offset, data.byteSize(), "write");
        owner.use(buffer);
        owner.add(new Command.Write(buffer, offset, data));
        return this;
    }

    private BlitEncoder readInto(Buffer buffer, long offset, long bytes, java.util.function.Consumer<MemorySegment> deliver) {
        owner.ensureOpenForCommands(this);
        check(buffer, offset, bytes, "read");
        owner.use(buffer);
        owner.add(new Command.Read(buffer, offset, bytes, deliver));
        return this;
    }

    private void check(Buffer buffer, long offset, long bytes, String what) {
        if (buffer == null) throw new EncodingException(owner.where() + " (" + what + "): the buffer is null");
        if (!checked) return;
        if (buffer.device() != owner.queue().device())
            throw new EncodingException(owner.where() + " (" + what + "): " + buffer.describe() + " belongs to another device");
        if (buffer.isClosed()) throw new EncodingException(owner.where() + " (" + what + "): " + buffer.describe() + " is closed");
        if (bytes <= 0) throw new EncodingException(owner.where() + " (" + what + "): " + bytes + " bytes (expected at least 1)");
        if (offset < 0 || offset > buffer.length() - bytes)
            throw new EncodingException(owner.where() + " (" + what + "): bytes " + offset + " to " + (offset + bytes) + " are outside "
                    + buffer.describe() + " (length " + buffer.length() + ")");
    }
}
