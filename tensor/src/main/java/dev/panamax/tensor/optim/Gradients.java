package dev.panamax.tensor.optim;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.util.List;

/** What a training step does to gradients between backward and the optimizer's step. */
public final class Gradients {
    private Gradients() {}

    /**
     * PyTorch's {@code clip_grad_norm_}: the L2 norm of all the gradients of {@code params} taken
     * together (those without a gradient are skipped) and, where it exceeds {@code maxNorm}, every
     * gradient scaled in place by {@code maxNorm / (norm + 1e-6)}. The norm is returned as a rank-0
     * f32 tensor on the gradients' backend (0 when none has a gradient), and the scaling reads no value
     * on the host: a training step stays free of round trips until the caller reads the norm
     * ({@code item()}). A non-finite norm scales by NaN, as PyTorch does by default.
     *
     * <pre>{@code
     * loss.backward();
     * double norm = Gradients.clipByGlobalNorm(model.parameters(), 1.0).item();
     * adam.step();
     * }</pre>
     */
    public static Tensor clipByGlobalNorm(List<Tensor> params, double maxNorm) {
        if (params == null) throw new IllegalArgumentException("clipByGlobalNorm: params is null");
        if (!(maxNorm > 0)) throw new IllegalArgumentException("clipByGlobalNorm: maxNorm=" + maxNorm + "; expected maxNorm > 0");
        Tensor first = null;
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            if (p == null) throw new IllegalArgumentException("clipByGlobalNorm: parameter index=" + i + " is null");
            Tensor g = p.grad();
            if (g == null) continue;
            if (g.isFreed()) {
                throw new IllegalArgumentException("clipByGlobalNorm: the gradient of parameter index=" + i + " " + p.shape() + " was already freed");
            }
            if (first == null) first = p;
            else if (p.backend() != first.backend()) {
                throw new IllegalArgumentException("clipByGlobalNorm: parameter index=" + i + " " + p.shape() + " lives on the "
                        + p.backend().name() + " backend, another one on " + first.backend().name()
                        + "; expected every gradient on one backend");
            }
        }
        if (first == null) return Tensor.scalar(0);
        Tensor norm;
        try (var _ = Autograd.noGrad(); var scope = TensorScope.open()) {
            Tensor squares = null;
            for (Tensor p : params) {
                Tensor g = p.grad();
                if (g == null) continue;
                Tensor g32 = g.cast(DType.F32);
                Tensor s = g32.mul(g32).sum();
                squares = squares == null ? s : squares.add(s);
            }
            norm = scope.keep(squares.sqrt());
            Tensor one = norm.onesLike();
            Tensor factor = norm.add(1e-6).pow(-1.0).mul(maxNorm).minimum(one);
            for (Tensor p : params) {
                Tensor g = p.grad();
                if (g != null) g.mulInPlace(factor);
            }
        }
        return norm;
    }
}
