package dev.panamax.spark;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.optim.Optimizer;
import dev.panamax.tensor.optim.OptimizerState;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A model's parameters (and, while training, its optimizer's state) as plain Java data: what the
 * driver broadcasts to executors and what {@code treeAggregate} sums across partitions. Tensors never
 * cross the network; each side copies values in and out of its own native memory.
 *
 * @param parameters      the module's {@link Module#stateDict()}, in order
 * @param optimizer       the optimizer's tensors ({@link OptimizerState} names), empty when none
 * @param optimizerValues the optimizer's scalar values ({@code step}, ...), empty when none
 */
public record ModelState(List<NamedValues> parameters, List<NamedValues> optimizer, Map<String, String> optimizerValues)
        implements Serializable {
    public ModelState {
        parameters = List.copyOf(parameters);
        optimizer = List.copyOf(optimizer);
        optimizerValues = Map.copyOf(optimizerValues);
    }

    /** The parameters of {@code module}, copied out. */
    public static ModelState of(Module module) {
        return new ModelState(values(module.stateDict()), List.of(), Map.of());
    }

    /** The parameters of {@code module} and the state of {@code optimizer}, copied out. */
    public static ModelState of(Module module, Optimizer optimizer) {
        OptimizerState state = optimizer.state();
        return new ModelState(values(module.stateDict()), values(state.tensors()), state.values());
    }

    private static List<NamedValues> values(Map<String, Tensor> tensors) {
        List<NamedValues> out = new ArrayList<>();
        tensors.forEach((name, t) -> out.add(new NamedValues(name, t.shape().dims(), t.toFloatArray())));
        return out;
    }

    /** A new module from {@code factory} holding these parameters; the caller closes it. */
    public Module newModule(ModuleFactory factory) {
        Module module = TensorScope.unscoped(() -> factory.create(new SplittableRandom(0)));
        try {
            copyInto(module);
            return module;
        } catch (RuntimeException e) {
            module.close();
            throw e;
        }
    }

    /** Copies these parameters into {@code module} by name; its architecture must match. */
    public void copyInto(Module module) {
        Map<String, Tensor> target = module.stateDict();
        List<String> expected = new ArrayList<>();
        target.forEach((name, t) -> expected.add(name + " " + java.util.Arrays.toString(t.shape().dims())));
        List<String> given = parameters.stream().map(NamedValues::toString).toList();
        if (!expected.equals(given)) {
            throw new IllegalArgumentException("model state does not fit the module (another architecture?): the state has " + given
                    + "; the module has " + expected);
        }
        try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
            for (NamedValues v : parameters) target.get(v.name()).copyFrom(Tensor.of(v.values(), v.shape()));
        }
    }

    /** Restores the optimizer state held here into {@code optimizer} (nothing when none is held). */
    public void restoreInto(Optimizer optimizer) {
        if (optimizerValues.isEmpty()) return;
        try (var _ = TensorScope.open()) {
            Map<String, Tensor> tensors = new LinkedHashMap<>();
            for (NamedValues v : this.optimizer) tensors.put(v.name(), Tensor.of(v.values(), v.shape()));
            String kind = optimizerValues.getOrDefault(KIND, optimizer.getClass().getSimpleName());
            Map<String, String> values = new LinkedHashMap<>(optimizerValues);
            values.remove(KIND);
            optimizer.restore(new OptimizerState(kind, tensors, values), "the averaged training state");
        }
    }

    private static final String KIND = "kind";

    /** This state with the optimizer's kind noted, so {@link #restoreInto} can name it. */
    ModelState withOptimizerKind(String kind) {
        Map<String, String> values = new LinkedHashMap<>(optimizerValues);
        values.put(KIND, kind);
        return new ModelState(parameters, optimizer, values);
    }

    /** The elementwise sum of two states of one model; the optimizer's values are this one's. */
    ModelState plus(ModelState other) {
        return new ModelState(sum(parameters, other.parameters), sum(optimizer, other.optimizer), optimizerValues);
    }

    /** Every tensor times {@code factor}. */
    ModelState times(double factor) {
        return new ModelState(parameters.stream().map(v -> v.times(factor)).toList(),
                optimizer.stream().map(v -> v.times(factor)).toList(), optimizerValues);
    }

    private static List<NamedValues> sum(List<NamedValues> a, List<NamedValues> b) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("cannot add states of " + a.size() + " and " + b.size() + " tensors; expected the same model on every partition");
        }
        List<NamedValues> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) out.add(a.get(i).plus(b.get(i)));
        return out;
    }

    /** Bytes the parameters take as f32 tensors. */
    public long parameterBytes() {
        long n = 0;
        for (NamedValues v : parameters) n += 4L * v.values().length;
        return n;
    }
}
