/**
 * Panamax tensors on OpenCL devices: the {@code opencl} tensor backend ({@link
 * dev.panamax.tensor.opencl.OpenClTensorBackend}), every {@code dev.panamax.tensor.spi.Kernel} as
 * generated OpenCL C compiled once per device through the compute API, matrix products through
 * CLBlast, all encoded into the compute API's command buffers.
 */
module dev.panamax.tensor.opencl {
    requires transitive dev.panamax.tensor;
    requires transitive dev.panamax.compute;
    requires dev.panamax.clblast;

    exports dev.panamax.tensor.opencl;

    provides dev.panamax.tensor.spi.BackendProvider with dev.panamax.tensor.opencl.OpenClTensorProvider;
}
