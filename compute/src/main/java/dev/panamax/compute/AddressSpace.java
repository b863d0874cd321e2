package dev.panamax.compute;

/** Where a kernel argument points, or {@link #VALUE} when it is passed by value. */
public enum AddressSpace {
    /** Device memory: bind a {@link Buffer}. */
    DEVICE,
    /** Read-only device memory: bind a {@link Buffer}. */
    CONSTANT,
    /** Threadgroup memory: give its length with {@link ComputeEncoder#setThreadgroupMemoryLength}. */
    THREADGROUP,
    /** A value: {@link ComputeEncoder#setBytes} or a typed scalar. */
    VALUE
}
