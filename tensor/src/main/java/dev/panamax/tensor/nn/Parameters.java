package dev.panamax.tensor.nn;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Npy;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Parameters: made outside any scope (they outlive training steps), and saved to / loaded from
 * NumPy's {@code .npz} by name, so {@code np.load("model.npz")["0.weight"]} reads them in Python.
 *
 * <pre>{@code
 * Parameters.save(model, Path.of("model.npz"));
 * Parameters.load(model, Path.of("model.npz"));    // same names and shapes required
 * }</pre>
 */
public final class Parameters {
    private Parameters() {}

    /** A leaf requiring gradients, uniform in {@code [-bound, bound)}, owned by no scope. */
    public static Tensor uniform(RandomGenerator rng, double bound, int... dims) {
        return TensorScope.unscoped(() -> Tensor.uniform(rng, -bound, bound, dims).requiresGrad(true));
    }

    /** A leaf requiring gradients, normal(0, std), owned by no scope. */
    public static Tensor normal(RandomGenerator rng, double std, int... dims) {
        return TensorScope.unscoped(() -> Tensor.normal(rng, 0, std, dims).requiresGrad(true));
    }

    /** A leaf requiring gradients filled with {@code value}, owned by no scope. */
    public static Tensor full(double value, int... dims) {
        return TensorScope.unscoped(() -> Tensor.full(DType.F32, value, dims).requiresGrad(true));
    }

    /** Writes every parameter and buffer of {@code module} ({@link Module#stateDict()}) under its name to a {@code .npz} archive. */
    public static void save(Module module, Path file) throws IOException {
        Npy.writeNpz(file, module.stateDict());
    }

    /**
     * Copies the arrays of a {@code .npz} archive into {@code module}'s parameters and buffers, by name.
     *
     * @throws IOException              when the file cannot be read
     * @throws IllegalArgumentException when a parameter is missing from the file or has another shape
     */
    public static void load(Module module, Path file) throws IOException {
        try (var _ = TensorScope.open(); var _ = Autograd.noGrad()) {
            Map<String, Tensor> saved = Npy.readNpz(file);
            for (Map.Entry<String, Tensor> e : module.stateDict().entrySet()) {
                Tensor value = saved.get(e.getKey());
                if (value == null) {
                    throw new IllegalArgumentException(file + ": no array '" + e.getKey() + "' for parameter " + e.getKey()
                            + " " + e.getValue().shape() + "; the file has " + saved.keySet());
                }
                if (!value.shape().equals(e.getValue().shape())) {
                    throw new IllegalArgumentException(file + ": array '" + e.getKey() + "' has shape " + value.shape()
                            + "; expected " + e.getValue().shape());
                }
                e.getValue().copyFrom(value.to(e.getValue().backend()).cast(e.getValue().dtype())); // read on the current backend, moved to the parameter's
            }
        }
    }
}
