package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.function.UnaryOperator;

/** A parameter-free elementwise layer. */
abstract sealed class Activation implements Module permits ReLU, GELU, Tanh, Sigmoid, SiLU {
    private final UnaryOperator<Tensor> f;

    Activation(UnaryOperator<Tensor> f) {
        this.f = f;
    }

    @Override
    public Tensor forward(Tensor input) {
        return f.apply(input);
    }
}
