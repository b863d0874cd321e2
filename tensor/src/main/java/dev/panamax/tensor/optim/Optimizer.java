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
    /** Every group's parameters, in order: group 0's first. */
    protected final List<Tensor> parameters;
    private final List<ParamGroup> groups;
    private final List<Tensor> state = new ArrayList<>();

    /**
     * Checks every parameter: a leaf that requires gradients, given once in all the groups (a
     * parameter listed twice, or two sharing one storage, would be stepped twice per step). A group
     * without its own learning rate or weight decay takes {@code lr} and {@code weightDecay}.
     */
    protected Optimizer(List<ParamGroup> groups, double lr, double weightDecay) {
        if (groups == null || groups.isEmpty()) throw new IllegalArgumentException("optimizer: no param groups; expected at least one");
        List<Tensor> all = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            if (groups.get(g) == null) throw new IllegalArgumentException("optimizer param group index=" + g + " is null");
            for (Tensor p : groups.get(g).params()) {
                where.add(groups.size() == 1 ? "" : " (group " + g + ")");
                all.add(p);
            }
        }
        Map<Object, Integer> seen = new IdentityHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            Tensor p = all.get(i);
            if (p == null) throw new IllegalArgumentException("optimizer parameter index=" + i + where.get(i) + " is null");
            if (!p.requiresGrad() || !p.isLeaf()) {
                throw new IllegalArgumentException("optimizer parameter index=" + i + where.get(i) + " " + p.shape() + " "
                        + p.dtype().label() + " must be a leaf that requires gradients");
            }
            Integer first = seen.putIfAbsent(p.storage(), i);
            if (first != null) {
                throw new IllegalArgumentException("optimizer parameter index=" + i + where.get(i) + " " + p.shape() + " " + p.dtype().label()
                        + (all.get(first) == p ? " is the same tensor as" : " shares its storage with") + " parameter index="
                        + first + where.get(first) + "; expected each parameter once (it would be updated twice per step)");
            }
        }
        for (int g = 0; g < groups.size(); g++) {
            if (groups.indexOf(groups.get(g)) != g) {
                throw new IllegalArgumentException("optimizer param group index=" + g + " is the same group as index="
                        + groups.indexOf(groups.get(g)) + "; expected each group once");
            }
        }
        for (int g = 0; g < groups.size(); g++) groups.get(g).join(lr, weightDecay, g);
        this.parameters = List.copyOf(all);
        this.groups = List.copyOf(groups);
    }

    /** The parameter groups, in order (PyTorch's {@code param_groups}); set a group's lr or weight decay through them. */
    public final List<ParamGroup> paramGroups() {
        return groups;
    }

    /** Sets the learning rate of every group ({@code >= 0}, finite). */
    public final void setLr(double lr) {
        ParamGroup.checkLr("setLr", lr);
        for (ParamGroup g : groups) g.setLr(lr);
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
