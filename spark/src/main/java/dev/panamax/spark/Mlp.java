package dev.panamax.spark;

import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A multilayer perceptron: {@code Linear} layers with a {@code ReLU} between each two, as
 * {@code new Mlp(2, List.of(64), 3)} builds {@code Sequential(Linear(2, 64), ReLU(), Linear(64, 3))}
 * (parameter names {@code 0.weight}, {@code 0.bias}, {@code 2.weight}, {@code 2.bias}, as PyTorch's
 * {@code nn.Sequential} names them).
 *
 * @param inputs  features per row
 * @param hidden  the width of each hidden layer, in order (empty: one linear layer)
 * @param outputs classes (logits per row)
 */
public record Mlp(int inputs, List<Integer> hidden, int outputs) implements ModuleFactory {
    public Mlp {
        hidden = List.copyOf(hidden);
        if (inputs < 1) throw new IllegalArgumentException("mlp: inputs=" + inputs + ", expected at least 1");
        if (outputs < 1) throw new IllegalArgumentException("mlp: outputs=" + outputs + ", expected at least 1");
        for (int i = 0; i < hidden.size(); i++) {
            if (hidden.get(i) < 1) throw new IllegalArgumentException("mlp: hidden layer index=" + i + " has width " + hidden.get(i) + ", expected at least 1");
        }
    }

    @Override
    public Module create(RandomGenerator rng) {
        List<Module> layers = new ArrayList<>();
        int width = inputs;
        for (int h : hidden) {
            layers.add(new Linear(width, h, rng));
            layers.add(new ReLU());
            width = h;
        }
        layers.add(new Linear(width, outputs, rng));
        return new Sequential(layers.toArray(Module[]::new));
    }
}
