/**
 * Panamax tensor kernels for OpenCL devices: every {@code dev.panamax.tensor.spi.Kernel} as generated
 * OpenCL C, compiled once per device through the compute API and encoded into a command buffer.
 */
module dev.panamax.tensor.opencl {
    requires transitive dev.panamax.tensor;
    requires transitive dev.panamax.compute;

    exports dev.panamax.tensor.opencl;
}
