package dev.panamax.compute;

/**
 * Whether encoding checks each command against the pipeline's metadata and the device's limits.
 * Some checks are cheap enough to run in both modes: a grid must be a whole number of threadgroups
 * with no empty dimension, thread counts must not overflow, and a threadgroup memory length must fit
 * the device.
 */
public enum Validation {
    /**
     * Argument count and kinds against the pipeline's arguments (a buffer, a value, threadgroup
     * memory; images, samplers and other objects are refused), a typed scalar against the value's
     * type ({@code setInt} on a {@code float} is refused), value sizes, the threadgroup memory of a
     * dispatch in all, grids against the device's limits, offsets inside buffers, buffers of the right
     * device, resources still open at commit.
     */
    CHECKED,
    /** No other checks: a mistake is the driver's error code at commit, or undefined behaviour (a crash). */
    UNCHECKED
}
