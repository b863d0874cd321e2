/**
 * Panamax Compute: a backend-neutral, Metal-style compute API. Devices come from the backends on the
 * module path or class path ({@link dev.panamax.compute.spi.ComputeBackend}, found with ServiceLoader).
 */
module dev.panamax.compute {
    requires transitive dev.panamax.core;

    exports dev.panamax.compute;
    exports dev.panamax.compute.spi;

    uses dev.panamax.compute.spi.ComputeBackend;
}
