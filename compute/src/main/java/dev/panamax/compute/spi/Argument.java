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
     * makes for the run (Metal's {@code setBytes}).
     */
    record BytesArgument(byte[] bytes) implements Argument {}

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
