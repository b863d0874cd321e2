package dev.panamax.tensor.optim;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Updates parameters in place from their gradients. {@link #step()} runs without autograd and in a
 * scope of its own (its temporaries are freed when it returns); state such as momentum belongs to
 * the optimizer ({@link #close()} frees it).
 */
public abstract class Optimizer implements AutoCloseable {
    protected final List<Tensor> parameters;
    private final List<Tensor> state = new ArrayList<>();

    /**
     * Checks every parameter: a leaf that requires gradients, given once (a parameter listed twice,
     * or two sharing one storage, would be stepped twice per step).
     */
    protected Optimizer(List<Tensor> parameters) {
        Map<Object, Integer> seen = new IdentityHashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            Tensor p = parameters.get(i);
            if (p == null) throw new IllegalArgumentException("optimizer parameter index=" + i + " is null");
            if (!p.requiresGrad() || !p.isLeaf()) {
                throw new IllegalArgumentException("optimizer parameter index=" + i + " " + p.shape() + " " + p.dtype().label()
                        + " must be a leaf that requires gradients");
            }
            Integer first = seen.putIfAbsent(p.storage(), i);
            if (first != null) {
                throw new IllegalArgumentException("optimizer parameter index=" + i + " " + p.shape() + " " + p.dtype().label()
                        + (parameters.get(first) == p ? " is the same tensor as" : " shares its storage with") + " parameter index="
                        + first + "; expected each parameter once (it would be updated twice per step)");
            }
        }
        this.parameters = List.copyOf(parameters);
    }

    /** One update of every parameter that has a gradient. */
    public final void step() {
        try (var off = Autograd.noGrad(); var scope = TensorScope.open()) {
            update();
        }
    }

    /** The update itself; runs under noGrad in a scope. */
    protected abstract void update();

    /** Drops every parameter's gradient (the next backward starts from zero). */
    public void zeroGrad() {
        for (Tensor p : parameters) p.zeroGrad();
    }

    /** Zeros shaped like {@code like}, owned by this optimizer (not by the step's scope). */
    protected final Tensor newState(Tensor like) {
        Tensor s = TensorScope.unscoped(like::zerosLike);
        state.add(s);
        return s;
    }

    /** Frees the optimizer's state (not the parameters). */
    @Override
    public void close() {
        for (Tensor s : state) s.close();
        state.clear();
    }
}
