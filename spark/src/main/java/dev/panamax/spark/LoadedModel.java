package dev.panamax.spark;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.spi.Backend;

/**
 * A model as one executor holds it: the module on its backend, and what a batch through it costs.
 *
 * @param module         the module, evaluation mode, parameters on {@code backend}
 * @param backend        where it computes
 * @param inputs         features per row (the width of the first layer's input)
 * @param outputs        logits per row
 * @param bytesPerRow    native bytes one row of a batch takes while the forward pass runs: the input
 *                       and every layer's output (a scope keeps them all until the batch ends)
 * @param parameterBytes native bytes of the parameters
 */
record LoadedModel(Module module, Backend backend, int inputs, int outputs, long bytesPerRow, long parameterBytes) {
    /**
     * Builds {@code factory}'s module on {@code backend} with {@code state}'s weights and measures a
     * row's cost by running one zero row through it ({@link Sequential}: layer by layer).
     */
    static LoadedModel load(ModelState state, ModuleFactory factory, Backend backend) {
        Module module;
        try (var _ = dev.panamax.tensor.Backends.using(backend)) {
            module = state.newModule(factory);
        }
        try {
            module.setTraining(false);
            int inputs = inputWidth(state);
            long elements = inputs;
            int outputs;
            try (var _ = dev.panamax.tensor.Backends.using(backend); var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
                Tensor x = Tensor.zeros(1, inputs);
                if (module instanceof Sequential seq) {
                    for (Module layer : seq.layers()) {
                        x = layer.forward(x);
                        elements += x.elements();
                    }
                } else {
                    x = module.forward(x);
                    elements += x.elements();
                }
                if (x.shape().rank() != 2 || x.shape().dim(0) != 1) {
                    throw new IllegalArgumentException("the model maps a (1, " + inputs + ") batch to " + x.shape()
                            + "; expected (rows, classes) logits");
                }
                outputs = x.shape().dim(1);
            }
            return new LoadedModel(module, backend, inputs, outputs, 4 * elements, state.parameterBytes());
        } catch (RuntimeException e) {
            module.close();
            throw e;
        }
    }

    /** The input width: the second dimension of the first parameter (a first Linear's weight is (out, in)). */
    private static int inputWidth(ModelState state) {
        if (state.parameters().isEmpty() || state.parameters().getFirst().shape().length != 2) {
            throw new IllegalArgumentException("cannot tell the model's input width: its first parameter is "
                    + (state.parameters().isEmpty() ? "missing" : state.parameters().getFirst())
                    + "; expected a first layer's (out, in) weight, as Linear has");
        }
        return state.parameters().getFirst().shape()[1];
    }

    /** Frees the module's parameters. */
    void close() {
        module.close();
    }
}
