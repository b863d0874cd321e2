package dev.panamax.compute;

/**
 * What a by-value argument holds, which decides the setters a CHECKED command buffer accepts for
 * it. {@link ComputeEncoder#setBytes} of the right size fits every value; a typed scalar fits only
 * its own kind, so {@code setInt} on a {@code float} is refused instead of passing an integer's bits
 * as a float, and so do {@code setInts} and {@code setFloats} ({@code setInts} on a {@code float4}
 * is refused; on a struct, either fits).
 */
public enum ValueType {
    /** {@code char} to {@code ulong}, {@code size_t}: {@code setInt}, {@code setLong}, {@code setShort} of its size. */
    INTEGER,
    /** {@code float}, {@code double}: {@code setFloat}, {@code setDouble} of its size. */
    FLOAT,
    /** {@code half}: {@code setShort} with its bits. */
    HALF,
    /** A vector ({@code float4}, {@code int2}): {@code setBytes} of its size, or {@code setFloats} or {@code setInts} as its elements are. */
    VECTOR,
    /**
     * A struct or a type the backend does not know by name (a typedef): {@code setBytes} or any scalar
     * of its size, when the size is known.
     */
    OTHER,
    /** Not passed by value: a buffer, threadgroup memory, an image, a sampler. */
    NONE
}
