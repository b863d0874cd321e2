package dev.panamax.compute.spi;

import dev.panamax.compute.Buffer;

/** What an encoder bound to one argument slot, as a backend receives it in a {@link Command.Dispatch}. */
public sealed interface Argument {
    /** A buffer from {@code offset} on. */
    record BufferArgument(Buffer buffer, long offset) implements Argument {}

    /**
     * Up to 8 bytes by value, in the low bytes of {@code bits} (little-endian, as the device reads
     * them); {@code floating}: given as a float or double (else as an integer, or half bits).
     */
    record ScalarArgument(long bits, int bytes, boolean floating) implements Argument {}

    /**
     * Bytes by value, or, bound to a buffer argument, the contents of a transient buffer the backend
     * makes for the run (Metal's {@code setBytes}); {@code elements}: how they were given (raw bytes,
     * or ints or floats, which a CHECKED encoder matches against the argument's element kind).
     */
    record BytesArgument(byte[] bytes, Elements elements) implements Argument {
        /** Raw bytes ({@code setBytes}). */
        public BytesArgument(byte[] bytes) {
            this(bytes, Elements.BYTES);
        }
    }

    /** How the bytes of a {@link BytesArgument} were given. */
    enum Elements {
        /** {@code setBytes}: any value of its size. */
        BYTES,
        /** {@code setInts}: integers, for an integer scalar, an integer vector or a struct. */
        INTS,
        /** {@code setFloats}: floats, for a floating scalar, a floating vector or a struct. */
        FLOATS
    }

    /** Threadgroup (local) memory of {@code bytes}. */
    record ThreadgroupMemory(long bytes) implements Argument {}

    /** Bytes passed by value or in a transient buffer. */
    default long valueBytes() {
        return switch (this) {
            case ScalarArgument s -> s.bytes();
            case BytesArgument b -> b.bytes().length;
            case BufferArgument b -> -1;
            case ThreadgroupMemory t -> -1;
        };
    }
}
