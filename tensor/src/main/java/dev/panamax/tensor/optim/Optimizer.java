package dev.panamax.tensor.optim;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
        try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
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

    /** Makes {@code s} (made by the subclass, unscoped) this optimizer's state: {@link #close()} frees it. */
    protected final Tensor keepState(Tensor s) {
        state.add(s);
        return s;
    }

    // ---------------------------------------------------------------- state for checkpoints

    /**
     * This optimizer's state, named as in PyTorch's {@code state_dict()} ({@link OptimizerState});
     * the tensors are the optimizer's own. An optimizer without state gives none.
     */
    public OptimizerState state() {
        return new OptimizerState(getClass().getSimpleName(), Map.of(), Map.of());
    }

    /**
     * Replaces this optimizer's state with {@code state} (copied in; a parameter without state in it
     * starts afresh, as in a new optimizer). Everything is checked before anything changes: the
     * kind, each tensor's name ({@code state.<index>.<name>}, a parameter index of this optimizer,
     * a name it keeps) and shape (its parameter's). {@code source} names where the state came
     * from in errors.
     *
     * @throws IllegalArgumentException naming {@code source}, the tensor and what was expected
     */
    public final void restore(OptimizerState state, String source) {
        String kind = getClass().getSimpleName();
        if (!state.kind().equals(kind)) {
            throw new IllegalArgumentException(source + ": holds " + state.kind() + " state; this optimizer is " + kind);
        }
        Map<Integer, Map<String, Tensor>> perParameter = new TreeMap<>();
        for (Map.Entry<String, Tensor> e : state.tensors().entrySet()) {
            String[] parts = e.getKey().split("\\.", 3);
            int index = parts.length == 3 && parts[0].equals("state") && parts[1].matches("\\d{1,9}") ? Integer.parseInt(parts[1]) : -1;
            if (index < 0 || !stateTensorNames().contains(parts[2])) {
                throw new IllegalArgumentException(source + ": optimizer state tensor '" + e.getKey() + "' is not one " + kind
                        + " keeps; expected state.<index>.<name> with a name in " + stateTensorNames());
            }
            if (index >= parameters.size()) {
                throw new IllegalArgumentException(source + ": optimizer state tensor '" + e.getKey() + "' is for parameter index=" + index
                        + "; this " + kind + " has " + parameters.size() + " parameters (another model?)");
            }
            Tensor p = parameters.get(index);
            if (!e.getValue().shape().equals(p.shape())) {
                throw new IllegalArgumentException(source + ": optimizer state tensor '" + e.getKey() + "' has shape " + e.getValue().shape()
                        + "; expected " + p.shape() + ", the shape of parameter index=" + index);
            }
            perParameter.computeIfAbsent(index, i -> new LinkedHashMap<>()).put(parts[2], e.getValue());
        }
        for (Map.Entry<Integer, Map<String, Tensor>> e : perParameter.entrySet()) {
            if (!e.getValue().keySet().equals(stateTensorNames())) {
                throw new IllegalArgumentException(source + ": optimizer state of parameter index=" + e.getKey() + " has "
                        + e.getValue().keySet() + "; expected all of " + stateTensorNames() + " or none");
            }
        }
        try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
            restoreState(perParameter, state.values(), source);
        }
    }

    /** The names of the tensors this optimizer keeps per parameter (none by default). */
    protected Set<String> stateTensorNames() {
        return Set.of();
    }

    /**
     * Takes over checked state: for each parameter index that has state, its tensors by name (all of
     * {@link #stateTensorNames()}, shaped like the parameter); {@code values} as given. Must check the
     * values before changing anything. Runs under noGrad in a scope.
     */
    protected void restoreState(Map<Integer, Map<String, Tensor>> perParameter, Map<String, String> values, String source) {}

    /**
     * {@code value} copied into {@code existing}, or into new state shaped like parameter
     * {@code index} when there is none yet; on the parameter's backend and in its dtype.
     */
    protected final Tensor restoredState(Tensor existing, int index, Tensor value) {
        Tensor p = parameters.get(index);
        Tensor into = existing != null ? existing : newState(p);
        return into.copyFrom(value.to(p.backend()).cast(p.dtype()));
    }

    /** Frees the optimizer's state (not the parameters). */
    @Override
    public void close() {
        for (Tensor s : state) s.close();
        state.clear();
    }
}
