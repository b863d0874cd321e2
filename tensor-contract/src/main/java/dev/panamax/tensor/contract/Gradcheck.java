package dev.panamax.tensor.contract;

import dev.panamax.tensor.*;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * PyTorch's {@code gradcheck} for f32: the gradient autograd computes for {@code sum(f(x) * r)}
 * (a fixed random {@code r}) against central finite differences, input element by input element.
 * f32 rounding limits the agreement to about 1e-3 relative with a step of 1e-2 on values of order 1.
 *
 * <pre>{@code
 * Gradcheck.check("tanh", x -> x[0].tanh(), Gradcheck.random(1, 3, 4));
 * }</pre>
 */
public final class Gradcheck {
    private static final double STEP = 1e-2;
    private static final double TOLERANCE = 1e-2;

    private Gradcheck() {}

    /** Values in [-1.5, 1.5) for an input of the given dims. */
    public static Input random(long seed, int... dims) {
        return uniform(seed, -1.5, 1.5, dims);
    }

    /** Values in [low, high) for an input of the given dims. */
    public static Input uniform(long seed, double low, double high, int... dims) {
        var rng = new SplittableRandom(seed);
        int n = 1;
        for (int d : dims) n *= d;
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) (low + (high - low) * rng.nextDouble());
        return new Input(v, dims);
    }

    /** An input's values and dims. */
    public record Input(float[] values, int[] dims) {}

    /** Fails naming the input and element whose gradient disagrees. */
    public static void check(String what, Function<Tensor[], Tensor> f, Input... inputs) {
        try (var _ = TensorScope.open()) {
            Tensor[] xs = new Tensor[inputs.length];
            for (int i = 0; i < inputs.length; i++) xs[i] = Tensor.of(inputs[i].values, inputs[i].dims).requiresGrad(true);
            try {
                compare(what, f, inputs, xs);
            } finally {
                for (Tensor x : xs) x.close();
            }
        }
    }

    private static void compare(String what, Function<Tensor[], Tensor> f, Input[] inputs, Tensor[] xs) {
        {
            Tensor out = f.apply(xs);
            Tensor r = Tensor.uniform(new SplittableRandom(what.hashCode()), -1, 1, out.dims());
            float[] weights = r.toFloatArray();
            out.mul(r).sum().backward();
            for (int i = 0; i < inputs.length; i++) {
                float[] analytic = xs[i].grad() == null ? new float[inputs[i].values.length] : xs[i].grad().toFloatArray();
                xs[i].zeroGrad();
                for (int e = 0; e < analytic.length; e++) {
                    double numeric = (loss(f, inputs, weights, i, e, STEP) - loss(f, inputs, weights, i, e, -STEP)) / (2 * STEP);
                    double scale = Math.max(1, Math.max(Math.abs(numeric), Math.abs(analytic[e])));
                    if (Math.abs(numeric - analytic[e]) > TOLERANCE * scale) {
                        fail(what + ": gradient of input " + i + " element " + e + ": autograd " + analytic[e] + ", finite differences "
                                + numeric + "\nautograd " + Arrays.toString(analytic));
                    }
                }
            }
        }
    }

    private static double loss(Function<Tensor[], Tensor> f, Input[] inputs, float[] weights, int which, int element, double delta) {
        try (var _ = TensorScope.open(); var _ = Autograd.noGrad()) {
            Tensor[] xs = new Tensor[inputs.length];
            for (int i = 0; i < inputs.length; i++) {
                float[] v = inputs[i].values.clone();
                if (i == which) v[element] += (float) delta;
                xs[i] = Tensor.of(v, inputs[i].dims);
            }
            double[] out = f.apply(xs).toDoubleArray();
            double sum = 0;
            for (int k = 0; k < out.length; k++) sum += out[k] * weights[k];
            return sum;
        }
    }
}
