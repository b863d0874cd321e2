package dev.panamax.compute;

/** Whether encoding checks each command against the pipeline's metadata and the device's limits. */
public enum Validation {
    /**
     * Argument count, kinds and sizes against the pipeline's arguments, grids against the device's
     * limits, offsets inside buffers, buffers of the right device, resources still open at commit.
     */
    CHECKED,
    /** No checks: a mistake is the driver's error code at commit, or undefined behaviour. */
    UNCHECKED
}
