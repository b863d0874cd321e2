package dev.panamax.compute;

/**
 * What kind of thing a kernel argument takes: where it points, {@link #VALUE} when it is passed by
 * value, or an object the compute API does not bind (images, samplers and other objects are refused
 * in a CHECKED command buffer, whatever is given).
 */
public enum AddressSpace {
    /** Device memory: bind a {@link Buffer}. */
    DEVICE,
    /** Read-only device memory: bind a {@link Buffer}. */
    CONSTANT,
    /** Threadgroup memory: give its length with {@link ComputeEncoder#setThreadgroupMemoryLength}. */
    THREADGROUP,
    /** A value: {@link ComputeEncoder#setBytes} or a typed scalar (see {@link ValueType}). */
    VALUE,
    /** An image (OpenCL {@code image2d_t} and the like, a Metal texture): not bound by the compute API. */
    IMAGE,
    /** A sampler (OpenCL {@code sampler_t}): not bound by the compute API. */
    SAMPLER,
    /** Another object the compute API does not bind (an OpenCL pipe, device queue or event). */
    OBJECT,
    /**
     * The backend could not tell (the driver gives no argument metadata): only the argument count,
     * and value sizes where known, are checked.
     */
    UNKNOWN
}
