/**
 * Panamax tensors: NumPy-style tensors on owned native memory, reverse-mode autograd, nn layers,
 * optimizers, data loading and {@code .npy}/{@code .npz} files; backends are found through the
 * {@link dev.panamax.tensor.spi.BackendProvider} SPI.
 */
module dev.panamax.tensor {
    requires transitive dev.panamax.core;
    requires com.fasterxml.jackson.core;

    exports dev.panamax.tensor;
    exports dev.panamax.tensor.data;
    exports dev.panamax.tensor.io;
    exports dev.panamax.tensor.nn;
    exports dev.panamax.tensor.optim;
    exports dev.panamax.tensor.spi;
    exports dev.panamax.tensor.reference;
    exports dev.panamax.tensor.cpu;

    uses dev.panamax.tensor.spi.BackendProvider;
    provides dev.panamax.tensor.spi.BackendProvider
            with dev.panamax.tensor.reference.ReferenceProvider, dev.panamax.tensor.cpu.CpuProvider;
    provides dev.panamax.core.SettingDeclarations with dev.panamax.tensor.TensorSettings;
}
